package io.icegate.access.unity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.unity.api.UnityApi.ColumnInfo;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Unity's column list of a table or view, the schema source when the Delta log cannot be read (and
 * the only one for views): as a Delta struct, which the Delta toolkit's one schema mapping then
 * turns into Iceberg's, and as partition columns.
 */
final class UnityColumns {

  private static final ObjectMapper JSON = new ObjectMapper();

  private UnityColumns() {}

  /**
   * The columns as a Delta struct, ordered by {@code position}: each column's {@code type_json} is
   * the field itself; a column without it falls back to {@code type_text} as a primitive type name.
   *
   * @throws IllegalArgumentException when a column carries neither
   */
  static String deltaStruct(List<ColumnInfo> columns) {
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

  /** The partition columns: those with a {@code partition_index}, in that order. */
  static List<String> partitionColumns(List<ColumnInfo> columns) {
    return columns.stream()
        .filter(c -> c.partitionIndex() != null)
        .sorted(Comparator.comparing(ColumnInfo::partitionIndex))
        .map(ColumnInfo::name)
        .toList();
  }
}
