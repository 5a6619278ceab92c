package io.icegate.access.aws;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a registration refreshes.
 *
 * <p>Credentials with an expiry refresh ahead of it by a skew that adapts to their lifetime: a
 * fifth of the lifetime, clamped to [{@code minSkew}, {@code maxSkew}], so one-hour STS sessions
 * refresh five minutes early while fifteen-minute ones are not refreshed almost at once.
 * Credentials without an expiry refresh every {@code cadence}. After a transient failure while the
 * old credentials still work, the next attempt waits {@code retryBackoff}.
 *
 * @param minSkew smallest lead before expiry
 * @param maxSkew largest lead before expiry
 * @param cadence refresh interval for credentials that report no expiry
 * @param retryBackoff pause after a transient failure while the current credentials are valid
 */
public record RefreshTiming(
    Duration minSkew, Duration maxSkew, Duration cadence, Duration retryBackoff) {

  public RefreshTiming {
    Objects.requireNonNull(minSkew, "minSkew");
    Objects.requireNonNull(maxSkew, "maxSkew");
    Objects.requireNonNull(cadence, "cadence");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    if (minSkew.compareTo(maxSkew) > 0) {
      throw new IllegalArgumentException("minSkew must not exceed maxSkew");
    }
  }

  /** 5 s to 5 min skew, 15 min cadence, 1 s retry backoff. */
  public static RefreshTiming defaults() {
    return new RefreshTiming(
        Duration.ofSeconds(5),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofSeconds(1));
  }

  /** The lead before expiry for credentials obtained at {@code obtainedAt}. */
  public Duration skew(Instant obtainedAt, Instant expiration) {
    Duration fifth = Duration.between(obtainedAt, expiration).dividedBy(5);
    if (fifth.compareTo(minSkew) < 0) {
      return minSkew;
    }
    return fifth.compareTo(maxSkew) > 0 ? maxSkew : fifth;
  }

  /** Whether credentials obtained at {@code obtainedAt} are due for refresh at {@code now}. */
  public boolean due(ResolvedAwsCredentials credentials, Instant obtainedAt, Instant now) {
    if (credentials.expiration() == null) {
      return !now.isBefore(obtainedAt.plus(cadence));
    }
    Instant refreshAt = credentials.expiration().minus(skew(obtainedAt, credentials.expiration()));
    return !now.isBefore(refreshAt);
  }
}
