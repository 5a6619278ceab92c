package io.icegate.access.unity.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.junit.jupiter.api.Test;

/** Field ids of the Delta-to-Iceberg schema conversion, with and without column mapping. */
class DeltaSchemasTest {

  /**
   * A column-mapped schema as Delta writes it under IcebergCompatV2: struct fields carry {@code
   * delta.columnMapping.id}, and the list and map inside {@code scores} get theirs from the
   * column's {@code delta.columnMapping.nested.ids}, keyed by its physical name.
   */
  static final String MAPPED =
      """
      {"type":"struct","fields":[
        {"name":"id","type":"long","nullable":false,"metadata":{
          "delta.columnMapping.id":7,"delta.columnMapping.physicalName":"col-a"}},
        {"name":"scores","type":{"type":"array","containsNull":true,"elementType":
            {"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true}},
          "nullable":true,"metadata":{
          "delta.columnMapping.id":3,"delta.columnMapping.physicalName":"col-b",
          "delta.columnMapping.nested.ids":{
            "col-b.element":10,"col-b.element.key":11,"col-b.element.value":12}}},
        {"name":"tags","type":{"type":"array","elementType":"string","containsNull":false},
          "nullable":true,"metadata":{
          "delta.columnMapping.id":4,"delta.columnMapping.physicalName":"col-c"}}
      ]}
      """;

  @Test
  void withColumnMappingTheDeltaIdsAreKept() {
    Schema schema =
        SchemaParser.fromJson(
            DeltaSchemas.toIcebergJson(
                MAPPED,
                Map.of(
                    DeltaSchemas.COLUMN_MAPPING_MODE, "name",
                    DeltaSchemas.MAX_COLUMN_ID, "20")));
    assertThat(schema.findField("id").fieldId()).isEqualTo(7);
    assertThat(schema.findField("id").isRequired()).isTrue();
    assertThat(schema.findField("scores").fieldId()).isEqualTo(3);
    assertThat(schema.findField("scores.element").fieldId()).isEqualTo(10);
    assertThat(schema.findField("scores.element.key").fieldId()).isEqualTo(11);
    assertThat(schema.findField("scores.element.value").fieldId()).isEqualTo(12);
    // no nested id for tags' element: fresh, above maxColumnId
    assertThat(schema.findField("tags.element").fieldId()).isEqualTo(21);
  }

  @Test
  void withoutColumnMappingIdsAreFreshAndDepthFirst() {
    Schema schema = SchemaParser.fromJson(DeltaSchemas.toIcebergJson(MAPPED));
    assertThat(schema.findField("id").fieldId()).isEqualTo(1);
    assertThat(schema.findField("scores").fieldId()).isEqualTo(2);
    assertThat(schema.findField("tags").fieldId()).isEqualTo(3);
    assertThat(schema.findField("scores.element").fieldId()).isEqualTo(4);
  }

  @Test
  void aDeltaIdUsedTwiceIsRefused() {
    String twice = MAPPED.replace("\"delta.columnMapping.id\":4", "\"delta.columnMapping.id\":7");
    assertThatThrownBy(
            () -> DeltaSchemas.toIcebergJson(twice, Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "id")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("7");
  }
}
