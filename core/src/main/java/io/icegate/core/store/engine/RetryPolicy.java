package io.icegate.core.store.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link EngineKvStore} retries a transaction body after a retryable failure: at most {@code
 * maxAttempts} runs, sleeping {@code initialBackoff * 2^(attempt-1)} capped at {@code maxBackoff},
 * scaled by a random factor in [0.5, 1) so that colliding writers spread out.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

  /** 100 attempts, 1 ms doubling to 200 ms: a contended key settles well within the 5 s limit. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(100, Duration.ofMillis(1), Duration.ofMillis(200));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("backoffs must satisfy 0 <= initial <= max");
    }
  }

  /** The nominal sleep before attempt {@code attempt + 1}, before jitter, in nanoseconds. */
  long backoffNanos(int attempt) {
    long initial = initialBackoff.toNanos();
    long max = maxBackoff.toNanos();
    int shift = Math.min(Math.max(attempt - 1, 0), 62);
    // Compare before shifting: a shifted large initial backoff would overflow past the cap.
    return initial > (max >> shift) ? max : initial << shift;
  }
}
