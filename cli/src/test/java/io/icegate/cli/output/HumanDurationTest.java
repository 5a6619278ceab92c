package io.icegate.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Lags and intervals print as people read them, never as ISO-8601 with fractions of seconds. */
class HumanDurationTest {
  @Test
  void largestUnitsFirstEachNonZeroPartOnceSecondsTruncated() {
    assertThat(HumanDuration.of(Duration.parse("PT3M48.423S"))).isEqualTo("3m48s");
    assertThat(HumanDuration.ofMillis(228_423)).isEqualTo("3m48s");
    assertThat(HumanDuration.ofMillis(500)).isEqualTo("500ms");
    assertThat(HumanDuration.ofMillis(0)).isEqualTo("0ms");
    assertThat(HumanDuration.ofIso("PT5M")).isEqualTo("5m");
    assertThat(HumanDuration.ofIso("PT5S")).isEqualTo("5s");
    assertThat(HumanDuration.ofIso("P7D")).isEqualTo("7d");
    assertThat(HumanDuration.ofIso("P1DT12H")).isEqualTo("1d12h");
    assertThat(HumanDuration.ofIso("PT1H0M30S")).isEqualTo("1h30s");
    assertThat(HumanDuration.ofMillis(-1_500)).isEqualTo("-1s");
    assertThat(HumanDuration.ofIso("not-a-duration")).isEqualTo("not-a-duration");
  }
}
