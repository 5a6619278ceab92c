package io.icegate.access.delta.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.delta.fixture.DeltaSchemaSamples;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one Delta-to-Iceberg schema mapping: field ids with and without column mapping (nested ids
 * included), every Delta type, decimals, and the one exception for types Iceberg cannot hold.
 */
class DeltaSchemasTest {

  /** Delta ids 7, 3, 4 on the columns, 10, 11, 12 nested in scores, none for tags' element. */
  static final String MAPPED = DeltaSchemaSamples.COLUMN_MAPPED;

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

  @Test
  void fieldIdsInTheMetadataCountOnlyUnderAColumnMappingMode() {
    // mode absent or "none": the ids in field metadata are not Delta's current ids, fresh ones are
    Schema unmapped =
        SchemaParser.fromJson(
            DeltaSchemas.toIcebergJson(MAPPED, Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "none")));
    assertThat(unmapped.findField("id").fieldId()).isEqualTo(1);
    assertThat(DeltaSchemas.usesColumnMapping(Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "ID")))
        .isTrue();
    assertThat(DeltaSchemas.usesColumnMapping(Map.of())).isFalse();
    assertThat(DeltaSchemas.usesColumnMapping(null)).isFalse();
  }

  @Test
  void withColumnMappingButNoMaxColumnIdFreshIdsStartAboveTheHighestDeltaId() {
    Schema schema =
        SchemaParser.fromJson(
            DeltaSchemas.toIcebergJson(MAPPED, Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "id")));
    assertThat(schema.findField("tags.element").fieldId()).isEqualTo(13);
    assertThatThrownBy(
            () ->
                DeltaSchemas.toIcebergJson(
                    MAPPED,
                    Map.of(
                        DeltaSchemas.COLUMN_MAPPING_MODE, "id",
                        DeltaSchemas.MAX_COLUMN_ID, "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(DeltaSchemas.MAX_COLUMN_ID);
  }

  @ParameterizedTest
  @CsvSource({
    "byte, int",
    "short, int",
    "integer, int",
    "long, long",
    "float, float",
    "double, double",
    "boolean, boolean",
    "string, string",
    "binary, binary",
    "date, date",
    "timestamp, timestamptz",
    "timestamp_ntz, timestamp",
    "'decimal(10,2)', 'decimal(10, 2)'",
    "'decimal( 38 , 0 )', 'decimal(38, 0)'",
    "'DECIMAL(5, 1)', 'decimal(5, 1)'",
    "decimal, 'decimal(10, 0)'"
  })
  void everyDeltaPrimitiveHasItsIcebergType(String delta, String iceberg) {
    String struct =
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"c\",\"type\":\""
            + delta
            + "\",\"nullable\":true,\"metadata\":{}}]}";
    Schema schema = SchemaParser.fromJson(DeltaSchemas.toIcebergJson(struct));
    assertThat(schema.findField("c").type().toString()).isEqualTo(iceberg);
  }

  @Test
  void nestedTypesKeepTheirShapeNullabilityAndComments() {
    String struct =
        """
        {"type":"struct","fields":[
          {"name":"address","type":{"type":"struct","fields":[
              {"name":"city","type":"string","nullable":false,"metadata":{"comment":"where"}}]},
            "nullable":true,"metadata":{}},
          {"name":"tags","type":{"type":"array","elementType":"string","containsNull":false},
            "nullable":false,"metadata":{}},
          {"name":"attrs","type":{"type":"map","keyType":"string","valueType":"long",
            "valueContainsNull":true},"nullable":true,"metadata":{}}
        ]}
        """;
    Schema schema = SchemaParser.fromJson(DeltaSchemas.toIcebergJson(struct));
    Types.NestedField city = schema.findField("address.city");
    assertThat(city.isRequired()).isTrue();
    assertThat(city.doc()).isEqualTo("where");
    assertThat(schema.findField("address").isOptional()).isTrue();
    Types.ListType tags = schema.findField("tags").type().asListType();
    assertThat(schema.findField("tags").isRequired()).isTrue();
    assertThat(tags.isElementRequired()).isTrue();
    Types.MapType attrs = schema.findField("attrs").type().asMapType();
    assertThat(attrs.isValueOptional()).isTrue();
    assertThat(attrs.valueType()).isEqualTo(Types.LongType.get());
    // depth-first: the three columns 1..3, then address.city 4, tags.element 5, attrs 6 and 7
    assertThat(city.fieldId()).isEqualTo(4);
    assertThat(tags.elementId()).isEqualTo(5);
    assertThat(attrs.keyId()).isEqualTo(6);
    assertThat(attrs.valueId()).isEqualTo(7);
  }

  @Test
  void theJsonIsIcebergSchemaJsonWithSchemaIdZero() {
    // the text is stored with each materialized table: a change here updates every Delta table
    assertThat(
            DeltaSchemas.toIcebergJson(
                "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\","
                    + "\"nullable\":false,\"metadata\":{}}]}"))
        .isEqualTo(
            "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\","
                + "\"required\":true,\"type\":\"long\"}]}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"variant\"",
        "\"interval day to second\"",
        "{\"type\":\"udt\",\"class\":\"x.Point\"}",
        "{\"type\":\"array\",\"elementType\":\"variant\",\"containsNull\":true}"
      })
  void aTypeIcebergCannotHoldFailsWithTheOneExceptionNamingIt(String type) {
    String struct =
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"c\",\"type\":"
            + type
            + ",\"nullable\":true,\"metadata\":{}}]}";
    assertThatThrownBy(() -> DeltaSchemas.toIcebergJson(struct))
        .isInstanceOf(DeltaSchemas.UnsupportedTypeException.class)
        .hasMessageContaining("has no Iceberg type")
        .hasMessageContaining(
            type.contains("udt") ? "udt" : type.contains("interval") ? "interval" : "variant");
  }

  @Test
  void textThatIsNotADeltaStructIsRefused() {
    assertThatThrownBy(() -> DeltaSchemas.toIcebergJson("{not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> DeltaSchemas.toIcebergJson("{\"type\":\"array\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a struct");
  }
}
