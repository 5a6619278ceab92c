package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hand-read shape of Delta's timestamp statistics gives what {@code java.time} gives for the
 * same text, and what it does not read goes to {@code java.time} unchanged.
 */
class StatsTimestampsTest {

  /** What the capture did before the hand-read shape: {@code java.time} alone. */
  static long javaTime(String text, boolean withZone) {
    if (withZone) {
      return ChronoUnit.MICROS.between(
          OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), OffsetDateTime.parse(text));
    }
    String local = text.endsWith("Z") ? text.substring(0, text.length() - 1) : text;
    return ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.parse(local));
  }

  static String outcome(java.util.function.LongSupplier read) {
    try {
      return Long.toString(read.getAsLong());
    } catch (DateTimeException | ArithmeticException e) {
      return "refused";
    }
  }

  static void sameAsJavaTime(String text) {
    for (boolean withZone : new boolean[] {true, false}) {
      assertThat(outcome(() -> StatsTimestamps.micros(text, withZone)))
          .as("%s (with zone: %s)", text, withZone)
          .isEqualTo(outcome(() -> javaTime(text, withZone)));
    }
  }

  @Test
  void theUsualShapesReadAsJavaTimeReadsThem() {
    Random random = new Random(26);
    DateTimeFormatter millis = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS", Locale.ROOT);
    List<String> offsets = List.of("", "Z", "+00:00", "-00:00", "+05:30", "-08:00", "+14:00", "-12:45");
    for (int i = 0; i < 20_000; i++) {
      // years 0 to 9999: every instant the usual shape can write
      long second = random.nextLong(-62_167_219_200L, 253_402_300_799L);
      LocalDateTime local =
          LocalDateTime.ofEpochSecond(second, random.nextInt(1000) * 1_000_000, ZoneOffset.UTC);
      sameAsJavaTime(local.format(millis) + offsets.get(random.nextInt(offsets.size())));
    }
  }

  @Test
  void theUsualShapeIsExactAtKnownInstants() {
    assertThat(StatsTimestamps.micros("2023-11-14T22:13:20.123Z", true))
        .isEqualTo(1_700_000_000_123_000L);
    assertThat(StatsTimestamps.micros("2023-11-14T14:13:20.123-08:00", true))
        .isEqualTo(1_700_000_000_123_000L);
    assertThat(StatsTimestamps.micros("2023-11-14T22:13:20.123", false))
        .isEqualTo(1_700_000_000_123_000L);
    assertThat(StatsTimestamps.micros("1969-12-31T23:59:59.999Z", true)).isEqualTo(-1000L);
    assertThatThrownBy(() -> StatsTimestamps.micros("2023-11-14T22:13:20.123", true))
        .isInstanceOf(DateTimeException.class);
    assertThatThrownBy(() -> StatsTimestamps.micros("2023-11-14T22:13:20.123+01:00", false))
        .isInstanceOf(DateTimeException.class);
  }

  @Test
  void otherTextIsJavaTimesToReadOrRefuse() {
    List<String> texts = new ArrayList<>();
    texts.addAll(
        List.of(
            "2023-02-29T00:00:00.000Z", // not a leap year
            "2024-02-29T00:00:00.000Z",
            "2023-04-31T00:00:00.000Z",
            "2023-13-01T00:00:00.000Z",
            "2023-00-01T00:00:00.000Z",
            "2023-01-00T00:00:00.000Z",
            "2023-01-01T24:00:00.000Z",
            "2023-01-01T23:60:00.000Z",
            "2023-01-01T23:59:60.000Z",
            "2023-01-01T23:59:59.999+18:00",
            "2023-01-01T23:59:59.999-18:00",
            "2023-01-01T23:59:59.999+18:01",
            "2023-01-01T23:59:59.999+17:59",
            "2023-01-01T23:59:59.999+5:30",
            "2023-01-01T23:59:59.999 05:30",
            "2023-01-01T23:59:59.999+05:3x",
            "2023-01-01T23:59:59.999+05:30:15",
            "2023-01-01T23:59:59.999Zx",
            "2023-01-01T23:59:59.9Z",
            "2023-01-01T23:59:59.123456Z",
            "2023-01-01T23:59:59.123456789+01:00",
            "2023-01-01T23:59:59Z",
            "2023-01-01T23:59Z",
            "2023-01-01 23:59:59.999Z",
            "2023/01/01T23:59:59.999Z",
            "-001-01-01T00:00:00.000Z",
            "+10000-01-01T00:00:00.000Z",
            "+294247-01-10T04:00:54.775",
            "-290308-12-21T19:59:05.225Z",
            "２０２３-01-01T00:00:00.000Z",
            "2023-01-01t00:00:00.000z",
            "",
            "Z",
            "not a timestamp at all, but long enough"));
    texts.forEach(StatsTimestampsTest::sameAsJavaTime);
  }
}
