package io.icegate.access.deltasharing;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.delta.schema.DeltaPartitions;
import io.icegate.access.delta.schema.DeltaSchemas;
import io.icegate.access.deltasharing.http.SharingTransport;
import io.icegate.access.deltasharing.protocol.MetadataResponse;
import io.icegate.access.deltasharing.protocol.SharedTable;
import io.icegate.access.deltasharing.protocol.TableMetadata;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.StorageAccessProbe;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;

/**
 * A {@link CatalogClient} over the Delta Sharing REST protocol.
 *
 * <p>Mapping onto the SPI: a share is a top-level namespace {@code [share]}, a schema the namespace
 * {@code [share, schema]} below it, and tables live only at that second level; the depth is fixed
 * (no {@code HIERARCHICAL_NAMESPACES}) and there are no views. Listings follow the protocol's
 * {@code maxResults}/{@code nextPageToken} to the end under {@link
 * io.icegate.access.paging.PageTokenGuard}.
 *
 * <p>{@link #loadTable} reads {@code /metadata} (its {@code Delta-Table-Version} header, the {@code
 * metaData} line's schema, location and access modes, in either response format: {@link
 * MetadataResponse}) and the table's listing entry (its {@code
 * id}, the protocol's stable table id, unique within a share: the identity is {@code
 * shareId-or-share U+001F id}, path-derived and unstable only when the server sends no {@code id}).
 * A server that states no location there (the reference server) is asked for the table's
 * temporary credentials, whose {@code location} is the table's; {@code s3}, {@code s3a} and {@code
 * s3n} locations are all S3 (the SPI's {@code S3Location}). The table's {@code metadataLocation}
 * is its current commit file, {@code
 * <location>/_delta_log/<version, 20 digits>.json}, which is what {@link #validateStorageAccess}
 * reads with exactly the vended keys; since a table written anew at its path up to that version
 * reuses the name, the table property {@link DeltaLog#COMMIT_IDENTITY_PROPERTY} states which
 * commit it is ({@link SharedTableRequests.Loaded#commitIdentity}: Delta table id and version).
 * The partition spec has one identity field per Delta partition column; Delta has no sort order
 * and no format version, so the table is unsorted and version {@value
 * UpstreamTable#DEFAULT_FORMAT_VERSION}.
 */
final class DeltaSharingClient implements CatalogClient {

  /** Properties this provider adds to {@link UpstreamTable#properties()}. */
  static final String TABLE_VERSION = "delta-sharing.table-version";

  static final String DELTA_TABLE_ID = "delta-sharing.delta-table-id";
  static final String ACCESS_MODES = "delta-sharing.access-modes";
  static final String PARTITION_COLUMNS = "delta-sharing.partition-columns";
  static final String SCHEMA_STRING = "delta-sharing.schema-string";

  private final CatalogConnectionConfig config;
  private final SharingSettings settings;
  private final CatalogCapabilities capabilities;
  private final SharingTransport transport;
  private final StorageAccessProbe storage;
  private final SharedTableRequests tableRequests;
  private final Clock clock;
  private volatile boolean closed;

  DeltaSharingClient(
      CatalogConnectionConfig config,
      SharingSettings settings,
      OutboundAddressPolicy policy,
      CatalogCapabilities capabilities,
      Clock clock) {
    this.config = config;
    this.settings = settings;
    this.capabilities = capabilities;
    this.clock = clock;
    this.transport =
        new SharingTransport(
            config.endpoint(),
            settings.token(),
            settings.headers(),
            policy,
            settings.timeout(),
            settings.maxPages());
    this.storage = new StorageAccessProbe(settings.storageSettings(), policy);
    this.tableRequests = new SharedTableRequests(transport, settings);
    policy.resolve(config.endpoint().getHost()); // fail early on a refused endpoint
  }

  @Override
  public CatalogCapabilities capabilities() {
    return capabilities;
  }

