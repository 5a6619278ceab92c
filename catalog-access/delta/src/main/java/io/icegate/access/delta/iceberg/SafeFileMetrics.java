package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
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
 *   <li>A value this class cannot read as the column's type (NaN, a malformed string, a fraction
 *       for an integer column) drops that bound, never the file; statistics that are not one
 *       well-formed JSON object with unique names, or lack a non-negative {@code numRecords}, are
 *       no statistics (the caller reads the footer).
 * </ul>
 *
 * <p>The text is read with Jackson's streaming parser, no tree: a full capture reads one per active
 * file, and the tree parse was about 40% of a full capture's CPU (the bench). Only the columns of
 * the schema's physical-name tree are read, straight into Iceberg's serialized bounds; everything
 * else is skipped. An instance serves one capture, on one thread.
 */
public final class SafeFileMetrics {

  /** The table property naming Delta's string statistics prefix length. */
  public static final String STRING_PREFIX_LENGTH = "delta.dataSkippingStringPrefixLength";

  private static final int DEFAULT_STRING_PREFIX_LENGTH = 32;
  private static final long ONE_MILLI_IN_MICROS = 1000;
  private static final List<String> TOP_LEVEL =
      List.of("numRecords", "tightBounds", "minValues", "maxValues", "nullCount");
  private static final JsonFactory JSON = new JsonFactory();

  private final Column columns = new Column(0);
  private int columnCount = 1;
  private final int stringPrefixLength;
  // Iceberg's Conversions encodes strings with a thread-local encoder, a lookup that cost a fifth
  // of this class's time; one per instance (an instance serves one capture, on one thread)
  private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder();

  /**
   * One name of the physical-name tree: a primitive column ({@code type} set) or a struct whose
   * fields are {@code fields}.
   */
  private static final class Column {
    final Map<String, Column> fields = new HashMap<>();
    final int index;
    int id;
    Type.PrimitiveType type;

    Column(int index) {
      this.index = index;
    }
  }

  /** The sections of the statistics this class reads. */
  private enum Section {
    MIN,
    MAX,
    NULL_COUNT
  }

  /**
   * What one file's statistics give, by field id, and which names of the tree each section named:
   * a name given twice makes the statistics ambiguous, so they are refused as malformed (the footer
   * is read). Jackson's own duplicate detection would check every name, skipped ones too, at a
   * fifth of the parse's cost.
   */
  private static final class Collected {
    final Map<Integer, Long> nullCounts = new HashMap<>();
    final Map<Integer, ByteBuffer> lower = new HashMap<>();
    final Map<Integer, ByteBuffer> upper = new HashMap<>();
    final byte[] named;
    int namedAtTop;

    Collected(int columns) {
      this.named = new byte[columns];
    }

    /** Records that {@code section} named {@code column}; false when it did already. */
    boolean firstTime(Section section, Column column) {
      int bit = 1 << section.ordinal();
      boolean first = (named[column.index] & bit) == 0;
      named[column.index] |= (byte) bit;
      return first;
    }

    /** As above for the top-level names, numbered by the caller. */
    boolean firstTimeAtTop(int name) {
      boolean first = (namedAtTop & (1 << name)) == 0;
      namedAtTop |= 1 << name;
      return first;
    }

    void put(Section section, int id, Object value) {
      switch (section) {
        case MIN -> lower.put(id, (ByteBuffer) value);
        case MAX -> upper.put(id, (ByteBuffer) value);
        case NULL_COUNT -> nullCounts.put(id, (Long) value);
      }
    }
  }

  /**
   * @param schema the mapped schema
   * @param physicalPaths each statistics-bearing field's path of physical names ({@link
   *     StableSchema.Mapped#physicalPaths})
   * @param tableProperties the Delta table's properties (for the string prefix length)
   */
  public SafeFileMetrics(
      Schema schema, Map<Integer, List<String>> physicalPaths, Map<String, String> tableProperties) {
    physicalPaths.forEach(
        (id, path) -> {
          Type type = schema.findType(id);
          if (type != null && type.isPrimitiveType() && !path.isEmpty()) {
            Column column = columns;
            for (String name : path) {
              column = column.fields.computeIfAbsent(name, n -> new Column(columnCount++));
            }
            column.id = id;
            column.type = type.asPrimitiveType();
          }
        });
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
    try (JsonParser parser = JSON.createParser(statsJson.get())) {
      return read(parser);
    } catch (IOException e) {
      return Optional.empty(); // malformed, truncated, a duplicated name
    }
  }

