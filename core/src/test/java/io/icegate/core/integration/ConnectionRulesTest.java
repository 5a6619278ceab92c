package io.icegate.core.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import java.net.InetAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectionRulesTest {

  private static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal);
  }

  @Test
  void alwaysRefusedRangesIncludingMappedForms() throws Exception {
    OutboundAddressPolicy policy = new OutboundAddressPolicy(OutboundAddressPolicy.Settings.DEFAULT);
    for (String refused : new String[] {"0.0.0.0", "0.1.2.3", "169.254.169.254", "fe80::1",
        "fd00:ec2::254", "100.100.100.200", "::ffff:169.254.169.254", "::ffff:100.100.100.200",
        "::ffff:0.0.0.1"}) {
      assertThat(policy.allowed(ip(refused))).as(refused).isFalse();
    }
    for (String allowed : new String[] {"127.0.0.1", "10.1.2.3", "192.168.1.1", "8.8.8.8", "::1",
        "fd12::1", "100.100.100.201"}) {
      assertThat(policy.allowed(ip(allowed))).as(allowed).isTrue();
    }
  }

  @Test
  void loopbackAndPrivateDeniableBySetting() throws Exception {
    OutboundAddressPolicy strict =
        new OutboundAddressPolicy(new OutboundAddressPolicy.Settings(false, true, true));
    for (String denied : new String[] {"127.0.0.1", "::1", "10.0.0.1", "172.16.0.1",
        "192.168.0.1", "fd12::1"}) {
      assertThat(strict.allowed(ip(denied))).as(denied).isFalse();
    }
    OutboundAddressPolicy open =
        new OutboundAddressPolicy(new OutboundAddressPolicy.Settings(true, false, false));
    assertThat(open.allowed(ip("169.254.169.254"))).isTrue();
  }

  @Test
  void everyResolvedAddressIsChecked() {
    OutboundAddressPolicy policy = new OutboundAddressPolicy(
        OutboundAddressPolicy.Settings.DEFAULT, host -> {
          try {
            return new InetAddress[] {ip("8.8.8.8"), ip("169.254.169.254")};
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    assertThatThrownBy(() -> policy.check("two.example.com"))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.OUTBOUND_ADDRESS_REJECTED));
  }

  @Test
  void boundaryNamesTheKeyAndNeverTheValue() {
    String secret = "zz-secret-value";
    for (Map<String, String> props : new Map[] {
        Map.of("client.secret", secret), Map.of("Password", secret), Map.of("token", secret),
        Map.of("credential", secret), Map.of("header.Authorization", secret),
        Map.of("client.credentials-provider", secret), Map.of("s3.secret-access-key", secret)}) {
      assertThatThrownBy(() -> ConnectionBoundary.check("https://h.example.com", props))
          .as(props.keySet().toString())
          .isInstanceOfSatisfying(IcegateException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONNECTION_SETTING_REJECTED);
            assertThat(e.getMessage()).contains(props.keySet().iterator().next())
                .doesNotContain(secret);
          });
    }
    assertThat(ConnectionBoundary.check("https://h.example.com/v1?warehouse=w",
        Map.of("warehouse", "w", "header.X-Iceberg-Access-Delegation", "vended-credentials")))
        .hasHost("h.example.com");
  }
}
