package io.icegate.cli.command;

import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one parser of the CLI's duration options ({@code --poll-interval}, {@code
 * --refresh-interval}, {@code --retention}): a short form ({@code 500ms}, {@code 30s}, {@code
 * 5m}, {@code 1h}, {@code 7d}) or an ISO-8601 duration ({@code PT5M}, {@code P7D}, {@code P1W}, a
 * week being 7 days and a day 24 hours); positive. Years and months ({@code P1M}) are refused:
 * their length depends on the calendar, as the server says too.
 */
final class DurationOption {
  private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");
  private static final Pattern WEEKS = Pattern.compile("P(\\d{1,9})W");
  /** An ISO date part (before any T) naming years or months. */
  private static final Pattern CALENDAR = Pattern.compile("[-+]?P[^T]*[YM].*");

  private DurationOption() {}

  /** {@code --poll-interval}'s converter. */
  static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value).duration();
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /**
   * {@code value} of option {@code option} as the ISO-8601 text sent to the server: a short form
   * converted ({@code 5m} is {@code PT5M}, {@code 7d} is {@code P7D}), ISO text as given (the
   * server answers it in its canonical form); {@code null} for {@code null}.
   *
   * @throws CliException USAGE naming the option when {@code value} is no duration
   */
  static String iso(String value, String option) {
    if (value == null) {
      return null;
    }
    try {
      return parse(value).iso();
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCode.USAGE, option + ": " + e.getMessage());
    }
  }

  /** A parsed value: its length and its ISO-8601 text. */
  private record Parsed(Duration duration, String iso) {}

  private static Parsed parse(String value) {
    String text = value.trim().toUpperCase(Locale.ROOT);
    Matcher shortForm = SHORT.matcher(value.trim().toLowerCase(Locale.ROOT));
    Matcher weeks = WEEKS.matcher(text);
    Parsed parsed;
    if (shortForm.matches()) {
      long n = Long.parseLong(shortForm.group(1));
      parsed = switch (shortForm.group(2)) {
        case "ms" -> new Parsed(Duration.ofMillis(n), Duration.ofMillis(n).toString());
        case "s" -> new Parsed(Duration.ofSeconds(n), "PT" + n + "S");
        case "m" -> new Parsed(Duration.ofMinutes(n), "PT" + n + "M");
        case "h" -> new Parsed(Duration.ofHours(n), "PT" + n + "H");
        default -> new Parsed(Duration.ofDays(n), "P" + n + "D");
      };
    } else if (weeks.matches()) {
      parsed = new Parsed(Duration.ofDays(Long.parseLong(weeks.group(1)) * 7), text);
    } else if (CALENDAR.matcher(text).matches()) {
      throw new IllegalArgumentException("years and months depend on the calendar (a month is "
          + "28 to 31 days): give days or weeks instead (e.g. 30d, P30D, P4W), got '" + value
          + "'");
    } else {
      try {
        parsed = new Parsed(Duration.parse(text), text);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("expected a duration such as 500ms, 30s, 5m, 1h, 7d, "
            + "PT5M, P7D or P1W, got '" + value + "'");
      }
    }
    if (parsed.duration().isNegative() || parsed.duration().isZero()) {
      throw new IllegalArgumentException("the duration must be positive, got '" + value + "'");
    }
    return parsed;
  }
}
