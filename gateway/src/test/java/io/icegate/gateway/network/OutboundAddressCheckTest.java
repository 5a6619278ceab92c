package io.icegate.gateway.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

/**
 * The adapter only: the address rules are tested in the SPI's {@code OutboundAddressPolicyTest}.
 * Names resolve through a fixed resolver, so nothing here depends on the machine's DNS.
 */
class OutboundAddressCheckTest {

  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  private static OutboundAddressCheck resolvingTo(OutboundAddressPolicy policy, String... ips) {
    InetAddress[] addresses = new InetAddress[ips.length];
    for (int i = 0; i < ips.length; i++) {
      addresses[i] = ip(ips[i]);
    }
    return new OutboundAddressCheck(policy, host -> addresses.clone());
  }

  private static void assertRejected(OutboundAddressCheck check, String host) {
    assertThatThrownBy(() -> check.check(host))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.OUTBOUND_ADDRESS_REJECTED);
          assertThat(e.getMessage()).contains(host);
        });
  }

  @Test
  void literalsIncludingBracketedIpv6AreCheckedAgainstTheSpiPolicy() {
    OutboundAddressCheck check = new OutboundAddressCheck(OutboundAddressPolicy.defaults());
    assertRejected(check, "169.254.169.254");
    assertRejected(check, "[fe80::1]");
    assertRejected(check, "[::ffff:100.100.100.200]");
    assertThatCode(() -> check.check("[::1]")).doesNotThrowAnyException();
    assertThatCode(() -> check.check("10.1.2.3")).doesNotThrowAnyException();
  }

  @Test
  void everyResolvedAddressIsCheckedAndOnlyTheHostIsNamed() {
    OutboundAddressCheck check =
        resolvingTo(OutboundAddressPolicy.defaults(), "8.8.8.8", "169.254.169.254");
    assertRejected(check, "two.example.com");
    assertThatThrownBy(() -> check.check("two.example.com"))
        .hasMessageNotContaining("169.254.169.254");
  }

  @Test
  void aNameThatDoesNotResolveYetPasses() {
    OutboundAddressCheck unknown = new OutboundAddressCheck(OutboundAddressPolicy.defaults(),
        host -> {
          throw new UnknownHostException(host);
        });
    assertThatCode(() -> unknown.check("later.example.com")).doesNotThrowAnyException();
    assertThatCode(() -> resolvingTo(OutboundAddressPolicy.defaults()).check("none.example.com"))
        .doesNotThrowAnyException();
  }

  @Test
  void theServerSettingsReachTheCheck() {
    assertRejected(resolvingTo(OutboundAddressPolicy.defaults().denyPrivate(), "10.0.0.5"),
        "db.internal");
    assertRejected(resolvingTo(OutboundAddressPolicy.defaults().denyLoopback(), "127.0.0.1"),
        "localhost");
    assertThatCode(() -> resolvingTo(OutboundAddressPolicy.defaults().allowMetadataAddresses(),
        "169.254.10.7").check("link.local")).doesNotThrowAnyException();
  }
}
