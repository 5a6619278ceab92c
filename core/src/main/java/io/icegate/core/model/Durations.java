package io.icegate.core.model;

import io.icegate.admin.model.DurationText;
import io.icegate.core.error.IcegateException;
import java.time.Duration;

/**
 * The ISO-8601 durations of resource members (an Overlay's refresh interval and retention).
 *
 * <p>Parsed by admin-model's {@link DurationText#parseIso}, the one parser the CLI and the
 * server's flags use too: days, hours, minutes and seconds ({@code P7D}, {@code PT5M}, {@code
 * P1DT12H}), a day being exactly 24 hours, and weeks alone ({@code P2W}), a week being exactly 7
 * days. Refused: years and months, whose length depends on the calendar (a month is 28 to 31
 * days); any negative part, even when the total is positive ({@code P-1DT48H}); zero.
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
    try {
      return DurationText.parseIso(text);
    } catch (IllegalArgumentException e) {
      throw IcegateException.invalidArgument(member + " " + e.getMessage());
    }
  }

  /**
   * {@code duration} in the canonical form members are answered in ({@link
   * DurationText#canonical}; the schedule views answer plan durations so too).
   */
  public static String canonical(Duration duration) {
    return DurationText.canonical(duration);
  }

  private static String shortened(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }
}
