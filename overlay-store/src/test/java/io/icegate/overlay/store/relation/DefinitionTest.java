package io.icegate.overlay.store.relation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewMetadata;
import org.junit.jupiter.api.Test;

class DefinitionTest {
  // field ids deliberately not 1..n, as an upstream that evolved its schema has them
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(3, "id", Types.LongType.get()),
      Types.NestedField.optional(7, "day", Types.DateType.get()),
      Types.NestedField.optional(9, "name", Types.StringType.get()));

  @Test
  void tableDefinitionServesUpstreamSchemaSpecAndOrderWithoutSnapshots() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).day("day").bucket("id", 8).build();
    SortOrder order = SortOrder.builderFor(SCHEMA).asc("name").build();
    TableDefinition definition = new TableDefinition(2, "6f1c3f0e-8d3c-4a6e-9d43-3d0f5f3b2a10",
        "s3://bucket/up/orders", SchemaParser.toJson(SCHEMA), PartitionSpecParser.toJson(spec),
        SortOrderParser.toJson(order), Map.of("owner", "sales", "format-version", "2"), "ICEBERG",
        "s3://bucket/up/orders/metadata/00003.metadata.json");

    TableMetadata metadata = definition.toTableMetadata();
    assertThat(metadata.uuid()).isEqualTo("6f1c3f0e-8d3c-4a6e-9d43-3d0f5f3b2a10");
    assertThat(metadata.schema().sameSchema(SCHEMA)).isTrue();
    assertThat(metadata.schema().findField("day").fieldId()).isEqualTo(7);
    assertThat(metadata.spec().fields()).extracting(f -> f.transform().toString())
        .containsExactly("day", "bucket[8]");
    assertThat(metadata.sortOrder().fields()).hasSize(1);
    assertThat(metadata.snapshots()).isEmpty();
    assertThat(metadata.properties()).containsEntry("owner", "sales")
        .doesNotContainKey("format-version");
    assertThat(metadata.location()).isEqualTo("s3://bucket/up/orders");
    // what the gateway serializes parses back
    assertThat(TableMetadataParser.fromJson(TableMetadataParser.toJson(metadata)).spec())
        .isEqualTo(metadata.spec());

    byte[] bytes = definition.toBytes();
    assertThat(TableDefinition.fromBytes(bytes)).isEqualTo(definition);
    TableDefinition reordered = new TableDefinition(2, definition.tableUuid(),
        definition.location(), definition.schemaJson(), definition.partitionSpecJson(),
        definition.sortOrderJson(), Map.of("format-version", "2", "owner", "sales"), "ICEBERG",
        definition.upstreamMetadataLocation());
    assertThat(reordered.toBytes()).isEqualTo(bytes);
  }

  @Test
  void viewDefinitionServesEveryDialect() {
    ViewDefinition definition = new ViewDefinition("0b7f2a4e-5a55-4c1b-8a3e-1f2d3c4b5a69",
        "s3://bucket/up/v", SchemaParser.toJson(SCHEMA),
        List.of(new ViewDefinition.Representation("spark", "SELECT * FROM orders"),
            new ViewDefinition.Representation("trino", "SELECT * FROM \"orders\"")),
        List.of("up", "sales"), null, Map.of("comment", "c"));
    ViewMetadata metadata = definition.toViewMetadata(1_700_000_000_000L);
    assertThat(metadata.currentVersion().representations())
        .extracting(r -> ((SQLViewRepresentation) r).dialect()).containsExactly("spark", "trino");
    assertThat(metadata.currentVersion().defaultNamespace().levels())
        .containsExactly("up", "sales");
    assertThat(metadata.currentVersion().defaultCatalog()).isNull();
    assertThat(metadata.schema().sameSchema(SCHEMA)).isTrue();
    assertThat(ViewDefinition.fromBytes(definition.toBytes())).isEqualTo(definition);
    assertThat(definition.toViewMetadata(1_700_000_000_000L).currentVersion())
        .isEqualTo(metadata.currentVersion());
  }
}
