package io.icegate.access.unity;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.delta.schema.DeltaPartitions;
import io.icegate.access.delta.schema.DeltaSchemas;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewSqlNames;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.StorageAccessProbe;
import io.icegate.access.storage.s3.VendedS3Client;
import io.icegate.access.unity.api.UnityApi.CatalogInfo;
import io.icegate.access.unity.api.UnityApi.GenerateTemporaryTableCredential;
import io.icegate.access.unity.api.UnityApi.ListCatalogsResponse;
import io.icegate.access.unity.api.UnityApi.ListSchemasResponse;
import io.icegate.access.unity.api.UnityApi.ListTablesResponse;
import io.icegate.access.unity.api.UnityApi.SchemaInfo;
import io.icegate.access.unity.api.UnityApi.TableInfo;
import io.icegate.access.unity.api.UnityApi.TemporaryCredentials;
import io.icegate.access.unity.auth.CatalogTokens;
import io.icegate.access.unity.http.UnityHttp;
import io.icegate.access.unity.vending.TemporaryTableCredentials;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderParser;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A session with one Unity Catalog server over its REST API 2.1 (seed 001 "Unity Catalog slice").
 *
 * <p>Namespaces: with the {@code catalog} property, that catalog's schemas are the root namespaces
 * ({@code [schema]}); without it, catalogs are ({@code [catalog]}) and schemas sit below them
 * ({@code [catalog, schema]}). Tables and views live only at schema level.
 *
 * <p>Only Delta tables (managed or external, data source format {@code DELTA}) and views are
 * exposed; other Unity tables are invisible here. Table identity is Unity's {@code table_id}.
 *
 * <p>A table's schema comes from its Delta log, read by the Delta toolkit's {@link DeltaLog}
 * (Delta Kernel: the latest snapshot, from JSON commits and Parquet checkpoints alike) with
 * credentials vended for that table, and falls back to Unity's column list only when the log is
 * not there or Kernel cannot read it; credentials that cannot be vended or that the store refuses
 * fail the load instead (the table is held, its schema unchanged). Either way the toolkit's one
 * mapping ({@link DeltaSchemas}) makes it Iceberg's, and under Delta column mapping the Delta field
 * ids become the Iceberg field ids. The table's {@link #SCHEMA_SOURCE} property records which (and
 * {@link #SCHEMA_FALLBACK_REASON} why), because for an externally written table Unity's columns
 * can lag the log. The partition columns come from the same source (the log's {@code
 * partitionColumns}, else Unity's {@code partition_index}) and become identity partition fields;
 * Delta tables are unsorted and get format version {@value
 * UpstreamTable#DEFAULT_FORMAT_VERSION}.
 */
final class UnityClient implements CatalogClient {

  /** Table property naming where the schema came from: {@code delta-log}, {@code unity-columns}. */
  static final String SCHEMA_SOURCE = "icegate.schema-source";

  /** Table property: why the Delta log was not used (a code and a short reason, no secrets). */
  static final String SCHEMA_FALLBACK_REASON = "icegate.schema-fallback-reason";

  /** Table property: the Delta log version the schema was read at. */
  static final String DELTA_LOG_VERSION = "delta.log-version";

  /** Table property: Unity's table type ({@code MANAGED}, {@code EXTERNAL}). */
  static final String UNITY_TABLE_TYPE = "unity.table-type";

  private final UnitySettings settings;
  private final OutboundAddressPolicy policy;
  private final UnityHttp http;
  private final StorageAccessProbe storage;
  private final Clock clock;
  private final DeltaHeads heads;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** A schema-level namespace in Unity's terms. */
  private record SchemaRef(String catalog, String schema) {
    String fullName() {
      return catalog + "." + schema;
    }
  }

  /**
   * @param heads the Delta heads this process read (the provider's, kept across clients): a
   *     table's definition is then read from the commits since its last read
   */
  UnityClient(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy,
      Clock clock,
      DeltaHeads heads) {
    this.settings = UnitySettings.from(config);
    this.policy = policy;
    this.clock = clock;
    this.heads = heads;
    this.http = new UnityHttp(settings, policy);
    this.storage = new StorageAccessProbe(settings.s3Settings(), policy);
    http.authenticateWith(CatalogTokens.forConnection(config, credentials, settings, http, clock));
    policy.resolve(settings.apiBase().getHost());
  }

  @Override
  public CatalogCapabilities capabilities() {
    return UnityProvider.CAPABILITIES;
  }

  /** The {@code catalog} property: the Unity catalog whose schemas are the root namespaces. */
  @Override
  public Optional<String> upstreamCatalogName() {
    return Optional.ofNullable(settings.catalog());
  }

  /** Unity's three-level names in view SQL, relative to the view's catalog and schema. */
  @Override
  public Optional<ViewSqlNames> viewSqlNames() {
    return Optional.of(new UnityViewNames(settings.catalog()));
  }

  /** Lists one page of the root namespaces: the call every discovery starts with. */
  @Override
  public void validate() {
    open();
    if (settings.catalog() == null) {
      http.get("catalogs", Map.of("max_results", "1"), ListCatalogsResponse.class);
    } else {
      http.get(
          "schemas",
          Map.of("catalog_name", settings.catalog(), "max_results", "1"),
          ListSchemasResponse.class);
    }
  }

  @Override
  public List<NamespacePath> listNamespaces(NamespacePath parent) {
    open();
    if (parent.isRoot()) {
      if (settings.catalog() == null) {
        return http
            .listAll(
                "catalogs",
                Map.of(),
                ListCatalogsResponse.class,
                ListCatalogsResponse::catalogs,
                ListCatalogsResponse::nextPageToken)
            .stream()
            .map(c -> NamespacePath.of(c.name()))
            .toList();
      }
      return schemas(settings.catalog()).stream().map(s -> NamespacePath.of(s.name())).toList();
    }
    if (settings.catalog() == null && parent.depth() == 1) {
      String catalog = parent.segments().get(0);
      return schemas(catalog).stream().map(s -> NamespacePath.of(catalog, s.name())).toList();
    }
    SchemaRef schema = schemaRef(parent);
    http.get("schemas/" + UnityHttp.segment(schema.fullName()), Map.of(), SchemaInfo.class);
    return List.of(); // schemas are leaves
  }

  @Override
  public List<CatalogObjectRef> listObjects(NamespacePath namespace, Set<CatalogObjectKind> kinds) {
    open();
    if (settings.catalog() == null && namespace.depth() == 1) {
      http.get("catalogs/" + UnityHttp.segment(namespace.segments().get(0)), Map.of(), CatalogInfo.class);
      return List.of(); // a catalog holds schemas, not tables
    }
    SchemaRef schema = schemaRef(namespace);
    List<CatalogObjectRef> found = new ArrayList<>();
    for (TableInfo table : tables(schema)) {
      if (table.isDeltaTable() && kinds.contains(CatalogObjectKind.TABLE)) {
        found.add(new CatalogObjectRef(CatalogObjectKind.TABLE, namespace, table.name()));
      } else if (table.isView() && kinds.contains(CatalogObjectKind.VIEW)) {
        found.add(new CatalogObjectRef(CatalogObjectKind.VIEW, namespace, table.name()));
      }
    }
    return found;
  }

  @Override
  public UpstreamTable loadTable(NamespacePath namespace, String name) {
    open();
    TableInfo info = deltaTable(namespace, name);
    Map<String, String> properties = new HashMap<>();
    if (info.properties() != null) {
      properties.putAll(info.properties());
    }
    properties.put(UNITY_TABLE_TYPE, info.tableType());
    String schemaJson = null;
    List<String> partitionColumns = List.of();
    String metadataLocation = null;
    String fallbackReason = null;
    try {
      if (info.storageLocation() == null) {
        fallbackReason = "the table has no storage location";
      } else {
        try {
          DeltaLog.Head head = readLog(info);
          schemaJson = DeltaSchemas.toIcebergJson(head.schemaString(), head.configuration());
          partitionColumns = head.partitionColumns();
          metadataLocation = head.commitLocation();
          properties.put(SCHEMA_SOURCE, "delta-log");
          properties.put(DELTA_LOG_VERSION, Long.toString(head.version()));
          if (head.commitIdentity() != null) {
            properties.put(DeltaLog.COMMIT_IDENTITY_PROPERTY, head.commitIdentity());
          }
        } catch (CatalogAccessException e) {
          throw credentialFailure(e);
        } catch (DeltaLog.UnreadableLogException e) {
          if (refusedByStore(e)) {
            throw new CatalogAccessException(Code.STORAGE_ACCESS_FAILED, e.getMessage(), e);
          }
          fallbackReason = e.getMessage();
        } catch (IllegalArgumentException e) {
          fallbackReason = e.getMessage();
        }
      }
      if (schemaJson == null) {
        schemaJson =
            DeltaSchemas.toIcebergJson(
                unitySchema(info), info.properties() == null ? Map.of() : info.properties());
        partitionColumns = unityPartitionColumns(info);
        properties.put(SCHEMA_SOURCE, "unity-columns");
        properties.put(SCHEMA_FALLBACK_REASON, fallbackReason);
      }
    } catch (DeltaSchemas.UnsupportedTypeException e) {
      schemaJson = null;
      partitionColumns = List.of();
      metadataLocation = null;
      properties.remove(DELTA_LOG_VERSION);
      properties.remove(DeltaLog.COMMIT_IDENTITY_PROPERTY);
      properties.put(SCHEMA_SOURCE, "none");
      properties.put(SCHEMA_FALLBACK_REASON, e.getMessage());
    }
    return new UpstreamTable(
        namespace,
        name,
        TableFormat.DELTA,
        identity(info, namespace, name),
        metadataLocation,
        info.storageLocation(),
        schemaJson,
        properties,
        schemaJson == null
            ? null
            : DeltaPartitions.identitySpecJson(
                schemaJson, partitionColumns, name + " in " + namespace),
        SortOrderParser.toJson(SortOrder.unsorted()), // Delta declares no sort order
        UpstreamTable.DEFAULT_FORMAT_VERSION);
  }

  @Override
  public UpstreamView loadView(NamespacePath namespace, String name) {
    open();
    TableInfo info = table(namespace, name);
    if (!info.isView() || info.viewDefinition() == null) {
      throw new CatalogAccessException(
          Code.NOT_FOUND, "no view " + name + " in " + namespace + " (it is not a Unity view)");
    }
    SchemaRef schema = schemaRef(namespace);
    String schemaJson =
        DeltaSchemas.toIcebergJson(unitySchema(info));
    return new UpstreamView(
        namespace,
        name,
        identity(info, namespace, name),
        schemaJson,
        List.of(new ViewRepresentation("spark", info.viewDefinition())),
        namespace,
        schema.catalog(),
        null,
        info.properties());
  }

  @Override
  public Optional<VendedStorageCredentials> vendStorageCredentials(
      NamespacePath namespace, String name) {
    open();
    return vend(deltaTable(namespace, name));
  }

  /** The table's root at the newest version, with credentials vended for it now. */
  @Override
  public DeltaTableSource deltaTableSource(NamespacePath namespace, String name) {
    open();
    TableInfo info = deltaTable(namespace, name);
    if (info.storageLocation() == null) {
      throw new CatalogAccessException(
          Code.UNSUPPORTED,
          "Delta table " + name + " in " + namespace + " has no storage location");
    }
    VendedStorageCredentials credentials;
    try {
      credentials =
          vend(info)
              .orElseThrow(
                  () ->
                      new CatalogAccessException(
                          Code.UNSUPPORTED, "Unity vended no storage credentials for the table"));
    } catch (CatalogAccessException e) {
      throw credentialFailure(e);
    }
    return new DeltaTableSource(
        info.storageLocation(), null, credentials, settings.s3Settings());
  }

  /** Lists the table's {@code _delta_log/} and reads its newest commit with only these keys. */
  @Override
  public void validateStorageAccess(UpstreamTable table, VendedStorageCredentials credentials) {
    open();
    String location = table.storageLocation();
    storage.probe(
        location == null ? null : TemporaryTableCredentials.keyForm(location),
        credentials,
        clock.instant(),
        "reading the Delta log",
        s3 -> {
          try {
            return new DeltaLog(s3, location).readNewestCommit();
          } catch (DeltaLog.UnreadableLogException | IllegalArgumentException e) {
            throw new CatalogAccessException(Code.STORAGE_ACCESS_FAILED, e.getMessage());
          }
        });
  }

  @Override
  public void close() {
    closed.set(true);
  }

  private DeltaLog.Head readLog(TableInfo info) {
    VendedStorageCredentials credentials =
        vend(info)
            .orElseThrow(
                () ->
                    new CatalogAccessException(
                        Code.UNSUPPORTED, "Unity vended no storage credentials for the table"));
    try (S3Client s3 = VendedS3Client.open(credentials, settings.s3Settings(), policy)) {
      return new DeltaLog(s3, info.storageLocation()).head(heads);
    }
  }

  /**
   * Issue 21: a log that could not be read this time says nothing about the table's schema, so
   * there is no falling back to Unity's columns (which can lag the log, and would publish an older
   * schema as an update): the load fails and the reconciler holds the table. Failures of vending
   * itself (refused, none vended, no expiry, wrong scope) become {@code
   * CREDENTIAL_VENDING_FAILED}; an unreachable catalog, a vanished table, refused authentication
   * and a denied address keep their own codes.
   */
  private static CatalogAccessException credentialFailure(CatalogAccessException e) {
    return switch (e.code()) {
      case CONNECTION_FAILED, NOT_FOUND, AUTHENTICATION_FAILED, ADDRESS_DENIED, CLOSED -> e;
      default -> new CatalogAccessException(Code.CREDENTIAL_VENDING_FAILED,
          "storage credentials to read the Delta log could not be vended: " + e.getMessage(), e);
    };
  }

  /** Whether the store refused or failed a read (as opposed to a log that is not there). */
  private static boolean refusedByStore(DeltaLog.UnreadableLogException e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof SdkException) {
        return true;
      }
    }
    return false;
  }

  private Optional<VendedStorageCredentials> vend(TableInfo info) {
    if (info.tableId() == null || info.storageLocation() == null) {
      return Optional.empty();
    }
    TemporaryCredentials response =
        http.post(
            settings.vendUri(),
            new GenerateTemporaryTableCredential(info.tableId(), "READ"),
            TemporaryCredentials.class);
    return TemporaryTableCredentials.toVended(response, info.storageLocation(), clock.instant());
  }

  private static String unitySchema(TableInfo info) {
    return UnityColumns.deltaStruct(info.columns() == null ? List.of() : info.columns());
  }

  private static List<String> unityPartitionColumns(TableInfo info) {
    return UnityColumns.partitionColumns(info.columns() == null ? List.of() : info.columns());
  }

  private static ExternalIdentity identity(TableInfo info, NamespacePath namespace, String name) {
    return info.tableId() == null
        ? ExternalIdentity.fromPath(namespace, name)
        : ExternalIdentity.stable(info.tableId());
  }

  private TableInfo deltaTable(NamespacePath namespace, String name) {
    TableInfo info = table(namespace, name);
    if (!info.isDeltaTable()) {
      throw new CatalogAccessException(
          Code.NOT_FOUND,
          "no Delta table " + name + " in " + namespace + " (Unity reports " + info.tableType()
              + " " + info.dataSourceFormat() + ", which this provider does not expose)");
    }
    return info;
  }

  private TableInfo table(NamespacePath namespace, String name) {
    SchemaRef schema = schemaRef(namespace);
    return http.get(
        "tables/" + UnityHttp.segment(schema.fullName() + "." + name), Map.of(), TableInfo.class);
  }

  private List<SchemaInfo> schemas(String catalog) {
    return http.listAll(
        "schemas",
        Map.of("catalog_name", catalog),
        ListSchemasResponse.class,
        ListSchemasResponse::schemas,
        ListSchemasResponse::nextPageToken);
  }

  private List<TableInfo> tables(SchemaRef schema) {
    return http.listAll(
        "tables",
        Map.of("catalog_name", schema.catalog(), "schema_name", schema.schema()),
        ListTablesResponse.class,
        ListTablesResponse::tables,
        ListTablesResponse::nextPageToken);
  }

  /**
   * The Unity schema a namespace path names.
   *
   * @throws CatalogAccessException {@code NOT_FOUND} for a path of the wrong depth
   */
  private SchemaRef schemaRef(NamespacePath namespace) {
    List<String> s = namespace.segments();
    if (settings.catalog() != null && s.size() == 1) {
      return new SchemaRef(settings.catalog(), s.get(0));
    }
    if (settings.catalog() == null && s.size() == 2) {
      return new SchemaRef(s.get(0), s.get(1));
    }
    throw new CatalogAccessException(
        Code.NOT_FOUND,
        "namespace "
            + namespace
            + " is not a Unity schema (expected "
            + (settings.catalog() == null ? "[catalog, schema]" : "[schema]")
            + ")");
  }

  private void open() {
    if (closed.get()) {
      throw new CatalogAccessException(Code.CLOSED, "the Unity client is closed");
    }
  }
}
