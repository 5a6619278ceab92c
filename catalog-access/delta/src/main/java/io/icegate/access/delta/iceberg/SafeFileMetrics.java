package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A Delta {@code add} action's {@code stats} (protocol "Per-file Statistics": {@code numRecords},
 * {@code minValues}, {@code maxValues}, {@code nullCount}, {@code tightBounds}, each keyed by
 * physical column names and nested like the schema) as Iceberg {@link Metrics} that never exclude a
 * row the file holds. Iceberg readers prune files and row groups with these bounds, so a bound that
 * is too tight silently loses rows; one that is missing only costs pruning. Hence:
 *
 * <ul>
 *   <li>Timestamp maxima are widened by 1 ms (saturating): Delta writes timestamps in its
 *       statistics with millisecond precision, truncated, so the true maximum can lie up to 999 µs
 *       above the written one. Minima truncated downward stay below every value.
 *   <li>String bounds as long as the table's {@code delta.dataSkippingStringPrefixLength} (default
 *       32) or longer are dropped: Delta truncates string statistics to that prefix (and appends a
 *       tie-breaker to maxima), so a bound that long may not be a value's bound any more.
 *   <li>Null counts are kept only when the bounds are tight: with {@code tightBounds=false}
 *       (deletion vectors) the protocol guarantees only "none" or "all".
 *   <li>A value this class cannot read as the column's type (NaN, a malformed string) drops that
 *       bound, never the file.
 * </ul>
 */
public final class SafeFileMetrics {

  /** The table property naming Delta's string statistics prefix length. */
  public static final String STRING_PREFIX_LENGTH = "delta.dataSkippingStringPrefixLength";

  private static final int DEFAULT_STRING_PREFIX_LENGTH = 32;
  private static final long ONE_MILLI_IN_MICROS = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Schema schema;
  private final Map<Integer, List<String>> physicalPaths;
  private final int stringPrefixLength;

  /**
   * @param schema the mapped schema
   * @param physicalPaths each statistics-bearing field's path of physical names ({@link
   *     StableSchema.Mapped#physicalPaths})
   * @param tableProperties the Delta table's properties (for the string prefix length)
   */
  public SafeFileMetrics(
      Schema schema, Map<Integer, List<String>> physicalPaths, Map<String, String> tableProperties) {
    this.schema = schema;
    this.physicalPaths = physicalPaths;
    int prefix = DEFAULT_STRING_PREFIX_LENGTH;
    try {
      prefix = Integer.parseInt(tableProperties.getOrDefault(STRING_PREFIX_LENGTH, "32").trim());
    } catch (NumberFormatException e) {
      // an unreadable setting: assume the default, which Delta itself would have used
    }
    this.stringPrefixLength = prefix;
  }

  /**
   * @param statsJson the {@code add.stats} text, or empty when the log has none
   * @return the metrics, or empty when there are no statistics or they hold no {@code numRecords}
   *     (the caller then reads the file's footer)
   */
  public Optional<Metrics> fromStats(Optional<String> statsJson) {
    if (statsJson.isEmpty() || statsJson.get().isBlank()) {
      return Optional.empty();
    }
    JsonNode stats;
    try {
      stats = JSON.readTree(statsJson.get());
    } catch (IOException e) {
      return Optional.empty();
    }
    JsonNode numRecords = stats.path("numRecords");
    if (!numRecords.canConvertToLong()) {
      return Optional.empty();
    }
    boolean tight = stats.path("tightBounds").asBoolean(true);
    Map<Integer, Long> nullCounts = new HashMap<>();
    Map<Integer, ByteBuffer> lower = new HashMap<>();
    Map<Integer, ByteBuffer> upper = new HashMap<>();
    physicalPaths.forEach(
        (id, path) -> {
          Type type = schema.findType(id);
          if (type == null || !type.isPrimitiveType()) {
            return;
          }
          JsonNode nulls = at(stats.path("nullCount"), path);
          if (tight && nulls.canConvertToLong()) {
            nullCounts.put(id, nulls.asLong());
          }
          value(type, at(stats.path("minValues"), path), false)
              .ifPresent(v -> lower.put(id, Conversions.toByteBuffer(type, v)));
          value(type, at(stats.path("maxValues"), path), true)
              .ifPresent(v -> upper.put(id, Conversions.toByteBuffer(type, v)));
        });
    return Optional.of(new Metrics(numRecords.asLong(), null, null, nullCounts, null, lower, upper));
  }

  private static JsonNode at(JsonNode node, List<String> path) {
    for (String name : path) {
      node = node.path(name);
    }
    return node;
  }

  /** The bound as Iceberg's in-memory value for {@code type}, made safe; empty to drop it. */
  private Optional<Object> value(Type type, JsonNode json, boolean upperBound) {
    if (json.isMissingNode() || json.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(
          switch (type.typeId()) {
            case INTEGER -> json.canConvertToInt() ? json.asInt() : null;
            case LONG -> json.canConvertToLong() && json.isIntegralNumber() ? json.asLong() : null;
            case FLOAT -> json.isNumber() ? finite(json.floatValue()) : null;
            case DOUBLE -> json.isNumber() ? finite(json.doubleValue()) : null;
            case BOOLEAN -> json.isBoolean() ? json.asBoolean() : null;
            case STRING -> string(json);
            case DATE -> json.isTextual() ? (int) LocalDate.parse(json.asText()).toEpochDay() : null;
            case TIMESTAMP -> json.isTextual() ? widen(micros(json.asText(), type), upperBound) : null;
            case DECIMAL -> decimal(json, (Types.DecimalType) type);
            default -> null; // binary, uuid, fixed: Delta collects no bounds for them
          });
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Object finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static Object finite(float v) {
    return Float.isFinite(v) ? v : null;
  }

  private String string(JsonNode json) {
    if (!json.isTextual()) {
      return null;
    }
    String s = json.asText();
    return s.codePointCount(0, s.length()) >= stringPrefixLength ? null : s;
  }

  private static BigDecimal decimal(JsonNode json, Types.DecimalType type) {
    if (!json.isNumber()) {
      return null;
    }
    // exact: a scale change that would round throws ArithmeticException and drops the bound
    BigDecimal v = json.decimalValue().setScale(type.scale());
    return v.precision() > type.precision() ? null : v;
  }

  /** Microseconds since the epoch; {@code timestamptz} text carries an offset, {@code timestamp} none. */
  private static long micros(String text, Type type) {
    if (((Types.TimestampType) type).shouldAdjustToUTC()) {
      return ChronoUnit.MICROS.between(OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
          OffsetDateTime.parse(text));
    }
    return ChronoUnit.MICROS.between(
        LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.parse(stripZone(text)));
  }

  private static String stripZone(String text) {
    return text.endsWith("Z") ? text.substring(0, text.length() - 1) : text;
  }

  private static Long widen(long micros, boolean upperBound) {
    if (!upperBound) {
      return micros;
    }
    return micros > Long.MAX_VALUE - ONE_MILLI_IN_MICROS ? Long.MAX_VALUE : micros + ONE_MILLI_IN_MICROS;
  }
}
