package io.icegate.access.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogConnectionConfigTest {

  private static final String PLANTED = "planted-Secret-Value-7731";

  private static CatalogConnectionConfig config(String endpoint, Map<String, String> properties) {
    return new CatalogConnectionConfig(
        CatalogProtocol.ICEBERG_REST,
        URI.create(endpoint),
        properties,
        new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2, Map.of("scope", "catalog")));
  }

  private static void assertRefused(Runnable build, String namedKey) {
    assertThatThrownBy(build::run)
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> {
              assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION);
              assertThat(e.getMessage()).doesNotContain(PLANTED);
              if (namedKey != null) {
                assertThat(e.getMessage()).contains(namedKey);
              }
            });
  }

  @Test
  void acceptsOrdinaryConfiguration() {
    CatalogConnectionConfig config =
        config(
            "https://catalog.example/api?warehouse=sales",
            Map.of(
                "warehouse",
                "sales",
                "header.X-Iceberg-Access-Delegation",
                "vended-credentials",
                "token-refresh-enabled",
                "true",
                "rest.signing-region",
                "us-east-1"));
    assertThat(config.properties()).containsEntry("warehouse", "sales");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "credential", "token", "s3.secret-access-key", "rest.session-token", "client-secret",
        "password", "s3.access-key-id", "adls.sas-token.account", "gcs.oauth2.token", "api-key"
      })
  void refusesSecretBearingProperties(String key) {
    assertRefused(() -> config("https://c.example", Map.of(key, PLANTED)), key);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "client.credentials-provider", "client.credentials-provider.role-arn",
        "aws.storage.registration", "aws.catalog.registration"
      })
  void refusesCredentialProviderHandles(String key) {
    assertRefused(() -> config("https://c.example", Map.of(key, PLANTED)), key);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "header.Authorization",
        "header.X-Api-Key",
        "header.Cookie",
        "HEADER.x-amz-security-token"
      })
  void refusesSecretHeaders(String key) {
    assertRefused(() -> config("https://c.example", Map.of(key, PLANTED)), null);
  }

  @Test
  void refusesUserInfoFragmentAndSecretQuery() {
    assertRefused(() -> config("https://user:" + PLANTED + "@c.example/v1", Map.of()), "user-info");
    assertRefused(() -> config("https://c.example/v1#" + PLANTED, Map.of()), "fragment");
    assertRefused(() -> config("https://c.example/v1?token=" + PLANTED, Map.of()), "token");
    assertRefused(
        () -> config("https://c.example/v1?a=1&X-Amz-Signature=" + PLANTED, Map.of()),
        "X-Amz-Signature");
    assertRefused(() -> config("https://c.example/v1?sig=" + PLANTED, Map.of()), "sig");
  }

  @Test
  void refusesNonHttpEndpoints() {
    assertRefused(() -> config("file:/etc/passwd", Map.of()), "scheme");
    assertRefused(() -> config("ftp://c.example/", Map.of()), "scheme");
    assertRefused(() -> config("/relative/path", Map.of()), null);
  }

  @Test
  void refusesSecretsInAuthenticationProperties() {
    assertRefused(
        () ->
            new CatalogAuthentication(
                CatalogAuthenticationScheme.OAUTH2, Map.of("client-secret", PLANTED)),
        "client-secret");
  }

  @Test
  void toStringRedactsValues() {
    CatalogConnectionConfig config =
        config("https://c.example/v1?warehouse=" + PLANTED, Map.of("warehouse", PLANTED));
    assertThat(config.toString())
        .contains("warehouse")
        .contains("c.example")
        .doesNotContain(PLANTED);
    ResolvedCatalogCredentials credentials =
        new ResolvedCatalogCredentials(
            Map.of("token", PLANTED), Map.of("Authorization", PLANTED), Instant.EPOCH);
    assertThat(credentials.toString()).contains("token").doesNotContain(PLANTED);
  }

  @Test
  void namesThatMerelyContainShortFragmentsAreAccepted() {
    assertThat(SecretBearingNames.isSecretBearing("design-mode")).isFalse();
    assertThat(SecretBearingNames.isSecretBearing("sasl")).isFalse();
    assertThat(SecretBearingNames.isSecretBearing("x-sig")).isTrue();
  }
}
