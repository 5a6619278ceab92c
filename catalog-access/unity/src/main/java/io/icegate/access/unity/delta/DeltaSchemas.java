package io.icegate.access.unity.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.unity.api.UnityApi.ColumnInfo;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a Delta schema (the Spark {@code StructType} JSON that a Delta {@code metaData} action's
 * {@code schemaString} and a Unity column's {@code type_json} both use, per the Delta transaction
 * log protocol "Schema Serialization Format") into Iceberg schema JSON, the shape {@code
 * UpstreamTable.schemaJson} promises.
 *
 * <p>Field ids are assigned depth-first from 1 in declaration order, the way Iceberg assigns fresh
 * ids to a new schema. Type mapping: {@code byte}, {@code short}, {@code integer} to {@code int};
 * {@code timestamp} (instant) to {@code timestamptz}; {@code timestamp_ntz} to {@code timestamp};
 * arrays to lists, maps to maps, structs to structs; Delta's {@code nullable}/{@code containsNull}/
 * {@code valueContainsNull} become Iceberg's {@code required} flags inverted. Other types ({@code
 * variant}, intervals, user-defined) have no Iceberg equivalent and fail with {@link
 * UnsupportedTypeException}.
 */
public final class DeltaSchemas {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  /** A Delta type without an Iceberg counterpart. */
  public static final class UnsupportedTypeException extends RuntimeException {
    UnsupportedTypeException(String message) {
      super(message);
    }
  }

  private DeltaSchemas() {}

  /**
   * @param deltaSchemaJson a Delta {@code schemaString}
   * @return Iceberg schema JSON with {@code schema-id} 0
   * @throws UnsupportedTypeException for a type Iceberg cannot represent
   * @throws IllegalArgumentException when the text is not a Delta struct
   */
  public static String toIcebergJson(String deltaSchemaJson) {
    JsonNode struct;
    try {
      struct = JSON.readTree(deltaSchemaJson);
    } catch (IOException e) {
      throw new IllegalArgumentException("the Delta schema is not JSON", e);
    }
    if (!"struct".equals(struct.path("type").asText())) {
      throw new IllegalArgumentException("the Delta schema is not a struct");
    }
    ObjectNode schema = (ObjectNode) convert(struct, new int[] {0});
    ObjectNode out = JSON.createObjectNode();
    out.put("type", "struct");
    out.put("schema-id", 0);
    out.set("fields", schema.get("fields"));
    return out.toString();
  }

  /**
   * Unity's column list as a Delta struct, ordered by {@code position}: each column's {@code
   * type_json} is the field itself; a column without it falls back to {@code type_text} as a
   * primitive type name.
   *
   * @throws IllegalArgumentException when a column carries neither
   */
  public static String structFromColumns(List<ColumnInfo> columns) {
    ObjectNode struct = JSON.createObjectNode();
    struct.put("type", "struct");
    ArrayNode fields = struct.putArray("fields");
    List<ColumnInfo> ordered =
        columns.stream()
            .sorted(Comparator.comparing(c -> c.position() == null ? Integer.MAX_VALUE : c.position()))
            .toList();
    for (ColumnInfo column : ordered) {
      if (column.typeJson() != null && !column.typeJson().isBlank()) {
        try {
          fields.add(JSON.readTree(column.typeJson()));
          continue;
        } catch (IOException e) {
          throw new IllegalArgumentException("column " + column.name() + " has unreadable type_json");
        }
      }
      if (column.typeText() == null) {
        throw new IllegalArgumentException("column " + column.name() + " has no type");
      }
      ObjectNode field = fields.addObject();
      field.put("name", column.name());
      field.put("type", column.typeText().toLowerCase(Locale.ROOT));
      field.put("nullable", column.nullable() == null || column.nullable());
      field.putObject("metadata");
    }
    return struct.toString();
  }

  private static JsonNode convert(JsonNode type, int[] lastId) {
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
        int[] ids = new int[type.path("fields").size()];
        for (int i = 0; i < ids.length; i++) {
          ids[i] = ++lastId[0];
        }
        int i = 0;
        for (JsonNode field : type.path("fields")) {
          ObjectNode f = fields.addObject();
          f.put("id", ids[i++]);
          f.put("name", field.path("name").asText());
          f.put("required", !field.path("nullable").asBoolean(true));
          f.set("type", convert(field.get("type"), lastId));
          JsonNode comment = field.path("metadata").path("comment");
          if (comment.isTextual()) {
            f.put("doc", comment.asText());
          }
        }
        return out;
      }
      case "array" -> {
        ObjectNode out = JSON.createObjectNode();
        out.put("type", "list");
        out.put("element-id", ++lastId[0]);
        out.set("element", convert(type.get("elementType"), lastId));
        out.put("element-required", !type.path("containsNull").asBoolean(true));
        return out;
      }
      case "map" -> {
        ObjectNode out = JSON.createObjectNode();
        out.put("type", "map");
        out.put("key-id", ++lastId[0]);
        out.put("value-id", ++lastId[0]);
        out.set("key", convert(type.get("keyType"), lastId));
        out.set("value", convert(type.get("valueType"), lastId));
        out.put("value-required", !type.path("valueContainsNull").asBoolean(true));
        return out;
      }
      default -> throw new UnsupportedTypeException("Delta type " + type + " has no Iceberg type");
    }
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