  /** One page of shares proves reachability and that the recipient token is accepted. */
  @Override
  public void validate() {
    checkOpen();
    try {
      transport.get("share listing", "/shares", Map.of("maxResults", "1"));
    } catch (CatalogAccessException e) {
      throw wrongPrefix(e);
    }
  }

  @Override
  public List<NamespacePath> listNamespaces(NamespacePath parent) {
    checkOpen();
    return switch (parent.depth()) {
      case 0 -> shares();
      case 1 ->
          transport.listAll(
              "schema listing of share " + parent.segments().get(0),
              SharingTransport.path("shares", parent.segments().get(0), "schemas"),
              settings.maxResults(),
              item -> parent.child(requiredText(item, "name", "schema listing")));
      case 2 -> List.of(); // schemas hold tables, never namespaces
      default -> throw tooDeep(parent);
    };
  }

  private List<NamespacePath> shares() {
    try {
      return transport.listAll(
          "share listing",
          "/shares",
          settings.maxResults(),
          item -> NamespacePath.of(requiredText(item, "name", "share listing")));
    } catch (CatalogAccessException e) {
      throw wrongPrefix(e);
    }
  }

  /**
   * {@code GET {prefix}/shares} exists on every sharing server, so its 404 says the endpoint's
   * prefix is wrong, not that some namespace is missing: reported as that request's answer, a
   * configuration to fix.
   */
  private CatalogAccessException wrongPrefix(CatalogAccessException e) {
    if (e.code() != Code.NOT_FOUND) {
      return e;
    }
    return new CatalogAccessException(
        Code.INVALID_CONFIGURATION,
        e.getMessage()
            + " at "
            + config.endpoint()
            + "/shares; the endpoint is not a Delta Sharing prefix (check the profile's endpoint)",
        e);
  }

  @Override
  public List<CatalogObjectRef> listObjects(NamespacePath namespace, Set<CatalogObjectKind> kinds) {
    checkOpen();
    if (namespace.depth() > 2) {
      throw tooDeep(namespace);
    }
    if (namespace.depth() < 2 || !kinds.contains(CatalogObjectKind.TABLE)) {
      return List.of();
    }
    List<CatalogObjectRef> objects = new ArrayList<>();
    for (SharedTable table : tableRequests.tables(namespace)) {
      objects.add(new CatalogObjectRef(CatalogObjectKind.TABLE, namespace, table.name()));
    }
    return objects;
  }

