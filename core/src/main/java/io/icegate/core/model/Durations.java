package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ISO-8601 durations of resource members (an Overlay's refresh interval and retention).
 *
 * <p>Accepted: days, hours, minutes and seconds ({@code P7D}, {@code PT5M}, {@code P1DT12H}), a
 * day being exactly 24 hours as in {@link Duration#parse}, and weeks alone ({@code P2W}), a week
 * being exactly 7 days. Refused: years and months, whose length depends on the calendar (a month
 * is 28 to 31 days), so no exact duration stands for them.
 *
 * <p>Stored and answered in one canonical form per length: whole days as days, the rest as
 * hours, minutes and seconds ({@code P7D} and {@code P1W} both become {@code P7D}, {@code PT300S}
 * becomes {@code PT5M}, {@code PT36H} becomes {@code P1DT12H}), so equal durations read alike.
 */
public final class Durations {
  /**
   * The longest duration a member may name (3,660 days, about ten years): beyond it schedule
   * arithmetic in epoch milliseconds overflows, and no refresh or retention needs more.
   */
  static final Duration MAXIMUM = Duration.ofDays(3_660);

  private static final Pattern WEEKS = Pattern.compile("P(\\d{1,9})W", Pattern.CASE_INSENSITIVE);
  /** A date part (before any T) naming years or months. */
  private static final Pattern CALENDAR =
      Pattern.compile("[-+]?P[^T]*[YM].*", Pattern.CASE_INSENSITIVE);

  private Durations() {}

  /**
   * {@code text} parsed and in its canonical form, or {@code null} for {@code null}.
   *
   * @throws IcegateException INVALID_ARGUMENT naming {@code member} when it is not an ISO-8601
   *     duration of weeks, or of days, hours, minutes and seconds; names years or months (saying
   *     why); is shorter than {@code minimum} or longer than {@link #MAXIMUM}
   */
  static String normalize(String text, String member, Duration minimum) {
    if (text == null) {
      return null;
    }
    Duration parsed = parse(text, member);
    if (parsed.compareTo(minimum) < 0) {
      throw IcegateException.invalidArgument(member + " must be at least " + canonical(minimum)
          + ", got " + shortened(text));
    }
    if (parsed.compareTo(MAXIMUM) > 0) {
      throw IcegateException.invalidArgument(member + " must be at most " + canonical(MAXIMUM)
          + " (3660 days), got " + shortened(text));
    }
    return canonical(parsed);
  }

  private static Duration parse(String text, String member) {
    Matcher weeks = WEEKS.matcher(text);
    if (weeks.matches()) {
      return Duration.ofDays(Long.parseLong(weeks.group(1)) * 7);
    }
    if (CALENDAR.matcher(text).matches()) {
      throw IcegateException.invalidArgument(member + " must be an exact duration: years and "
          + "months depend on the calendar (a month is 28 to 31 days), give days or weeks "
          + "instead (e.g. P30D, P4W), got '" + shortened(text) + "'");
    }
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw IcegateException.invalidArgument(member + " must be an ISO-8601 duration such as "
          + "PT5M, P7D or P1W, got '" + shortened(text) + "'");
    }
  }

  /**
   * {@code duration} in the canonical form members are answered in: whole days as days, the rest
   * as {@link Duration#toString} writes it (the schedule views answer plan durations so too).
   */
  public static String canonical(Duration duration) {
    long days = duration.toDays();
    if (days == 0) {
      return duration.toString();
    }
    Duration time = duration.minusDays(days);
    return "P" + days + "D" + (time.isZero() ? "" : time.toString().substring(1));
  }

  private static String shortened(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
