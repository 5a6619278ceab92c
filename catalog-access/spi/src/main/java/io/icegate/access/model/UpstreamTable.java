package io.icegate.access.model;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Provider-neutral metadata of one upstream table: what the overlay needs to materialize it as a
 * table definition.
 *
 * <p>The JSON components use the shapes of Iceberg's own parsers ({@code SchemaParser}, {@code
 * PartitionSpecParser}, {@code SortOrderParser}) so a consumer reads them back with those; this
 * module does not depend on Iceberg, which is why they travel as text.
 *
 * @param namespace where it lives upstream
 * @param name its upstream name
 * @param format the table format the provider determined
 * @param identity stable upstream id when the provider exposes one, else a path-derived unstable
 *     one; for a stable {@link TableFormat#ICEBERG} table it is the table's {@code table-uuid}
 *     (see {@link #icebergTableUuid()})
 * @param metadataLocation the current metadata file (Iceberg {@code metadata-location}), or {@code
 *     null} when the format has none
 * @param storageLocation the table's root location, or {@code null} when not exposed
 * @param schemaJson the current schema as Iceberg schema JSON, or {@code null} when unknown (e.g.
 *     a Delta type with no Iceberg counterpart)
 * @param properties table properties as the upstream reports them
 * @param partitionSpecJson the default partition spec as Iceberg partition spec JSON ({@code
 *     spec-id}, {@code fields} of {@code source-id}/{@code field-id}/{@code name}/{@code
 *     transform}), its source ids those of {@code schemaJson}; {@link #UNPARTITIONED_SPEC_JSON} for
 *     an unpartitioned table. {@code null} exactly when {@code schemaJson} is: a spec cannot be
 *     bound without the schema
 * @param sortOrderJson the default sort order as Iceberg sort order JSON ({@code order-id}, {@code
 *     fields}), never {@code null}; {@link #UNSORTED_ORDER_JSON} when the table declares none
 * @param formatVersion the Iceberg format version ({@code format-version}, at least 1) of an
 *     Iceberg table; 2 for Delta and Parquet tables, which have none of their own
 */
public record UpstreamTable(
    NamespacePath namespace,
    String name,
    TableFormat format,
    ExternalIdentity identity,
    String metadataLocation,
    String storageLocation,
    String schemaJson,
    Map<String, String> properties,
    String partitionSpecJson,
    String sortOrderJson,
    int formatVersion) {

  /** What {@code PartitionSpecParser.toJson(PartitionSpec.unpartitioned())} writes. */
  public static final String UNPARTITIONED_SPEC_JSON = "{\"spec-id\":0,\"fields\":[]}";

  /** What {@code SortOrderParser.toJson(SortOrder.unsorted())} writes. */
  public static final String UNSORTED_ORDER_JSON = "{\"order-id\":0,\"fields\":[]}";

  /** The format version given to a table whose own format has none (Delta, Parquet). */
  public static final int DEFAULT_FORMAT_VERSION = 2;

  /**
   * @throws NullPointerException for a missing namespace, name, format, identity or sort order
   * @throws IllegalArgumentException when the partition spec's presence does not match the
   *     schema's, the format version is below 1, or a stable Iceberg identity is not a UUID
   */
  public UpstreamTable {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(sortOrderJson, "sortOrderJson");
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    if ((partitionSpecJson == null) != (schemaJson == null)) {
      throw new IllegalArgumentException(
          "a partition spec is given exactly when the schema is (schema "
              + (schemaJson == null ? "absent" : "present")
              + ")");
    }
    if (formatVersion < 1) {
      throw new IllegalArgumentException("format version " + formatVersion + " is below 1");
    }
    if (format == TableFormat.ICEBERG && identity.stable()) {
      parseUuid(identity.value());
    }
  }

  /**
   * The metadata of an unpartitioned, unsorted table of format version 2; kept for callers that
   * predate the layout components.
   */
  public UpstreamTable(
      NamespacePath namespace,
      String name,
      TableFormat format,
      ExternalIdentity identity,
      String metadataLocation,
      String storageLocation,
      String schemaJson,
      Map<String, String> properties) {
    this(
        namespace,
        name,
        format,
        identity,
        metadataLocation,
        storageLocation,
        schemaJson,
        properties,
        schemaJson == null ? null : UNPARTITIONED_SPEC_JSON,
        UNSORTED_ORDER_JSON,
        DEFAULT_FORMAT_VERSION);
  }

  /**
   * The Iceberg {@code table-uuid} of an Iceberg table whose provider reported one (it is then the
   * stable identity); empty for other formats and for an Iceberg table identified by its path.
   */
  public Optional<UUID> icebergTableUuid() {
    return format == TableFormat.ICEBERG && identity.stable()
        ? Optional.of(parseUuid(identity.value()))
        : Optional.empty();
  }

  private static UUID parseUuid(String value) {
    try {
      return UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the stable identity of an Iceberg table must be its table UUID, not '" + value + "'");
    }
  }
}
