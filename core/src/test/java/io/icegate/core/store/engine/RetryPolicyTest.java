package io.icegate.core.store.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void backoffDoublesFromInitialUpToTheCap() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(1), Duration.ofMillis(10));
    assertThat(policy.backoffNanos(1)).isEqualTo(ms(1));
    assertThat(policy.backoffNanos(2)).isEqualTo(ms(2));
    assertThat(policy.backoffNanos(3)).isEqualTo(ms(4));
    assertThat(policy.backoffNanos(4)).isEqualTo(ms(8));
    assertThat(policy.backoffNanos(5)).isEqualTo(ms(10));
    assertThat(policy.backoffNanos(1_000)).isEqualTo(ms(10));
    assertThat(policy.backoffNanos(Integer.MAX_VALUE)).isEqualTo(ms(10));
  }

  @Test
  void largeBackoffsDoNotOverflowBelowTheCap() {
    // 20 s << 30 passes 2^64 and would wrap to a positive value below an uncapped maximum.
    Duration cap = Duration.ofNanos(Long.MAX_VALUE);
    RetryPolicy policy = new RetryPolicy(100, Duration.ofSeconds(20), cap);
    long previous = 0;
    for (int attempt = 1; attempt < 100; attempt++) {
      long backoff = policy.backoffNanos(attempt);
      assertThat(backoff).as("attempt %d", attempt).isGreaterThanOrEqualTo(previous);
      previous = backoff;
    }
    assertThat(previous).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void zeroBackoffNeverSleeps() {
    assertThat(new RetryPolicy(3, Duration.ZERO, Duration.ZERO).backoffNanos(2)).isZero();
    assertThat(new RetryPolicy(3, Duration.ZERO, Duration.ofSeconds(1)).backoffNanos(40)).isZero();
  }

  @Test
  void invalidPoliciesAreRejected() {
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(2), Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofMillis(-1), Duration.ofMillis(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void noAttemptStartsAfterTheElapsedBound() {
    RetryPolicy policy =
        new RetryPolicy(100, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(10));
    assertThat(policy.mayStartAnother(1, Duration.ofSeconds(9).toNanos())).isTrue();
    assertThat(policy.mayStartAnother(1, Duration.ofSeconds(10).toNanos())).isFalse();
    assertThat(policy.mayStartAnother(100, 0)).isFalse();
    assertThat(new RetryPolicy(3, Duration.ZERO, Duration.ZERO).maxElapsed())
        .isEqualTo(RetryPolicy.DEFAULT_MAX_ELAPSED);
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ZERO, Duration.ZERO, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static long ms(long millis) {
    return Duration.ofMillis(millis).toNanos();
  }
}
