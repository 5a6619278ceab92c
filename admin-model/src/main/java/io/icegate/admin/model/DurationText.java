package io.icegate.admin.model;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalUnit;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one parser of durations as administrators write them: the admin API's duration members
 * (an Overlay's refresh interval and retention; core's {@code model.Durations}), the CLI's
 * duration options and the server's duration flags. Here, because it is the lowest module both
 * the CLI and the server use.
 *
 * <p>Accepted: ISO-8601 days, hours, minutes and seconds ({@code P7D}, {@code PT5M}, {@code
 * P1DT12H}), a day being exactly 24 hours as in {@link Duration#parse}, and weeks alone ({@code
 * P2W}), a week being exactly 7 days; where a short form is allowed ({@link #parse}), also {@code
 * 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 7d}, {@code 2w} and their combinations,
 * largest unit first ({@code 1d12h}, {@code 3m48s}: what the CLI prints). Refused, with the reason:
 * years and months, whose length depends on the calendar; any negative part, even when the total
 * is positive ({@code P-1DT48H}: one day, written as a riddle); a total of zero or less.
 *
 * <p>Messages start with "must ..." so that callers prefix what they parsed: the member
 * ({@code refreshInterval must ...}) or the option ({@code --poll-interval: must ...}).
 */
public final class DurationText {
  /** Short parts, largest unit first, each at most once: {@code 1d12h}, {@code 3m48s}, as the CLI prints. */
  private static final Pattern SHORT =
      Pattern.compile("(?:(\\d{1,12})w)?(?:(\\d{1,12})d)?(?:(\\d{1,12})h)?"
          + "(?:(\\d{1,12})m)?(?:(\\d{1,12})s)?(?:(\\d{1,12})ms)?");
  private static final List<TemporalUnit> SHORT_UNITS =
      List.of(ChronoUnit.WEEKS, ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
          ChronoUnit.SECONDS, ChronoUnit.MILLIS);
  private static final Pattern WEEKS = Pattern.compile("\\+?P(\\d{1,9})W");
  /** An ISO date part (before any T) naming years or months. */
  private static final Pattern CALENDAR = Pattern.compile("[-+]?P[^T]*[YM].*");

  private DurationText() {}

  /**
   * {@code text} as an ISO-8601 duration (admin API members).
   *
   * @throws IllegalArgumentException saying why, when it is not a positive ISO-8601 duration of
   *     weeks, or of days, hours, minutes and seconds none of which is negative
   */
  public static Duration parseIso(String text) {
    return positive(iso(text.trim().toUpperCase(Locale.ROOT), text,
        "an ISO-8601 duration such as PT5M, P7D or P1W"), text);
  }

  /**
   * {@code text} as a short form ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 7d},
   * {@code 2w}) or an ISO-8601 duration (CLI options and server flags).
   *
   * @throws IllegalArgumentException as {@link #parseIso}
   */
  public static Duration parse(String text) {
    String lower = text.trim().toLowerCase(Locale.ROOT);
    Matcher shortForm = SHORT.matcher(lower);
    if (lower.isEmpty() || !shortForm.matches()) {
      return positive(iso(text.trim().toUpperCase(Locale.ROOT), text,
          "a duration such as 30s, 5m, 1h30m, 7d, 2w, PT5M, P7D or P1W"), text);
    }
    Duration total = Duration.ZERO;
    try {
      for (int i = 0; i < SHORT_UNITS.size(); i++) {
        String part = shortForm.group(i + 1);
        if (part != null) {
          // weeks are exactly 7 days, days exactly 24 hours (Duration's estimated units would
          // refuse them: ChronoUnit.WEEKS is an estimate)
          TemporalUnit unit = SHORT_UNITS.get(i);
          long n = Long.parseLong(part);
          total = total.plus(unit == ChronoUnit.WEEKS
              ? Duration.ofDays(Math.multiplyExact(n, 7L)) : Duration.of(n, unit));
        }
      }
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("must be a duration that fits, got '" + shortened(text)
          + "'");
    }
    return positive(total, text);
  }

  /**
   * {@code duration} in the canonical form members are answered in: whole days as days, the rest
   * as {@link Duration#toString} writes it ({@code P7D}, {@code P1DT12H}, {@code PT5M}).
   */
  public static String canonical(Duration duration) {
    long days = duration.toDays();
    if (days == 0) {
      return duration.toString();
    }
    Duration time = duration.minusDays(days);
    return "P" + days + "D" + (time.isZero() ? "" : time.toString().substring(1));
  }

  private static Duration iso(String upper, String text, String expected) {
    Matcher weeks = WEEKS.matcher(upper);
    if (weeks.matches()) {
      return Duration.ofDays(Long.parseLong(weeks.group(1)) * 7);
    }
    if (CALENDAR.matcher(upper).matches()) {
      throw new IllegalArgumentException("must be an exact duration: years and months depend on "
          + "the calendar (a month is 28 to 31 days), give days or weeks instead (e.g. P30D, "
          + "P4W), got '" + shortened(text) + "'");
    }
    if (upper.indexOf('-') >= 0) {
      // Duration.parse takes a sign per part: P-1DT48H is one day; refused as unreadable.
      throw new IllegalArgumentException("must be positive with no negative part, got '"
          + shortened(text) + "'");
    }
    try {
      return Duration.parse(upper);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("must be " + expected + ", got '" + shortened(text)
          + "'");
    }
  }

  private static Duration positive(Duration duration, String text) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("must be positive, got '" + shortened(text) + "'");
    }
    return duration;
  }

  private static String shortened(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