  private Optional<Metrics> read(JsonParser parser) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return Optional.empty();
    }
    long numRecords = -1;
    boolean tight = true;
    Collected found = new Collected(columnCount);
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken token = parser.nextToken();
      int known = TOP_LEVEL.indexOf(name);
      if (known >= 0 && !found.firstTimeAtTop(known)) {
        throw new JsonParseException(parser, "'" + name + "' given twice");
      }
      switch (name) {
        case "numRecords" -> numRecords = wholeNumber(parser, token) ? parser.getLongValue() : -1;
        // anything but a literal true (false, "false", null) is not a promise of tight bounds
        case "tightBounds" -> tight = token == JsonToken.VALUE_TRUE;
        case "minValues" -> section(parser, token, columns, Section.MIN, found);
        case "maxValues" -> section(parser, token, columns, Section.MAX, found);
        case "nullCount" -> section(parser, token, columns, Section.NULL_COUNT, found);
        default -> parser.skipChildren();
      }
    }
    if (numRecords < 0) {
      return Optional.empty();
    }
    if (!tight) {
      found.nullCounts.clear();
    }
    return Optional.of(
        new Metrics(numRecords, null, null, found.nullCounts, null, found.lower, found.upper));
  }

  /** The values of one section at {@code struct}'s level; anything not in the tree is skipped. */
  private void section(
      JsonParser parser, JsonToken token, Column struct, Section section, Collected out)
      throws IOException {
    if (token != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      Column column = struct.fields.get(parser.currentName());
      JsonToken value = parser.nextToken();
      if (column == null) {
        parser.skipChildren();
      } else if (!out.firstTime(section, column)) {
        throw new JsonParseException(parser, "'" + parser.currentName() + "' given twice");
      } else if (value == JsonToken.START_OBJECT) {
        section(parser, value, column, section, out);
      } else if (value == JsonToken.START_ARRAY) {
        parser.skipChildren();
      } else if (column.type != null) {
        Object read = read(parser, value, column.type, section);
        if (read != null) {
          out.put(section, column.id, read);
        }
      }
    }
  }

  /** One scalar: a null count, or a bound in Iceberg's serialized form; null to drop it. */
  private Object read(JsonParser parser, JsonToken token, Type.PrimitiveType type, Section section)
      throws IOException {
    if (section == Section.NULL_COUNT) {
      return wholeNumber(parser, token) && parser.getLongValue() >= 0 ? parser.getLongValue() : null;
    }
    Object value;
    try {
      value = value(parser, token, type, section == Section.MAX);
    } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
      return null;
    }
    if (value instanceof String text) {
      try {
        return utf8.encode(CharBuffer.wrap(text)); // as Conversions does
      } catch (CharacterCodingException e) {
        return null; // an unpaired surrogate (escaped in the JSON): no UTF-8 form, no bound
      }
    }
    return value == null ? null : Conversions.toByteBuffer(type, value);
  }

  /** The bound as Iceberg's in-memory value for {@code type}, made safe; null to drop it. */
  private Object value(JsonParser parser, JsonToken token, Type type, boolean upperBound)
      throws IOException {
    boolean number = token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
    boolean text = token == JsonToken.VALUE_STRING;
    return switch (type.typeId()) {
      case INTEGER ->
          token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT
              ? parser.getIntValue()
              : null;
      case LONG -> wholeNumber(parser, token) ? parser.getLongValue() : null;
      case FLOAT -> number ? finite((float) parser.getDoubleValue()) : null;
      case DOUBLE -> number ? finite(parser.getDoubleValue()) : null;
      case BOOLEAN ->
          token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE
              ? token == JsonToken.VALUE_TRUE
              : null;
      case STRING -> text ? string(parser.getText()) : null;
      case DATE -> text ? (int) LocalDate.parse(parser.getText()).toEpochDay() : null;
      case TIMESTAMP ->
          text
              ? widen(
                  StatsTimestamps.micros(
                      parser.getText(), ((Types.TimestampType) type).shouldAdjustToUTC()),
                  upperBound)
              : null;
      case DECIMAL -> number ? decimal(parser.getDecimalValue(), (Types.DecimalType) type) : null;
      default -> null; // binary, uuid, fixed: Delta collects no bounds for them
    };
  }

  /** A JSON integer that fits a long. */
  private static boolean wholeNumber(JsonParser parser, JsonToken token) throws IOException {
    return token == JsonToken.VALUE_NUMBER_INT
        && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
  }

  private static Object finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static Object finite(float v) {
    return Float.isFinite(v) ? v : null;
  }

  private String string(String s) {
    return s.codePointCount(0, s.length()) >= stringPrefixLength ? null : s;
  }

  private static BigDecimal decimal(BigDecimal exact, Types.DecimalType type) {
    // exact: a scale change that would round throws ArithmeticException and drops the bound
    BigDecimal v = exact.setScale(type.scale());
    return v.precision() > type.precision() ? null : v;
  }

  private static Long widen(long micros, boolean upperBound) {
    if (!upperBound) {
      return micros;
    }
    return micros > Long.MAX_VALUE - ONE_MILLI_IN_MICROS ? Long.MAX_VALUE : micros + ONE_MILLI_IN_MICROS;
  }
}
