package io.icegate.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/**
 * The CLI's one duration parser: {@code --poll-interval} and {@code --refresh-interval} /
 * {@code --retention} accept the same forms (short ones and ISO-8601 with weeks) and refuse the
 * same ones, with the same reason (years and months are calendar-dependent).
 */
class DurationOptionTest {
  private final DurationOption.Converter poll = new DurationOption.Converter();

  @Test
  void shortFormsAndIsoTextAreAcceptedByEveryDurationOption() {
    assertThat(poll.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(poll.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(poll.convert("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(poll.convert("PT2S")).isEqualTo(Duration.ofSeconds(2));
    assertThat(poll.convert("P1W")).isEqualTo(Duration.ofDays(7));

    assertThat(DurationOption.iso("5m", "--refresh-interval")).isEqualTo("PT5M");
    assertThat(DurationOption.iso("30s", "--refresh-interval")).isEqualTo("PT30S");
    assertThat(DurationOption.iso("2h", "--refresh-interval")).isEqualTo("PT2H");
    assertThat(DurationOption.iso("7d", "--retention")).isEqualTo("P7D");
    assertThat(DurationOption.iso("500ms", "--retention")).isEqualTo("PT0.5S");
    // ISO text goes as given (the server answers its canonical form)
    assertThat(DurationOption.iso("P7D", "--retention")).isEqualTo("P7D");
    assertThat(DurationOption.iso("p1w", "--retention")).isEqualTo("P1W");
    assertThat(DurationOption.iso(" PT5M ", "--refresh-interval")).isEqualTo("PT5M");
    assertThat(DurationOption.iso(null, "--retention")).isNull();
  }

  @Test
  void calendarDurationsAndNonDurationsAreUsageErrorsNamingTheOption() {
    for (String calendar : new String[] {"P1M", "P1Y", "P1Y2M"}) {
      assertThatThrownBy(() -> DurationOption.iso(calendar, "--retention"))
          .isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains("--retention", "calendar", calendar);
          });
      assertThatThrownBy(() -> poll.convert(calendar))
          .isInstanceOf(TypeConversionException.class).hasMessageContaining("calendar");
    }
    for (String bad : new String[] {"soon", "5 minutes", "0s", "-PT5M", "5w"}) {
      assertThatThrownBy(() -> DurationOption.iso(bad, "--refresh-interval"))
          .isInstanceOfSatisfying(CliException.class, e -> {
            assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE);
            assertThat(e.getMessage()).contains("--refresh-interval");
          });
      assertThatThrownBy(() -> poll.convert(bad)).isInstanceOf(TypeConversionException.class);
    }
  }
}
