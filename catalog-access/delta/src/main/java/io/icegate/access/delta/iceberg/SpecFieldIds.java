package io.icegate.access.delta.iceberg;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.TableMetadata;

/**
 * Partition field ids that stay stable across the captures of one table. The identity spec built
 * from a Delta version numbers its fields from 1000 each time; where the previous capture has a
 * spec field with the same source column and transform, the new field takes that field's id, and
 * any other field takes a fresh id above every id the table ever assigned. Without this, a spec
 * on renumbered columns (column mapping enabled on an existing table) would give id 1000 to a
 * field sourced from another column than the earlier spec's field 1000, and iceberg-core refuses
 * such a table ("Conflicting partition fields") whenever it builds the partition type of all
 * specs: in every filtered scan, sort and metadata-table read. Iceberg's own spec updates assign
 * ids the same way.
 */
final class SpecFieldIds {

  private SpecFieldIds() {}

  /** {@code spec} with ids stable against {@code previous}; itself for a new table. */
  static PartitionSpec stable(TableMetadata previous, PartitionSpec spec) {
    if (previous == null || spec.isUnpartitioned()) {
      return spec;
    }
    Map<String, Integer> earlier = new HashMap<>();
    for (PartitionSpec old : previous.specs()) {
      for (PartitionField field : old.fields()) {
        earlier.putIfAbsent(key(field), field.fieldId());
      }
    }
    int next = previous.lastAssignedPartitionId();
    // the spec JSON is iceberg-core's public way to build a spec with chosen field ids
    ObjectNode json = JsonNodeFactory.instance.objectNode().put("spec-id", spec.specId());
    ArrayNode fields = json.putArray("fields");
    for (PartitionField field : spec.fields()) {
      Integer id = earlier.get(key(field));
      fields.addObject()
          .put("name", field.name())
          .put("transform", field.transform().toString())
          .put("source-id", field.sourceId())
          .put("field-id", id != null ? id : ++next);
    }
    // as a string: spark-it runs this with the Spark runtime's Iceberg, whose Jackson is shaded
    return PartitionSpecParser.fromJson(spec.schema(), json.toString());
  }

  private static String key(PartitionField field) {
    return field.sourceId() + "/" + field.transform();
  }
}
