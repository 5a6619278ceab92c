package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.icegate.access.client.CatalogClient;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import java.util.HashMap;
import java.util.UUID;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortDirection;
import org.apache.iceberg.SortField;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partition spec, sort order, format version and table UUID as loaded from the REST fixture, and
 * the full table metadata capture reads.
 */
class IcebergRestTableLayoutTest {

  private static final Schema EVENTS =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "at", Types.TimestampType.withZone()));

  private static UpstreamCatalog upstream;

  @BeforeAll
  static void start() throws Exception {
    upstream = new UpstreamCatalog();
    try (RESTCatalog client = upstream.fixture.newClient()) {
      client.createNamespace(Namespace.of("layout"), new HashMap<>());
      client
          .buildTable(TableIdentifier.of("layout", "events"), EVENTS)
          .withPartitionSpec(
              PartitionSpec.builderFor(EVENTS).identity("region").bucket("id", 16).build())
          .withSortOrder(
              SortOrder.builderFor(EVENTS).asc("region").desc("at", NullOrder.NULLS_LAST).build())
          .withProperty(TableProperties.FORMAT_VERSION, "3")
          .create();
      client
          .buildTable(TableIdentifier.of("layout", "plain"), EVENTS)
          .withProperty(TableProperties.FORMAT_VERSION, "1")
          .create();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
  }

  @Test
  void aPartitionedSortedTableCarriesItsSpecOrderAndFormatVersion() {
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(NamespacePath.of("layout"), "events");
      Schema schema = SchemaParser.fromJson(table.schemaJson());

      PartitionSpec spec = PartitionSpecParser.fromJson(schema, table.partitionSpecJson());
      assertThat(spec.fields())
          .extracting(f -> schema.findColumnName(f.sourceId()), f -> f.transform().toString())
          .containsExactly(tuple("region", "identity"), tuple("id", "bucket[16]"));
      assertThat(spec.fields()).extracting(PartitionField::fieldId).doesNotHaveDuplicates();

      SortOrder order = SortOrderParser.fromJson(schema, table.sortOrderJson());
      assertThat(order.fields())
          .extracting(
              f -> schema.findColumnName(f.sourceId()), SortField::direction, SortField::nullOrder)
          .containsExactly(
              tuple("region", SortDirection.ASC, NullOrder.NULLS_FIRST),
              tuple("at", SortDirection.DESC, NullOrder.NULLS_LAST));

      assertThat(table.formatVersion()).isEqualTo(3);
    }
  }

  @Test
  void anUnpartitionedUnsortedTableCarriesTheEmptySpecAndOrder() {
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(NamespacePath.of("layout"), "plain");
      Schema schema = SchemaParser.fromJson(table.schemaJson());
      assertThat(PartitionSpecParser.fromJson(schema, table.partitionSpecJson()).isUnpartitioned())
          .isTrue();
      assertThat(SortOrderParser.fromJson(schema, table.sortOrderJson()).isUnsorted()).isTrue();
      assertThat(table.formatVersion()).isEqualTo(1);
      // the SPI's constants are what iceberg-core itself writes for "none"
      assertThat(table.partitionSpecJson())
          .isEqualTo(UpstreamTable.UNPARTITIONED_SPEC_JSON)
          .isEqualTo(PartitionSpecParser.toJson(PartitionSpec.unpartitioned()));
      assertThat(table.sortOrderJson())
          .isEqualTo(UpstreamTable.UNSORTED_ORDER_JSON)
          .isEqualTo(SortOrderParser.toJson(SortOrder.unsorted()));
    }
  }

  @Test
  void theIcebergTableUuidIsTheUpstreamTableUuid() {
    UUID backing =
        upstream.fixture.backingCatalog().loadTable(TableIdentifier.of("layout", "events")).uuid();
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(NamespacePath.of("layout"), "events");
      assertThat(table.icebergTableUuid()).contains(backing);
    }
  }

  @Test
  void theFullTableMetadataIsTheUpstreamsCurrentMetadataFile() {
    org.apache.iceberg.Table backing =
        upstream.fixture.backingCatalog().loadTable(TableIdentifier.of("layout", "events"));
    org.apache.iceberg.TableMetadata current =
        ((org.apache.iceberg.HasTableOperations) backing).operations().current();
    try (CatalogClient client = upstream.anonymous()) {
      io.icegate.access.model.UpstreamTableMetadata metadata =
          client.loadTableMetadata(NamespacePath.of("layout"), "events");
      assertThat(metadata.metadataLocation()).isEqualTo(current.metadataFileLocation());
      org.apache.iceberg.TableMetadata parsed =
          org.apache.iceberg.TableMetadataParser.fromJson(metadata.metadataJson());
      assertThat(parsed.uuid()).isEqualTo(current.uuid());
      assertThat(parsed.formatVersion()).isEqualTo(3);
      assertThat(parsed.specs()).hasSameSizeAs(current.specs());
      assertThat(parsed.sortOrders()).hasSameSizeAs(current.sortOrders());
      assertThat(parsed.schemas()).hasSameSizeAs(current.schemas());
    }
  }

  @Test
  void oneLoadGivesTheTableAndItsFullMetadataOfTheSameMetadataFile() {
    org.apache.iceberg.Table backing =
        upstream.fixture.backingCatalog().loadTable(TableIdentifier.of("layout", "events"));
    org.apache.iceberg.TableMetadata current =
        ((org.apache.iceberg.HasTableOperations) backing).operations().current();
    try (CatalogClient client = upstream.anonymous()) {
      io.icegate.access.model.LoadedTable loaded =
          client.loadTableWithMetadata(NamespacePath.of("layout"), "events");
      assertThat(loaded.table())
          .isEqualTo(client.loadTable(NamespacePath.of("layout"), "events"));
      io.icegate.access.model.UpstreamTableMetadata metadata = loaded.metadata().orElseThrow();
      assertThat(metadata.metadataLocation())
          .isEqualTo(loaded.table().metadataLocation())
          .isEqualTo(current.metadataFileLocation());
      assertThat(metadata)
          .isEqualTo(client.loadTableMetadata(NamespacePath.of("layout"), "events"));
    }
  }
}
