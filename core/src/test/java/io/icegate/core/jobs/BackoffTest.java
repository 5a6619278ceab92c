package io.icegate.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void doublesFromTheBaseAndStopsAtTheCap() {
    Backoff backoff = new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(70));
    assertThat(backoff.after(0)).isZero();
    assertThat(backoff.after(1)).isEqualTo(Duration.ofSeconds(10));
    assertThat(backoff.after(2)).isEqualTo(Duration.ofSeconds(20));
    assertThat(backoff.after(3)).isEqualTo(Duration.ofSeconds(40));
    assertThat(backoff.after(4)).isEqualTo(Duration.ofSeconds(70));
    assertThat(backoff.after(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(70));
  }

  @Test
  void aCapBelowTheBaseIsRefused() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
