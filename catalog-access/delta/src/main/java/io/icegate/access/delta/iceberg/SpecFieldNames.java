package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Types;

/**
 * Makes room in the previous capture's partition specs for a schema whose column of the same name
 * has a new id. That happens once per table at most: when column mapping is enabled on an existing
 * Delta table, Delta numbers the existing columns and files written from then on carry those ids,
 * so the captured columns must take them. Iceberg rebinds every spec to a new current schema and
 * refuses an identity field named like a column it is not sourced from; old specs must stay (old
 * manifests are read with them), so their fields whose source id the column of that name no longer
 * has are renamed {@code <name>_<source id>}. Partition field names are labels: manifests and
 * readers go by field ids.
 */
final class SpecFieldNames {

  private SpecFieldNames() {}

  /** {@code previous}, with conflicting spec field names renamed; itself when none conflicts. */
  static TableMetadata clearFor(TableMetadata previous, Schema next) {
    if (previous == null || !conflicts(previous, next)) {
      return previous;
    }
    return MetadataJson.edit(
        previous,
        json -> {
          for (JsonNode spec : json.path("partition-specs")) {
            for (JsonNode field : spec.path("fields")) {
              String name = field.path("name").asText();
              int sourceId = field.path("source-id").asInt();
              if (conflicts(name, sourceId, next)) {
                ((ObjectNode) field).put("name", name + "_" + sourceId);
              }
            }
          }
        });
  }

  private static boolean conflicts(TableMetadata previous, Schema next) {
    return previous.specs().stream()
        .flatMap(spec -> spec.fields().stream())
        .anyMatch(f -> conflicts(f.name(), f.sourceId(), next));
  }

  private static boolean conflicts(String name, int sourceId, Schema next) {
    Types.NestedField column = next.findField(name);
    return column != null && column.fieldId() != sourceId;
  }
}
