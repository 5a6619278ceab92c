package io.icegate.access.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OutboundAddressPolicyTest {

  private static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal);
  }

  /** A 16-byte IPv4-mapped address that the JDK would otherwise unmap on parse. */
  private static InetAddress mapped(String ipv4) throws Exception {
    byte[] v4 = InetAddress.getByName(ipv4).getAddress();
    byte[] v6 = new byte[16];
    v6[10] = (byte) 0xFF;
    v6[11] = (byte) 0xFF;
    System.arraycopy(v4, 0, v6, 12, 4);
    return Inet6Address.getByAddress(null, v6, -1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0.0.0.0",
        "0.1.2.3",
        "169.254.169.254",
        "169.254.0.1",
        "fe80::1",
        "febf::1",
        "fd00:ec2::254",
        "100.100.100.200",
        "::",
        "::ffff:169.254.169.254",
        "::ffff:100.100.100.200",
        "::ffff:0.0.0.1"
      })
  void refusesTheAlwaysDeniedRanges(String literal) throws Exception {
    assertThat(OutboundAddressPolicy.defaults().permits(ip(literal))).isFalse();
  }

  @Test
  void refusesIpv4MappedFormsKeptAs16Bytes() throws Exception {
    InetAddress metadata = mapped("169.254.169.254");
    assertThat(metadata).isInstanceOf(Inet6Address.class);
    assertThat(OutboundAddressPolicy.defaults().permits(metadata)).isFalse();
    assertThat(OutboundAddressPolicy.defaults().permits(mapped("100.100.100.200"))).isFalse();
    assertThat(OutboundAddressPolicy.defaults().permits(mapped("8.8.8.8"))).isTrue();
    assertThat(OutboundAddressPolicy.defaults().denyLoopback().permits(mapped("127.0.0.1")))
        .isFalse();
  }

  @Test
  void loopbackAndPrivateAllowedByDefaultAndDeniable() throws Exception {
    OutboundAddressPolicy policy = OutboundAddressPolicy.defaults();
    assertThat(policy.permits(ip("127.0.0.1"))).isTrue();
    assertThat(policy.permits(ip("::1"))).isTrue();
    assertThat(policy.permits(ip("10.1.2.3"))).isTrue();
    assertThat(policy.permits(ip("192.168.1.1"))).isTrue();
    assertThat(policy.permits(ip("100.100.100.201"))).isTrue();
    assertThat(policy.permits(ip("fd12::1"))).isTrue();
    assertThat(policy.denyLoopback().permits(ip("127.0.0.1"))).isFalse();
    assertThat(policy.denyLoopback().permits(ip("::1"))).isFalse();
    for (String denied : new String[] {"10.0.0.1", "172.16.0.1", "192.168.1.1", "100.64.0.1",
        "fd12::1"}) {
      assertThat(policy.denyPrivate().permits(ip(denied))).as(denied).isFalse();
    }
    assertThat(policy.denyPrivate().permits(ip("172.31.255.255"))).isFalse();
    assertThat(policy.denyPrivate().permits(ip("172.32.0.1"))).isTrue();
    assertThat(policy.denyPrivate().permits(ip("8.8.8.8"))).isTrue();
  }

  @Test
  void explicitAllowanceOverridesTheDenyList() throws Exception {
    OutboundAddressPolicy policy = OutboundAddressPolicy.defaults().allow("169.254.10.0/24");
    assertThat(policy.permits(ip("169.254.10.7"))).isTrue();
    assertThat(policy.permits(ip("169.254.169.254"))).isFalse();
  }

  @Test
  void metadataAddressesCanBeAllowedWithoutOpeningTheOtherRanges() throws Exception {
    OutboundAddressPolicy policy =
        OutboundAddressPolicy.defaults().denyLoopback().denyPrivate().allowMetadataAddresses();
    for (String allowed : new String[] {"169.254.169.254", "0.0.0.0", "fe80::1",
        "100.100.100.200", "::"}) {
      assertThat(policy.permits(ip(allowed))).as(allowed).isTrue();
    }
    assertThat(policy.permits(mapped("169.254.169.254"))).isTrue();
    assertThat(policy.permits(ip("127.0.0.1"))).isFalse();
    assertThat(policy.permits(ip("10.0.0.1"))).isFalse();
  }

  @Test
  void everyResolvedAddressIsChecked() throws Exception {
    OutboundAddressPolicy policy = OutboundAddressPolicy.defaults();
    assertThatThrownBy(
            () -> policy.check("two.example", List.of(ip("8.8.8.8"), ip("169.254.169.254"))))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED))
        .hasMessageContaining("169.254.169.254");
  }

  @Test
  void resolveChecksNamesAfterResolution() {
    assertThat(OutboundAddressPolicy.defaults().resolve("localhost")).isNotEmpty();
    assertThatThrownBy(() -> OutboundAddressPolicy.defaults().denyLoopback().resolve("localhost"))
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED));
  }

  @Test
  void rangesParseAndMatch() throws Exception {
    AddressRange range = AddressRange.parse("172.16.0.0/12");
    assertThat(range.contains(ip("172.20.1.1"))).isTrue();
    assertThat(range.contains(ip("172.15.1.1"))).isFalse();
    assertThat(range.contains(ip("::1"))).isFalse();
    assertThatThrownBy(() -> AddressRange.parse("example.com/8"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
