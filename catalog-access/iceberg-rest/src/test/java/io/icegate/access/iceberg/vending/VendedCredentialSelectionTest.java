package io.icegate.access.iceberg.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.iceberg.vending.VendedCredentialSelection.Offered;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Edge cases of the selection rule; the main rules run against the upstream fixture. */
class VendedCredentialSelectionTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final String TABLE = "s3://b/db/t";

  private static Map<String, String> session(long expiresAtMs) {
    return Map.of(
        "s3.access-key-id", "k",
        "s3.secret-access-key", "s",
        "s3.session-token", "t",
        "s3.session-token-expires-at-ms", Long.toString(expiresAtMs));
  }

  @Test
  void entriesWithoutS3KeysAreNotS3Credentials() {
    assertThat(
            VendedCredentialSelection.select(
                List.of(new Offered("gs://b/", Map.of("gcs.oauth2.token", "x"))), TABLE, NOW))
        .isEmpty();
  }

  @Test
  void anExpiredWinnerIsReportedAsExpired() {
    assertThatThrownBy(
            () ->
                VendedCredentialSelection.select(
                    List.of(new Offered("s3://b/", session(NOW.toEpochMilli() - 1))), TABLE, NOW))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.CREDENTIAL_EXPIRED));
  }

  @Test
  void aNonPositiveExpiryIsInvalid() {
    assertThatThrownBy(
            () ->
                VendedCredentialSelection.select(
                    List.of(new Offered("s3://b/", session(0))), TABLE, NOW))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
  }

  @Test
  void anIncompleteNonCoveringEntryDoesNotSpoilACompleteCoveringOne() {
    assertThat(
            VendedCredentialSelection.select(
                List.of(
                    new Offered("s3://other/", Map.of("s3.access-key-id", "only")),
                    new Offered("s3://b/db", session(NOW.toEpochMilli() + 60_000))),
                TABLE,
                NOW))
        .hasValueSatisfying(v -> assertThat(v.prefix()).isEqualTo("s3://b/db"));
  }

  @Test
  void errorMessagesNameThePrefixButNoValue() {
    assertThatThrownBy(
            () ->
                VendedCredentialSelection.select(
                    List.of(
                        new Offered(
                            "s3://b/",
                            Map.of(
                                "s3.access-key-id",
                                "AKIDSECRETVALUE",
                                "s3.secret-access-key",
                                "SECRETVALUE"))),
                    TABLE,
                    NOW))
        .hasMessageContaining("s3://b/")
        .hasMessageNotContaining("SECRETVALUE");
  }
}
