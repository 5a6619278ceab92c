package io.icegate.overlay.store.relation;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;

/**
 * The stored definition of a managed Table (seed 000, "Materialized metadata": schema, partition
 * spec, sort order, properties, location, table format, upstream metadata location), without
 * snapshots. Stored as canonical JSON ({@link RelationDefinition#toBytes()}), so the same upstream
 * state always yields the same bytes and the same digest.
 *
 * @param formatVersion the Iceberg format version to serve (1 to 3)
 * @param tableUuid the table UUID to serve: the upstream UUID when it has one, else one derived
 *     from the icegate resource id, so clients see a stable UUID across loads
 * @param location the table's root location
 * @param schemaJson current schema, Iceberg schema JSON (field ids as upstream)
 * @param partitionSpecJson default partition spec, Iceberg JSON bound to {@code schemaJson}
 * @param sortOrderJson default sort order, Iceberg JSON bound to {@code schemaJson}
 * @param properties table properties as upstream reports them (reserved Iceberg properties are
 *     dropped when serving)
 * @param tableFormat the upstream table format name ({@code ICEBERG}, {@code DELTA}, ...)
 * @param upstreamMetadataLocation the upstream metadata file, or {@code null}
 */
public record TableDefinition(
    int formatVersion,
    String tableUuid,
    String location,
    String schemaJson,
    String partitionSpecJson,
    String sortOrderJson,
    Map<String, String> properties,
    String tableFormat,
    String upstreamMetadataLocation) implements RelationDefinition {

  public TableDefinition {
    if (formatVersion < 1 || formatVersion > 3) {
      throw new IllegalArgumentException("unsupported table format version " + formatVersion);
    }
    Objects.requireNonNull(tableUuid, "tableUuid");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(schemaJson, "schemaJson");
    Objects.requireNonNull(partitionSpecJson, "partitionSpecJson");
    Objects.requireNonNull(sortOrderJson, "sortOrderJson");
    Objects.requireNonNull(tableFormat, "tableFormat");
    properties = new TreeMap<>(properties == null ? Map.of() : properties);
  }

  /**
   * Reads stored bytes ({@link #toBytes()}).
   *
   * @throws java.io.UncheckedIOException when the bytes are not a definition
   */
  public static TableDefinition fromBytes(byte[] bytes) {
    return RelationDefinition.fromBytes(bytes, TableDefinition.class);
  }

  /**
   * The Iceberg metadata the gateway serves: this definition with no snapshots, no metadata file
   * location and the partition spec and sort order bound to the schema.
   *
   * @throws RuntimeException (Iceberg's parser and validation exceptions) when the stored JSON is
   *     not valid Iceberg metadata; the reconciler calls this before publishing so that never
   *     reaches a reader
   */
  public TableMetadata toTableMetadata() {
    Schema schema = SchemaParser.fromJson(schemaJson);
    PartitionSpec spec = PartitionSpecParser.fromJson(schema, partitionSpecJson);
    SortOrder order = SortOrderParser.fromJson(schema, sortOrderJson);
    Map<String, String> served = new HashMap<>(properties);
    served.keySet().removeAll(TableProperties.RESERVED_PROPERTIES);
    return TableMetadata.buildFromEmpty(formatVersion)
        .assignUUID(tableUuid)
        .setLocation(location)
        .setCurrentSchema(schema, schema.highestFieldId())
        .setDefaultPartitionSpec(spec)
        .setDefaultSortOrder(order)
        .setProperties(served)
        .build();
  }
}
