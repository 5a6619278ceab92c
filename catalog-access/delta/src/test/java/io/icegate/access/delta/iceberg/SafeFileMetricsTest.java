package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Delta statistics (protocol "Per-file Statistics") as Iceberg bounds that never exclude a row:
 * each case is one way Delta's numbers are looser than Iceberg's promise.
 */
class SafeFileMetricsTest {

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(4, "local", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(5, "day", Types.DateType.get()),
          Types.NestedField.optional(6, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(
              7, "address", Types.StructType.of(Types.NestedField.optional(8, "city", Types.StringType.get()))),
          Types.NestedField.optional(9, "ratio", Types.DoubleType.get()));

  static final Map<Integer, List<String>> PATHS =
      Map.of(
          1, List.of("id"),
          2, List.of("name"),
          3, List.of("ts"),
          4, List.of("local"),
          5, List.of("day"),
          6, List.of("amount"),
          7, List.of("address"),
          8, List.of("address", "col-city"),
          9, List.of("ratio"));

  static Metrics metrics(String stats) {
    return new SafeFileMetrics(SCHEMA, PATHS, Map.of()).fromStats(Optional.of(stats)).orElseThrow();
  }

  static Object value(Map<Integer, ByteBuffer> bounds, int id) {
    Type type = SCHEMA.findType(id);
    return bounds.containsKey(id) ? Conversions.fromByteBuffer(type, bounds.get(id)) : null;
  }

  @Test
  void exactValuesAreKeptByPhysicalPath() {
    Metrics m =
        metrics(
            """
            {"numRecords":3,
             "minValues":{"id":1,"name":"a","day":"2024-01-02","amount":1.5,"address":{"col-city":"Oslo"},"ratio":0.5},
             "maxValues":{"id":9,"name":"z","day":"2024-03-04","amount":12.25,"address":{"col-city":"Rome"},"ratio":2.0},
             "nullCount":{"id":0,"name":1,"address":{"col-city":2}}}
            """);
    assertThat(m.recordCount()).isEqualTo(3);
    assertThat(value(m.lowerBounds(), 1)).isEqualTo(1L);
    assertThat(value(m.upperBounds(), 1)).isEqualTo(9L);
    assertThat(value(m.lowerBounds(), 2).toString()).isEqualTo("a");
    assertThat(value(m.lowerBounds(), 5)).isEqualTo(19724);
    assertThat(value(m.upperBounds(), 6)).isEqualTo(new BigDecimal("12.25"));
    assertThat(value(m.upperBounds(), 8).toString()).isEqualTo("Rome");
    assertThat(value(m.lowerBounds(), 9)).isEqualTo(0.5);
    assertThat(m.nullValueCounts()).containsEntry(2, 1L).containsEntry(8, 2L).doesNotContainKey(7);
  }

  @Test
  void timestampMaximaAreWidenedByAMillisecondAndMinimaKept() {
    Metrics m =
        metrics(
            """
            {"numRecords":1,
             "minValues":{"ts":"2023-11-14T22:13:20.123Z","local":"2023-11-14T22:13:20.123"},
             "maxValues":{"ts":"2023-11-14T22:13:20.123+00:00","local":"2023-11-14T22:13:20.123"}}
            """);
    long micros = 1_700_000_000_123_000L;
    assertThat(value(m.lowerBounds(), 3)).isEqualTo(micros);
    assertThat(value(m.upperBounds(), 3)).isEqualTo(micros + 1000);
    assertThat(value(m.lowerBounds(), 4)).isEqualTo(micros);
    assertThat(value(m.upperBounds(), 4)).isEqualTo(micros + 1000);
  }

  @Test
  void stringBoundsAsLongAsTheTruncationPrefixAreDropped() {
    String prefix = "x".repeat(32);
    Metrics m =
        metrics(
            "{\"numRecords\":1,\"minValues\":{\"name\":\"" + prefix + "\"},\"maxValues\":{\"name\":\""
                + prefix + "\u007f\"}}");
    assertThat(m.lowerBounds()).doesNotContainKey(2);
    assertThat(m.upperBounds()).doesNotContainKey(2);

    Metrics shorter =
        new SafeFileMetrics(SCHEMA, PATHS, Map.of(SafeFileMetrics.STRING_PREFIX_LENGTH, "40"))
            .fromStats(Optional.of("{\"numRecords\":1,\"minValues\":{\"name\":\"" + prefix + "\"}}"))
            .orElseThrow();
    assertThat(value(shorter.lowerBounds(), 2).toString()).isEqualTo(prefix);
  }

  @Test
  void looseBoundsKeepMinMaxButDropNullCounts() {
    Metrics m =
        metrics(
            """
            {"numRecords":4,"tightBounds":false,
             "minValues":{"id":1},"maxValues":{"id":4},"nullCount":{"id":0,"name":4}}
            """);
    assertThat(m.nullValueCounts()).isEmpty();
    assertThat(value(m.upperBounds(), 1)).isEqualTo(4L);
  }

  @Test
  void unreadableValuesDropTheirBoundAndMissingNumRecordsMeansNoStatistics() {
    Metrics m =
        metrics(
            """
            {"numRecords":2,"minValues":{"ratio":"NaN","day":"not a date","amount":1.234},
             "maxValues":{"id":"seven"}}
            """);
    assertThat(m.lowerBounds()).isEmpty();
    assertThat(m.upperBounds()).isEmpty();
    SafeFileMetrics mapper = new SafeFileMetrics(SCHEMA, PATHS, Map.of());
    assertThat(mapper.fromStats(Optional.of("{\"minValues\":{}}"))).isEmpty();
    assertThat(mapper.fromStats(Optional.empty())).isEmpty();
    assertThat(mapper.fromStats(Optional.of("not json"))).isEmpty();
  }

  @Test
  void aMaximumAtTheEndOfTimeSaturates() {
    Metrics m =
        metrics("{\"numRecords\":1,\"maxValues\":{\"local\":\"+294247-01-10T04:00:54.775\"}}");
    assertThat(value(m.upperBounds(), 4)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void malformedOrPartialStatisticsAreNoStatistics() {
    SafeFileMetrics mapper = new SafeFileMetrics(SCHEMA, PATHS, Map.of());
    List<String> refused =
        List.of(
            "{\"numRecords\":3,\"minValues\":{\"id\":1",
            "{\"numRecords\":3,\"minValues\":{\"id\":1},\"maxValues\":",
            "{\"numRecords\":3,\"minValues\":{\"id\":1,}}",
            "{\"numRecords\":3,\"minValues\":{\"id\":1},\"minValues\":{\"id\":0}}",
            "{\"numRecords\":3,\"minValues\":{\"id\":1,\"id\":0}}",
            "{\"numRecords\":3,\"numRecords\":4}",
            "[{\"numRecords\":3}]",
            "3",
            "{\"numRecords\":\"3\"}",
            "{\"numRecords\":3.5}",
            "{\"numRecords\":-1}",
            "{\"numRecords\":99999999999999999999}",
            "{\"numRecords\":null}",
            "   ");
    for (String stats : refused) {
      assertThat(mapper.fromStats(Optional.of(stats))).as(stats).isEmpty();
    }
  }

  @Test
  void whatIsNotAColumnOfTheSchemaIsSkippedWhereverItSits() {
    Metrics m =
        metrics(
            """
            {"numRecords":5,"someFutureField":{"a":[1,{"b":2}],"c":null},
             "minValues":{"gone":{"deep":[1,2,{"x":"y"}]},"id":[1,2],"address":{"col-city":"Oslo","other":{"z":1}},
                          "name":{"nested":"not a string column's value"},"ratio":1.5},
             "maxValues":{"id":{"not":"a long"},"address":"not a struct","ratio":2.5},
             "nullCount":{"address":{"col-city":1,"other":7},"name":[0],"id":0},
             "tightBounds":true}
            """);
    assertThat(m.recordCount()).isEqualTo(5);
    assertThat(m.lowerBounds()).containsOnlyKeys(8, 9);
    assertThat(value(m.lowerBounds(), 8).toString()).isEqualTo("Oslo");
    assertThat(m.upperBounds()).containsOnlyKeys(9);
    assertThat(m.nullValueCounts()).containsOnlyKeys(8, 1);
    // a name given twice is ambiguous only where it is read
    assertThat(metrics("{\"numRecords\":1,\"other\":1,\"other\":{\"x\":2,\"x\":3}}").recordCount())
        .isEqualTo(1);
  }

  @Test
  void columnsAreFoundByPhysicalNameOnlyAndAtAnyDepth() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(
                10,
                "outer",
                Types.StructType.of(
                    Types.NestedField.optional(
                        11,
                        "inner",
                        Types.StructType.of(
                            Types.NestedField.optional(12, "n", Types.IntegerType.get()))))),
            Types.NestedField.optional(13, "renamed", Types.LongType.get()));
    Map<Integer, List<String>> paths =
        Map.of(
            10, List.of("col-a"),
            11, List.of("col-a", "col-b"),
            12, List.of("col-a", "col-b", "col-c"),
            13, List.of("col-d"));
    Metrics m =
        new SafeFileMetrics(schema, paths, Map.of())
            .fromStats(
                Optional.of(
                    """
                    {"numRecords":2,
                     "minValues":{"col-a":{"col-b":{"col-c":-4}},"renamed":1,"outer":{"inner":{"n":-9}}},
                     "maxValues":{"col-a":{"col-b":{"col-c":7}},"col-d":12},
                     "nullCount":{"col-a":{"col-b":{"col-c":0}},"col-d":1}}
                    """))
            .orElseThrow();
    assertThat(m.lowerBounds()).containsOnlyKeys(12);
    assertThat(Conversions.<Integer>fromByteBuffer(Types.IntegerType.get(), m.lowerBounds().get(12)))
        .isEqualTo(-4);
    assertThat(Conversions.<Integer>fromByteBuffer(Types.IntegerType.get(), m.upperBounds().get(12)))
        .isEqualTo(7);
    assertThat(Conversions.<Long>fromByteBuffer(Types.LongType.get(), m.upperBounds().get(13)))
        .isEqualTo(12L);
    assertThat(m.nullValueCounts()).containsEntry(12, 0L).containsEntry(13, 1L).hasSize(2);
  }

  @Test
  void looseBoundsDropNullCountsWhereverTheFlagSitsAndWhateverItSays() {
    for (String flag : List.of("false", "\"false\"", "null", "0", "\"true\"")) {
      for (String stats :
          List.of(
              "{\"tightBounds\":" + flag + ",\"numRecords\":4,\"nullCount\":{\"id\":0}}",
              "{\"numRecords\":4,\"nullCount\":{\"id\":0},\"tightBounds\":" + flag + "}")) {
        assertThat(metrics(stats).nullValueCounts()).as(stats).isEmpty();
      }
    }
    assertThat(metrics("{\"numRecords\":4,\"nullCount\":{\"id\":0},\"tightBounds\":true}")
            .nullValueCounts())
        .containsEntry(1, 0L);
    assertThat(metrics("{\"numRecords\":4,\"nullCount\":{\"id\":-1,\"name\":0.5}}")
            .nullValueCounts())
        .isEmpty();
  }

  @Test
  void stringBoundsCountCodePointsNotChars() {
    String thirtyOneEmoji = "\uD83D\uDE00".repeat(31); // 62 chars, 31 code points: not truncated
    Metrics m =
        metrics("{\"numRecords\":1,\"minValues\":{\"name\":\"" + thirtyOneEmoji + "\"}}");
    assertThat(value(m.lowerBounds(), 2).toString()).isEqualTo(thirtyOneEmoji);
    Metrics truncated =
        metrics(
            "{\"numRecords\":1,\"maxValues\":{\"name\":\"" + thirtyOneEmoji + "\uD83D\uDE00\"}}");
    assertThat(truncated.upperBounds()).doesNotContainKey(2);
    // an unpaired surrogate has no UTF-8 form: that bound is dropped, the file's others kept
    Metrics unpaired =
        metrics("{\"numRecords\":1,\"minValues\":{\"name\":\"a\\ud800\",\"id\":3}}");
    assertThat(unpaired.lowerBounds()).containsOnlyKeys(1);
  }

  @Test
  void numbersAreReadExactlyOrNotAtAll() {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "i", Types.IntegerType.get()),
            Types.NestedField.optional(2, "l", Types.LongType.get()),
            Types.NestedField.optional(3, "big", Types.DecimalType.of(38, 2)),
            Types.NestedField.optional(4, "f", Types.FloatType.get()),
            Types.NestedField.optional(5, "b", Types.BooleanType.get()));
    Map<Integer, List<String>> paths =
        Map.of(1, List.of("i"), 2, List.of("l"), 3, List.of("big"), 4, List.of("f"), 5, List.of("b"));
    Metrics m =
        new SafeFileMetrics(schema, paths, Map.of())
            .fromStats(
                Optional.of(
                    """
                    {"numRecords":1,
                     "minValues":{"i":1.5,"l":99999999999999999999,"big":123456789012345678901234567890.12,
                                  "f":0.1,"b":false},
                     "maxValues":{"i":2147483648,"l":1e3,"big":1.005,"f":1e39,"b":"true"}}
                    """))
            .orElseThrow();
    // a double would have rounded the decimal; the exact digits are kept
    assertThat(
            Conversions.<BigDecimal>fromByteBuffer(Types.DecimalType.of(38, 2), m.lowerBounds().get(3)))
        .isEqualTo(new BigDecimal("123456789012345678901234567890.12"));
    assertThat(Conversions.<Float>fromByteBuffer(Types.FloatType.get(), m.lowerBounds().get(4)))
        .isEqualTo(0.1f);
    assertThat(Conversions.<Boolean>fromByteBuffer(Types.BooleanType.get(), m.lowerBounds().get(5)))
        .isFalse();
    assertThat(m.lowerBounds()).containsOnlyKeys(3, 4, 5);
    assertThat(m.upperBounds()).isEmpty();
  }
}
