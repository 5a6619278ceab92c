package io.icegate.core.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The connection boundary of seed 001. The outbound address rules are the catalog-access SPI's
 * {@code OutboundAddressPolicy} (its own test) and are checked over HTTP in the gateway's admin
 * tests.
 */
class ConnectionRulesTest {

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
