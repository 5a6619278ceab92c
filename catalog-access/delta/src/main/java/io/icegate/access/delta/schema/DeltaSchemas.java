package io.icegate.access.delta.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a Delta schema (the Spark {@code StructType} JSON that a Delta {@code metaData} action's
 * {@code schemaString} and a Unity column's {@code type_json} both use, per the Delta transaction
 * log protocol "Schema Serialization Format") into Iceberg schema JSON, the shape {@code
 * UpstreamTable.schemaJson} promises.
 *
 * <p>Field ids: by default assigned depth-first from 1 in declaration order, the way Iceberg assigns
 * fresh ids to a new schema. With column mapping (the table's {@code delta.columnMapping.mode} is
 * {@code id} or {@code name}; Delta protocol "Column Mapping"), each struct field keeps its Delta
 * field id, {@code delta.columnMapping.id}, so that ids stay stable across schema changes as
 * Iceberg's do; list elements and map keys and values take theirs from the enclosing column's
 * {@code delta.columnMapping.nested.ids} (written under IcebergCompatV2, keyed by the column's
 * physical name and {@code .element}/{@code .key}/{@code .value}), and anything still without an
 * id gets a fresh one above every Delta id. Names are always the logical ones.
 *
 * <p>Type mapping: {@code byte}, {@code short}, {@code integer} to {@code int} (Iceberg has no
 * narrower integer); {@code timestamp} (instant) to {@code timestamptz}; {@code timestamp_ntz} to
 * {@code timestamp}; {@code decimal(p,s)} (spaces allowed) to {@code decimal(p, s)}, a bare {@code
 * decimal} to {@code decimal(10, 0)}, Spark's default; arrays to lists, maps to maps, structs to
 * structs; Delta's {@code nullable}/{@code containsNull}/{@code valueContainsNull} become Iceberg's
 * {@code required} flags inverted; a field's {@code comment} metadata becomes its {@code doc}.
 * Other types ({@code variant}, intervals, user-defined) have no Iceberg equivalent and fail with
 * {@link UnsupportedTypeException}, the one exception for them.
 *
 * <p>The one Delta-to-Iceberg schema mapping: both Delta providers (Unity Catalog, Delta Sharing)
 * use it, so a Delta table maps to the same Iceberg schema whichever catalog it comes through.
 */
public final class DeltaSchemas {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  /** A Delta type without an Iceberg counterpart; the message names the type. */
  public static final class UnsupportedTypeException extends RuntimeException {
    UnsupportedTypeException(String message) {
      super(message);
    }
  }

  private DeltaSchemas() {}

  /** Table property naming the column mapping mode: {@code none}, {@code id}, {@code name}. */
  public static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  /** Field metadata key of a column's Delta field id under column mapping. */
  public static final String COLUMN_MAPPING_ID = "delta.columnMapping.id";

  /** Field metadata key of a column's physical name under column mapping. */
  public static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";

  /** Field metadata key of the ids of a column's nested list elements and map keys/values. */
  public static final String NESTED_IDS = "delta.columnMapping.nested.ids";

  /** Table property: the highest column-mapping id ever assigned, dropped columns included. */
  public static final String MAX_COLUMN_ID = "delta.columnMapping.maxColumnId";

  /**
   * Whether a table with these properties carries Delta field ids.
   *
   * @param tableProperties a Delta {@code metaData.configuration} (or Unity's table properties)
   */
  public static boolean usesColumnMapping(Map<String, String> tableProperties) {
    String mode = tableProperties == null ? null : tableProperties.get(COLUMN_MAPPING_MODE);
    return mode != null && !mode.equalsIgnoreCase("none");
  }

  /** As {@link #toIcebergJson(String, Map)} for a table without column mapping: fresh ids. */
  public static String toIcebergJson(String deltaSchemaJson) {
    return toIcebergJson(deltaSchemaJson, Map.of());
  }

  /**
   * @param deltaSchemaJson a Delta {@code schemaString}
   * @param tableProperties the table's properties: with {@value #COLUMN_MAPPING_MODE} {@code id} or
   *     {@code name}, Delta's field ids are kept, and fresh ones start above {@value
   *     #MAX_COLUMN_ID} so that a dropped column's id (still in old data files) is never reused
   * @return Iceberg schema JSON with {@code schema-id} 0
   * @throws UnsupportedTypeException for a type Iceberg cannot represent
   * @throws IllegalArgumentException when the text is not a Delta struct, or two fields share a
   *     Delta field id
   */
  public static String toIcebergJson(String deltaSchemaJson, Map<String, String> tableProperties) {
    JsonNode struct;
    try {
      struct = JSON.readTree(deltaSchemaJson);
    } catch (IOException e) {
      throw new IllegalArgumentException("the Delta schema is not JSON", e);
    }
    if (!"struct".equals(struct.path("type").asText())) {
      throw new IllegalArgumentException("the Delta schema is not a struct");
    }
    Ids ids = Ids.fresh();
    if (usesColumnMapping(tableProperties)) {
      int maxColumnId;
      try {
        maxColumnId = Integer.parseInt(tableProperties.getOrDefault(MAX_COLUMN_ID, "0"));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(MAX_COLUMN_ID + " is not a number");
      }
      ids = Ids.fromDelta(struct, maxColumnId);
    }
    ObjectNode schema = (ObjectNode) convert(struct, ids, null);
    ObjectNode out = JSON.createObjectNode();
    out.put("type", "struct");
    out.put("schema-id", 0);
    out.set("fields", schema.get("fields"));
    return out.toString();
  }

