package io.icegate.core.store.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link EngineKvStore} retries a transaction body after a retryable failure: at most {@code
 * maxAttempts} runs, sleeping {@code initialBackoff * 2^(attempt-1)} capped at {@code maxBackoff},
 * scaled by a random factor in [0.5, 1) so that colliding writers spread out, and no new attempt
 * once {@code maxElapsed} has passed since the first began. The elapsed bound matters where one
 * attempt can itself wait long: a SQLite writer waits up to its busy timeout for the file's write
 * lock, so 100 attempts behind a lock held by another process would keep a request for minutes
 * instead of answering "contended, retry" (503 STORE_CONTENTION with Retry-After).
 */
public record RetryPolicy(
    int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration maxElapsed) {

  /**
   * No new attempt after 10 s: twice the 5 s transaction age limit (and SQLite busy timeout), so a
   * transaction that waited a full busy timeout once gets one more chance, never a third.
   */
  public static final Duration DEFAULT_MAX_ELAPSED = Duration.ofSeconds(10);

  /** 100 attempts, 1 ms doubling to 200 ms: a contended key settles well within the 5 s limit. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(100, Duration.ofMillis(1), Duration.ofMillis(200));

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(maxElapsed, "maxElapsed");
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("backoffs must satisfy 0 <= initial <= max");
    }
    if (maxElapsed.isNegative()) {
      throw new IllegalArgumentException("maxElapsed must not be negative");
    }
  }

  /** A policy that starts no new attempt {@link #DEFAULT_MAX_ELAPSED} after the first began. */
  public RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
    this(maxAttempts, initialBackoff, maxBackoff, DEFAULT_MAX_ELAPSED);
  }

  /** Whether another attempt may start {@code elapsedNanos} after the first began. */
  boolean mayStartAnother(int attemptsMade, long elapsedNanos) {
    return attemptsMade < maxAttempts && elapsedNanos < maxElapsed.toNanos();
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