  @Override
  public UpstreamTable loadTable(NamespacePath namespace, String name) {
    checkOpen();
    SharedTableRequests.Loaded loaded = tableRequests.load(namespace, name);
    TableMetadata metadata = loaded.metadata();
    SharedTable entry = loaded.entry();
    String location = loaded.statedLocation();
    if (location == null) {
      location = tableRequests.credentialLocation(namespace, name, loaded);
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (metadata.configuration() != null) {
      properties.putAll(metadata.configuration());
    }
    properties.put(TABLE_VERSION, Long.toString(loaded.version()));
    properties.put(DELTA_TABLE_ID, String.valueOf(metadata.id()));
    String commit = loaded.commitIdentity();
    if (commit != null) {
      properties.put(DeltaLog.COMMIT_IDENTITY_PROPERTY, commit);
    }
    List<String> modes = loaded.accessModes();
    if (modes != null) {
      properties.put(ACCESS_MODES, String.join(",", modes));
    }
    if (metadata.partitionColumns() != null) {
      properties.put(PARTITION_COLUMNS, String.join(",", metadata.partitionColumns()));
    }
    properties.put(SCHEMA_STRING, metadata.schemaString());
    String schemaJson =
        icebergSchema(
            metadata.schemaString(),
            metadata.configuration() == null ? Map.of() : metadata.configuration(),
            display(namespace, name));
    return new UpstreamTable(
        namespace,
        name,
        TableFormat.DELTA,
        entry.identity(namespace, name),
        location == null ? null : VendedKeys.commitFile(location, loaded.version()),
        location,
        schemaJson,
        properties,
        schemaJson == null
            ? null
            : DeltaPartitions.identitySpecJson(
                schemaJson,
                metadata.partitionColumns() == null ? List.of() : metadata.partitionColumns(),
                display(namespace, name)),
        SortOrderParser.toJson(SortOrder.unsorted()), // Delta declares no sort order
        UpstreamTable.DEFAULT_FORMAT_VERSION);
  }

  @Override
  public UpstreamView loadView(NamespacePath namespace, String name) {
    throw new CatalogAccessException(Code.UNSUPPORTED, "Delta Sharing shares no views");
  }

  /**
   * Asks {@code temporary-table-credentials} for the table's root location, after the access-mode
   * rule ({@link AccessModes}).
   *
   * @throws CatalogAccessException {@code UNSUPPORTED} for a url-only table (named), for a table
   *     stating no modes under strict reading, or when such a table's request is refused; {@code
   *     INVALID_CONFIGURATION} for a non-AWS or incomplete credential; {@code
   *     CREDENTIAL_SCOPE_INVALID}, {@code CREDENTIAL_EXPIRED}; {@code AUTHENTICATION_FAILED} and
   *     {@code PERMISSION_DENIED} for the recipient token itself
   */
  @Override
  public Optional<VendedStorageCredentials> vendStorageCredentials(
      NamespacePath namespace, String name) {
    checkOpen();
    SharedTableRequests.Loaded loaded = tableRequests.load(namespace, name);
    return Optional.of(
        VendedKeys.of(
            display(namespace, name),
            loaded.statedLocation(),
            tableRequests.temporaryCredentials(namespace, name, loaded),
            clock.instant()));
  }

  /**
   * The version the share serves, at the stated location (else the credentials'), with credentials
   * vended now after the access-mode rule (a url-only table: {@code UNSUPPORTED}, named).
   */
  @Override
  public DeltaTableSource deltaTableSource(NamespacePath namespace, String name) {
    checkOpen();
    SharedTableRequests.Loaded loaded = tableRequests.load(namespace, name);
    return VendedKeys.source(display(namespace, name), loaded.statedLocation(), loaded.version(),
        tableRequests.temporaryCredentials(namespace, name, loaded), clock.instant(),
        settings.storageSettings());
  }

  @Override
  public void validateStorageAccess(UpstreamTable table, VendedStorageCredentials credentials) {
    checkOpen();
    storage.readObject(
        table.metadataLocation(), "Delta commit file", credentials, clock.instant());
  }

  @Override
  public void close() {
    closed = true;
  }

  /**
   * The Delta schema through the Delta toolkit's one mapping: Delta's field ids (nested ones
   * included) when the table's configuration turns column mapping on, else fresh ids.
   *
   * @return {@code null} for a type Iceberg cannot hold (the Delta schema stays in the
   *     properties; capture decides what to do)
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} when it is not a Delta struct
   */
  private static String icebergSchema(
      String schemaString, Map<String, String> configuration, String display) {
    try {
      return DeltaSchemas.toIcebergJson(schemaString, configuration);
    } catch (DeltaSchemas.UnsupportedTypeException e) {
      return null;
    } catch (IllegalArgumentException e) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR,
          "table metadata of " + display + " has an unusable schemaString: " + e.getMessage());
    }
  }

  static String display(NamespacePath namespace, String name) {
    return String.join(".", namespace.segments()) + "." + name;
  }

  private static String requiredText(JsonNode item, String field, String operation) {
    String value = item.path(field).asText("");
    if (value.isEmpty()) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, operation + " answered an item without a " + field);
    }
    return value;
  }

  private static CatalogAccessException tooDeep(NamespacePath namespace) {
    return new CatalogAccessException(
        Code.NOT_FOUND,
        "Delta Sharing namespaces are [share] and [share, schema]; " + namespace + " is deeper");
  }

  static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  private void checkOpen() {
    if (closed) {
      throw new CatalogAccessException(Code.CLOSED, "the catalog client is closed");
    }
  }

  @Override
  public String toString() {
    return "DeltaSharingClient[" + config + "]";
  }
}