  /** Where converted fields get their ids: Delta's own (when {@code delta}) or the next fresh one. */
  private static final class Ids {
    private final boolean delta;
    private int last;

    private Ids(boolean delta, int last) {
      this.delta = delta;
      this.last = last;
    }

    static Ids fresh() {
      return new Ids(false, 0);
    }

    /** Collects every Delta id so that fresh ones start above them, and refuses duplicates. */
    static Ids fromDelta(JsonNode struct, int maxColumnId) {
      Set<Integer> seen = new HashSet<>();
      collect(struct, seen);
      int max = seen.stream().mapToInt(Integer::intValue).max().orElse(0);
      return new Ids(true, Math.max(max, maxColumnId));
    }

    private static void collect(JsonNode type, Set<Integer> seen) {
      if (type == null || type.isTextual()) {
        return;
      }
      switch (type.path("type").asText()) {
        case "struct" -> {
          for (JsonNode field : type.path("fields")) {
            JsonNode metadata = field.path("metadata");
            add(metadata.path(COLUMN_MAPPING_ID), seen);
            metadata.path(NESTED_IDS).forEach(id -> add(id, seen));
            collect(field.get("type"), seen);
          }
        }
        case "array" -> collect(type.get("elementType"), seen);
        case "map" -> {
          collect(type.get("keyType"), seen);
          collect(type.get("valueType"), seen);
        }
        default -> {}
      }
    }

    private static void add(JsonNode id, Set<Integer> seen) {
      if (id.canConvertToInt() && !seen.add(id.asInt())) {
        throw new IllegalArgumentException("Delta field id " + id.asInt() + " is used twice");
      }
    }

    /** A struct field's id: its Delta id, else a fresh one. */
    int field(JsonNode metadata) {
      JsonNode id = metadata.path(COLUMN_MAPPING_ID);
      return delta && id.canConvertToInt() ? id.asInt() : ++last;
    }

    /** A nested element's id from the enclosing column's nested ids, else a fresh one. */
    int nested(Nested scope, String suffix) {
      if (delta && scope != null) {
        JsonNode id = scope.ids().path(scope.path() + suffix);
        if (id.canConvertToInt()) {
          return id.asInt();
        }
      }
      return ++last;
    }
  }

  /** The nested ids of the column being converted and the path reached inside its type. */
  private record Nested(JsonNode ids, String path) {
    Nested down(String suffix) {
      return new Nested(ids, path + suffix);
    }
  }

  private static JsonNode convert(JsonNode type, Ids ids, Nested scope) {
    if (type.isTextual()) {
      return JSON.getNodeFactory().textNode(primitive(type.asText()));
    }
    String kind = type.path("type").asText();
    switch (kind) {
      case "struct" -> {
        ObjectNode out = JSON.createObjectNode();
        out.put("type", "struct");
        ArrayNode fields = out.putArray("fields");
        // ids first for this level, then nested types, as Iceberg's TypeUtil.assignFreshIds does
        int[] fieldIds = new int[type.path("fields").size()];
        int i = 0;
        for (JsonNode field : type.path("fields")) {
          fieldIds[i++] = ids.field(field.path("metadata"));
        }
        i = 0;
        for (JsonNode field : type.path("fields")) {
          JsonNode metadata = field.path("metadata");
          ObjectNode f = fields.addObject();
          f.put("id", fieldIds[i++]);
          f.put("name", field.path("name").asText());
          f.put("required", !field.path("nullable").asBoolean(true));
          String physical = metadata.path(PHYSICAL_NAME).asText(field.path("name").asText());
          f.set("type", convert(field.get("type"), ids, new Nested(metadata.path(NESTED_IDS), physical)));
          JsonNode comment = metadata.path("comment");
          if (comment.isTextual()) {
            f.put("doc", comment.asText());
          }
        }
        return out;
      }
      case "array" -> {
        ObjectNode out = JSON.createObjectNode();
        out.put("type", "list");
        out.put("element-id", ids.nested(scope, ".element"));
        out.set("element", convert(type.get("elementType"), ids, down(scope, ".element")));
        out.put("element-required", !type.path("containsNull").asBoolean(true));
        return out;
      }
      case "map" -> {
        ObjectNode out = JSON.createObjectNode();
        out.put("type", "map");
        out.put("key-id", ids.nested(scope, ".key"));
        out.put("value-id", ids.nested(scope, ".value"));
        out.set("key", convert(type.get("keyType"), ids, down(scope, ".key")));
        out.set("value", convert(type.get("valueType"), ids, down(scope, ".value")));
        out.put("value-required", !type.path("valueContainsNull").asBoolean(true));
        return out;
      }
      default -> throw new UnsupportedTypeException("Delta type " + type + " has no Iceberg type");
    }
  }

  private static Nested down(Nested scope, String suffix) {
    return scope == null ? null : scope.down(suffix);
  }

  private static String primitive(String delta) {
    String t = delta.toLowerCase(Locale.ROOT).trim();
    Matcher decimal = DECIMAL.matcher(t);
    if (decimal.matches()) {
      return "decimal(" + decimal.group(1) + ", " + decimal.group(2) + ")";
    }
    return switch (t) {
      case "byte", "short", "integer", "int" -> "int";
      case "long", "bigint" -> "long";
      case "float" -> "float";
      case "double" -> "double";
      case "boolean" -> "boolean";
      case "string" -> "string";
      case "binary" -> "binary";
      case "date" -> "date";
      case "timestamp" -> "timestamptz";
      case "timestamp_ntz" -> "timestamp";
      case "decimal" -> "decimal(10, 0)";
      default -> throw new UnsupportedTypeException("Delta type " + delta + " has no Iceberg type");
    };
  }
}
