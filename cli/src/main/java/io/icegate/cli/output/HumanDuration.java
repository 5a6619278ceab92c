package io.icegate.cli.output;

import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * A duration as people read it in the CLI's tables: the largest units first, each non-zero part
 * once ({@code 3m48s}, {@code 1d2h}, {@code 7d}, {@code 500ms}), seconds truncated when there are
 * larger parts (a lag of {@code PT3M48.423S} is {@code 3m48s}). JSON output keeps the server's
 * values as they are.
 */
public final class HumanDuration {
  private HumanDuration() {}

  /** {@code duration} in short form; a negative one with a leading minus. */
  public static String of(Duration duration) {
    if (duration.isNegative()) {
      return "-" + of(duration.negated());
    }
    if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
      return duration.toMillis() + "ms";
    }
    StringBuilder out = new StringBuilder();
    part(out, duration.toDaysPart(), "d");
    part(out, duration.toHoursPart(), "h");
    part(out, duration.toMinutesPart(), "m");
    part(out, duration.toSecondsPart(), "s");
    return out.toString();
  }

  /** Milliseconds in short form. */
  public static String ofMillis(long millis) {
    return of(Duration.ofMillis(millis));
  }

  /** ISO-8601 text as the server answers it ({@code PT5M}, {@code P7D}) in short form. */
  public static String ofIso(String iso) {
    try {
      return of(Duration.parse(iso));
    } catch (DateTimeParseException e) {
      return iso; // not ours to judge: shown as the server gave it
    }
  }

  private static void part(StringBuilder out, long value, String unit) {
    if (value != 0) {
      out.append(value).append(unit);
    }
  }
}
