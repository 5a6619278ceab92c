package io.icegate.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The CLI's one duration parser: {@code --poll-interval} and {@code --refresh-interval} /
 * {@code --retention} accept the same forms (short ones with weeks, and ISO-8601 with weeks) and
 * refuse the same ones, with the same reason (years and months are calendar-dependent, no part
 * may be negative), each a usage error naming the option.
 */
class DurationOptionTest {

  private static Duration poll(String value) {
    return DurationOption.duration(value, "--poll-interval");
  }

  @Test
  void shortFormsAndIsoTextAreAcceptedByEveryDurationOption() {
    assertThat(poll("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(poll("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(poll("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(poll("2w")).isEqualTo(Duration.ofDays(14));
    assertThat(poll("PT2S")).isEqualTo(Duration.ofSeconds(2));
    // what the CLI prints (HumanDuration) is accepted back
    assertThat(poll("1d12h")).isEqualTo(Duration.ofHours(36));
    assertThat(poll("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(poll("3m48s")).isEqualTo(Duration.ofSeconds(228));
    assertThat(poll("1w2d")).isEqualTo(Duration.ofDays(9));
    assertThat(poll("1s500ms")).isEqualTo(Duration.ofMillis(1500));
    for (Duration d : new Duration[] {Duration.ofSeconds(228), Duration.ofHours(36),
        Duration.ofDays(9).plusMinutes(1), Duration.ofMillis(500)}) {
      assertThat(poll(io.icegate.cli.output.HumanDuration.of(d))).isEqualTo(d);
    }
    assertThat(poll("P1W")).isEqualTo(Duration.ofDays(7));

    assertThat(DurationOption.iso("5m", "--refresh-interval")).isEqualTo("PT5M");
    assertThat(DurationOption.iso("30s", "--refresh-interval")).isEqualTo("PT30S");
    assertThat(DurationOption.iso("2h", "--refresh-interval")).isEqualTo("PT2H");
    assertThat(DurationOption.iso("7d", "--retention")).isEqualTo("P7D");
    assertThat(DurationOption.iso("2w", "--retention")).isEqualTo("P14D");
    assertThat(DurationOption.iso("500ms", "--retention")).isEqualTo("PT0.5S");
    // ISO text goes in the form the server answers
    assertThat(DurationOption.iso("P7D", "--retention")).isEqualTo("P7D");
    assertThat(DurationOption.iso("p1w", "--retention")).isEqualTo("P7D");
    assertThat(DurationOption.iso(" PT5M ", "--refresh-interval")).isEqualTo("PT5M");
    assertThat(DurationOption.iso("PT36H", "--refresh-interval")).isEqualTo("P1DT12H");
    assertThat(DurationOption.iso(null, "--retention")).isNull();
  }

  @Test
  void calendarDurationsAndNonDurationsAreUsageErrorsNamingTheOption() {
    for (String calendar : new String[] {"P1M", "P1Y", "P1Y2M"}) {
      for (String option : new String[] {"--retention", "--poll-interval"}) {
        assertThatThrownBy(() -> DurationOption.duration(calendar, option))
            .isInstanceOfSatisfying(CliException.class, e -> {
              assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
              assertThat(e.getMessage()).startsWith(option + ": ")
                  .contains("calendar", calendar);
            });
      }
    }
    for (String bad : new String[] {"soon", "5 minutes", "0s", "PT0S", "-PT5M", "5y", "12h1d",
        "5m5m", "", "h", "99999999999999w"}) {
      assertThatThrownBy(() -> DurationOption.iso(bad, "--refresh-interval"))
          .isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains("--refresh-interval");
          });
    }
  }

  /** A negative part is refused even when the total is positive (P-1DT48H is one day). */
  @Test
  void aNegativePartIsRefusedEvenWhenTheTotalIsPositive() {
    for (String riddle : new String[] {"P-1DT48H", "PT2H-30M", "P1DT-1S", "-P-1D"}) {
      assertThatThrownBy(() -> poll(riddle)).as(riddle)
          .isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains("--poll-interval", "negative", riddle);
          });
    }
  }
}
