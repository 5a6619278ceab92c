package io.icegate.access.delta.iceberg;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * A timestamp bound of Delta's statistics as microseconds since the epoch: ISO-8601 with an offset
 * for {@code timestamp} ({@code 2023-11-14T22:13:20.123Z}, {@code ...-08:00}), without one (or with
 * {@code Z}) for {@code timestamp_ntz}. What {@code java.time} accepts is accepted; the usual shape,
 * milliseconds and a {@code Z} or {@code ±HH:MM} offset, is read by hand first: a full capture reads
 * two per timestamp column per file, and {@code java.time}'s parser was half of the statistics'
 * cost (DeltaCaptureBench). Anything else goes to {@code java.time}, which decides.
 */
final class StatsTimestamps {

  private static final OffsetDateTime EPOCH = OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
  private static final LocalDateTime LOCAL_EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
  private static final int SHAPE = "2023-11-14T22:13:20.123".length();
  private static final long NOT_READ = Long.MIN_VALUE;

  private StatsTimestamps() {}

  /**
   * @param withZone whether the column is {@code timestamp} (an offset required) rather than
   *     {@code timestamp_ntz} (no offset, or {@code Z})
   * @throws DateTimeException when the text is not such a timestamp
   * @throws ArithmeticException when it lies beyond what microseconds in a long can hold
   */
  static long micros(String text, boolean withZone) {
    long micros = usualShape(text, withZone);
    if (micros != NOT_READ) {
      return micros;
    }
    if (withZone) {
      return ChronoUnit.MICROS.between(EPOCH, OffsetDateTime.parse(text));
    }
    String local = text.endsWith("Z") ? text.substring(0, text.length() - 1) : text;
    return ChronoUnit.MICROS.between(LOCAL_EPOCH, LocalDateTime.parse(local));
  }

  /**
   * {@code yyyy-MM-ddTHH:mm:ss.SSS} and {@code Z}, {@code ±HH:MM} (with zone) or nothing, {@code Z}
   * (without), every field in range; {@link #NOT_READ} for any other text, which {@code java.time}
   * then reads (or refuses) as before.
   */
  private static long usualShape(String text, boolean withZone) {
    int length = text.length();
    if (length < SHAPE
        || text.charAt(4) != '-'
        || text.charAt(7) != '-'
        || text.charAt(10) != 'T'
        || text.charAt(13) != ':'
        || text.charAt(16) != ':'
        || text.charAt(19) != '.') {
      return NOT_READ;
    }
    int offsetSeconds;
    if (length == SHAPE) {
      if (withZone) {
        return NOT_READ;
      }
      offsetSeconds = 0;
    } else if (length == SHAPE + 1 && text.charAt(SHAPE) == 'Z') {
      offsetSeconds = 0;
    } else if (withZone && length == SHAPE + 6 && text.charAt(SHAPE + 3) == ':') {
      char sign = text.charAt(SHAPE);
      int hours = digits(text, SHAPE + 1, 2);
      int minutes = digits(text, SHAPE + 4, 2);
      if ((sign != '+' && sign != '-') || hours < 0 || hours > 17 || minutes < 0 || minutes > 59) {
        return NOT_READ;
      }
      offsetSeconds = (sign == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
    } else {
      return NOT_READ;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 5, 2);
    int day = digits(text, 8, 2);
    int hour = digits(text, 11, 2);
    int minute = digits(text, 14, 2);
    int second = digits(text, 17, 2);
    int millis = digits(text, 20, 3);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > 28 && day > LocalDate.of(year, month, 1).lengthOfMonth()
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || millis < 0) {
      return NOT_READ;
    }
    long epochSecond =
        LocalDate.of(year, month, day).toEpochDay() * 86_400L
            + hour * 3600L
            + minute * 60L
            + second
            - offsetSeconds;
    return epochSecond * 1_000_000L + millis * 1000L;
  }

  /** The decimal number of {@code count} ASCII digits at {@code from}; -1 if one is not a digit. */
  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
