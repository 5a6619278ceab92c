package io.icegate.access.deltasharing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Translates a Delta schema (the {@code schemaString} of the protocol's metadata, the Delta
 * protocol's struct/array/map/primitive JSON) into an Iceberg schema, whose JSON is what {@code
 * UpstreamTable.schemaJson} carries.
 *
 * <p>Field ids: a column's {@code delta.columnMapping.id} when the table uses column mapping (ids
 * then survive renames), otherwise assigned in depth-first order from 1. {@code byte} and {@code
 * short} widen to Iceberg {@code int}; Iceberg has no narrower integer.
 */
final class DeltaSchemas {

  private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");

  /** A Delta type with no Iceberg equivalent (e.g. {@code variant}, {@code interval}). */
  static final class UnsupportedTypeException extends Exception {
    UnsupportedTypeException(String type) {
      super("Delta type " + type + " has no Iceberg equivalent");
    }
  }

  private final boolean mappedIds;
  private int nextId;

  private DeltaSchemas(boolean mappedIds) {
    this.mappedIds = mappedIds;
  }

  /**
   * @param deltaSchema the parsed {@code schemaString}: {@code {"type":"struct","fields":[...]}}
   * @return the Iceberg schema ({@code SchemaParser.toJson} gives the JSON)
   * @throws UnsupportedTypeException for a type Iceberg cannot represent
   */
  static Schema toIceberg(JsonNode deltaSchema) throws UnsupportedTypeException {
    boolean mapped = deltaSchema.path("fields").findValue("delta.columnMapping.id") != null;
    DeltaSchemas converter = new DeltaSchemas(mapped);
    Types.StructType struct = converter.struct(deltaSchema);
    return new Schema(struct.fields());
  }

  private Types.StructType struct(JsonNode node) throws UnsupportedTypeException {
    List<JsonNode> fields = new ArrayList<>();
    node.path("fields").forEach(fields::add);
    // ids first, then types: Iceberg numbers a struct's own fields before their children
    List<Integer> ids = new ArrayList<>();
    for (JsonNode field : fields) {
      ids.add(mappedIds ? field.path("metadata").path("delta.columnMapping.id").asInt() : ++nextId);
    }
    List<Types.NestedField> converted = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      JsonNode field = fields.get(i);
      Type type = type(field.path("type"));
      String name = field.path("name").asText();
      converted.add(
          field.path("nullable").asBoolean(true)
              ? Types.NestedField.optional(ids.get(i), name, type)
              : Types.NestedField.required(ids.get(i), name, type));
    }
    return Types.StructType.of(converted);
  }

  private int childId() {
    // column mapping numbers only columns, so nested list/map slots take ids above them
    return mappedIds ? 1_000_000 + ++nextId : ++nextId;
  }

  private Type type(JsonNode type) throws UnsupportedTypeException {
    if (type.isObject()) {
      String kind = type.path("type").asText();
      switch (kind) {
        case "struct":
          return struct(type);
        case "array":
          {
            int element = childId();
            Type elementType = type(type.path("elementType"));
            return type.path("containsNull").asBoolean(true)
                ? Types.ListType.ofOptional(element, elementType)
                : Types.ListType.ofRequired(element, elementType);
          }
        case "map":
          {
            int key = childId();
            int value = childId();
            Type keyType = type(type.path("keyType"));
            Type valueType = type(type.path("valueType"));
            return type.path("valueContainsNull").asBoolean(true)
                ? Types.MapType.ofOptional(key, value, keyType, valueType)
                : Types.MapType.ofRequired(key, value, keyType, valueType);
          }
        default:
          throw new UnsupportedTypeException(kind);
      }
    }
    String name = type.asText().toLowerCase(Locale.ROOT);
    Matcher decimal = DECIMAL.matcher(name);
    if (decimal.matches()) {
      return Types.DecimalType.of(
          Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)));
    }
    return switch (name) {
      case "string" -> Types.StringType.get();
      case "long" -> Types.LongType.get();
      case "integer", "short", "byte" -> Types.IntegerType.get();
      case "float" -> Types.FloatType.get();
      case "double" -> Types.DoubleType.get();
      case "boolean" -> Types.BooleanType.get();
      case "binary" -> Types.BinaryType.get();
      case "date" -> Types.DateType.get();
      case "timestamp" -> Types.TimestampType.withZone();
      case "timestamp_ntz" -> Types.TimestampType.withoutZone();
      default -> throw new UnsupportedTypeException(name);
    };
  }
}
