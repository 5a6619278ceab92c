package io.icegate.core.jobs;

import java.time.Duration;
import java.util.Objects;

/**
 * Exponential, capped backoff between failed rounds: {@code base} after the first failure,
 * doubling with each further one, never more than {@code cap}.
 */
public record Backoff(Duration base, Duration cap) {

  /** 10 seconds doubling up to 15 minutes. */
  public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(10), Duration.ofMinutes(15));

  public Backoff {
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(cap, "cap");
    if (base.isNegative() || cap.compareTo(base) < 0) {
      throw new IllegalArgumentException("backoff base " + base + " must be >= 0 and <= " + cap);
    }
  }

  /** The wait after {@code failures} consecutive failed rounds (0 for none). */
  public Duration after(int failures) {
    if (failures <= 0) {
      return Duration.ZERO;
    }
    int doublings = Math.min(failures - 1, 40); // 2^40 times any base passes any sane cap
    long millis = base.toMillis();
    for (int i = 0; i < doublings && millis < cap.toMillis(); i++) {
      millis *= 2;
    }
    return Duration.ofMillis(Math.min(millis, cap.toMillis()));
  }
}
