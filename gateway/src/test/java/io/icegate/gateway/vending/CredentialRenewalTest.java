package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * How long a vended credential of a managed table is handed out from the cache: until shortly
 * before its expiry (10 minutes, or half its lifetime when shorter), and on a 15-minute cadence when
 * the upstream reports no expiry.
 */
class CredentialRenewalTest {
  private static final Instant NOW = Instant.parse("2026-11-29T20:00:00Z");

  @Test
  void anHourLongSessionIsReplacedTenMinutesBeforeItExpires() {
    Instant expiry = NOW.plus(Duration.ofHours(1));
    assertThat(ManagedTableCredentials.usableUntil(NOW, expiry))
        .isEqualTo(expiry.minus(Duration.ofMinutes(10)));
  }

  @Test
  void aShortSessionIsReplacedAtHalfItsLifetime() {
    assertThat(ManagedTableCredentials.usableUntil(NOW, NOW.plusSeconds(4)))
        .isEqualTo(NOW.plusSeconds(2));
    assertThat(ManagedTableCredentials.usableUntil(NOW, NOW.plus(Duration.ofMinutes(16))))
        .isEqualTo(NOW.plus(Duration.ofMinutes(8)));
  }

  @Test
  void withoutAnExpiryItIsFetchedAgainOnTheCadence() {
    assertThat(ManagedTableCredentials.usableUntil(NOW, null))
        .isEqualTo(NOW.plus(ManagedTableCredentials.NO_EXPIRY_CADENCE))
        .isEqualTo(NOW.plus(Duration.ofMinutes(15)));
  }
}
