package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/** The ISO-8601 durations of resource members (an Overlay's refresh interval and retention). */
final class Durations {
  /**
   * The longest duration a member may name (3,660 days, about ten years): beyond it schedule
   * arithmetic in epoch milliseconds overflows, and no refresh or retention needs more.
   */
  static final Duration MAXIMUM = Duration.ofDays(3_660);

  private Durations() {}

  /**
   * {@code text} parsed and normalized ({@code PT300S} becomes {@code PT5M}), or {@code null} for
   * {@code null}.
   *
   * @throws IcegateException INVALID_ARGUMENT naming {@code member} when it is not an ISO-8601
   *     duration (days, hours, minutes, seconds), shorter than {@code minimum} or longer than
   *     {@link #MAXIMUM}
   */
  static String normalize(String text, String member, Duration minimum) {
    if (text == null) {
      return null;
    }
    Duration parsed;
    try {
      parsed = Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw IcegateException.invalidArgument(member + " must be an ISO-8601 duration such as "
          + "PT5M, got '" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'");
    }
    if (parsed.compareTo(minimum) < 0) {
      throw IcegateException.invalidArgument(member + " must be at least " + minimum + ", got "
          + parsed);
    }
    if (parsed.compareTo(MAXIMUM) > 0) {
      throw IcegateException.invalidArgument(member + " must be at most " + MAXIMUM + " (3660 "
          + "days), got " + parsed);
    }
    return parsed.toString();
  }
}
