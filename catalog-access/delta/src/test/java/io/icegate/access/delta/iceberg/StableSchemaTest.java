package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.fixture.DeltaSchemaSamples;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.junit.jupiter.api.Test;

/** Field ids that never change and are never reused, across captures of an evolving schema. */
class StableSchemaTest {

  static final String V0 =
      """
      {"type":"struct","fields":[
        {"name":"id","type":"long","nullable":false,"metadata":{}},
        {"name":"address","type":{"type":"struct","fields":[
          {"name":"city","type":"string","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
        {"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},
          "nullable":true,"metadata":{}}
      ]}
      """;

  /** V0 with a column added in front of the nested ones' depth-first numbering. */
  static final String V1 =
      """
      {"type":"struct","fields":[
        {"name":"id","type":"long","nullable":false,"metadata":{}},
        {"name":"address","type":{"type":"struct","fields":[
          {"name":"city","type":"string","nullable":true,"metadata":{}},
          {"name":"zip","type":"string","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
        {"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},
          "nullable":true,"metadata":{}},
        {"name":"added","type":"integer","nullable":true,"metadata":{}}
      ]}
      """;

  /** V0 with a column named differently from the one V1 added. */
  static final String V0_OTHER =
      V0.substring(0, V0.lastIndexOf(']'))
          + ",{\"name\":\"other\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}";

  static TableMetadata stored(StableSchema.Mapped mapped) {
    return TableMetadata.buildFromEmpty(2)
        .setLocation("file:/t")
        .setCurrentSchema(mapped.schema(), mapped.lastColumnId())
        .setDefaultPartitionSpec(PartitionSpec.unpartitioned())
        .setDefaultSortOrder(SortOrder.unsorted())
        .setProperties(
            Map.of(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(mapped.nameMapping())))
        .build();
  }

  static int id(Schema schema, String name) {
    return schema.findField(name).fieldId();
  }

  @Test
  void withoutColumnMappingIdsComeFromIcegatesRangeAndSurviveAddedColumns() {
    StableSchema.Mapped first = StableSchema.map(V0, Map.of(), null);
    assertThat(first.schema().columns()).allMatch(f -> f.fieldId() >= StableSchema.FIRST_ASSIGNED_ID);

    StableSchema.Mapped second = StableSchema.map(V1, Map.of(), stored(first));
    for (String name : new String[] {"id", "address", "address.city", "tags", "tags.element"}) {
      assertThat(id(second.schema(), name)).as(name).isEqualTo(id(first.schema(), name));
    }
    assertThat(id(second.schema(), "address.zip")).isGreaterThan(first.lastColumnId());
    assertThat(id(second.schema(), "added")).isGreaterThan(first.lastColumnId());
    assertThat(second.lastColumnId()).isEqualTo(first.lastColumnId() + 2);
  }

  @Test
  void aDroppedColumnsIdIsNeverGivenToANewOne() {
    StableSchema.Mapped first = StableSchema.map(V1, Map.of(), null);
    // drop "added", then add "other": it must not take the dropped column's id
    StableSchema.Mapped dropped = StableSchema.map(V0, Map.of(), stored(first));
    TableMetadata history =
        TableMetadata.buildFrom(stored(first))
            .setCurrentSchema(dropped.schema(), dropped.lastColumnId())
            .setProperties(
                Map.of(TableProperties.DEFAULT_NAME_MAPPING, NameMappingParser.toJson(dropped.nameMapping())))
            .build();
    StableSchema.Mapped readded =
        StableSchema.map(V0_OTHER, Map.of(), history);
    assertThat(id(readded.schema(), "other")).isGreaterThan(first.lastColumnId());
  }

  @Test
  void columnMappingIdsAreDeltasAndNestedOnesWithoutIdsComeFromIcegatesRange() {
    Map<String, String> properties =
        Map.of("delta.columnMapping.mode", "name", "delta.columnMapping.maxColumnId", "12");
    StableSchema.Mapped mapped = StableSchema.map(DeltaSchemaSamples.COLUMN_MAPPED, properties, null);

    assertThat(id(mapped.schema(), "id")).isEqualTo(7);
    assertThat(id(mapped.schema(), "scores")).isEqualTo(3);
    assertThat(id(mapped.schema(), "scores.element")).isEqualTo(10);
    assertThat(id(mapped.schema(), "tags")).isEqualTo(4);
    assertThat(id(mapped.schema(), "tags.element")).isEqualTo(StableSchema.FIRST_ASSIGNED_ID);

    NameMapping names = mapped.nameMapping();
    assertThat(names.find("col-a").id()).isEqualTo(7);
    assertThat(names.find("col-b", "element", "key").id()).isEqualTo(11);
    assertThat(names.find("col-c", "element").id()).isEqualTo(StableSchema.FIRST_ASSIGNED_ID);
    assertThat(mapped.physicalPaths()).containsEntry(7, java.util.List.of("col-a"));

    // captured again: the element Delta did not number keeps the id icegate gave it
    TableMetadata stored = stored(mapped);
    StableSchema.Mapped again = StableSchema.map(DeltaSchemaSamples.COLUMN_MAPPED, properties, stored);
    assertThat(id(again.schema(), "tags.element")).isEqualTo(StableSchema.FIRST_ASSIGNED_ID);
    assertThat(again.schema().sameSchema(mapped.schema())).isTrue();
  }
}
