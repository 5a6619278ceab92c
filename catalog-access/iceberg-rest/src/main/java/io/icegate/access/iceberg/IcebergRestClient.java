package io.icegate.access.iceberg;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.http.PolicyEnforcingRestClient;
import io.icegate.access.iceberg.http.UpstreamConfigFilter;
import io.icegate.access.iceberg.vending.CapturingFileIO;
import io.icegate.access.iceberg.vending.VendedCredentialSelection;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.ExternalIdentity;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.TableFormat;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewRepresentation;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.StorageAccessProbe;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.SortOrderParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SessionCatalog.SessionContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.HTTPClient;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTSessionCatalog;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.view.BaseView;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewVersion;

/**
 * A {@link CatalogClient} on iceberg-core's {@link RESTSessionCatalog}.
 *
 * <p>The REST session is created on first use, not on open, and re-created once when the catalog
 * answers 401 to an OAuth2 client-credentials session: iceberg-core refreshes tokens in the
 * background and gives up when the token endpoint fails at refresh time, so a session whose token
 * expired during a token-endpoint outage would otherwise stay broken after the endpoint recovers. A
 * failed re-creation leaves no session, so the next call tries again.
 */
final class IcebergRestClient implements CatalogClient {

  private final CatalogConnectionConfig config;
  private final Map<String, String> sessionProperties;
  private final OutboundAddressPolicy policy;
  private final CatalogCapabilities capabilities;
  private final StorageAccessProbe storage;
  private final int maxPages;
  private final Clock clock;
  private final UpstreamConfigFilter upstreamConfig;
  private final SessionContext context = SessionContext.createEmpty();
  private RESTSessionCatalog session; // guarded by this
  private boolean closed; // guarded by this

  IcebergRestClient(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      OutboundAddressPolicy policy,
      CatalogCapabilities capabilities,
      Clock clock) {
    this.config = config;
    this.sessionProperties = SessionProperties.of(config, credentials);
    this.policy = policy;
    this.capabilities = capabilities;
    this.storage = new StorageAccessProbe(SessionProperties.storageSettings(config), policy);
    this.maxPages = SessionProperties.maxPages(config);
    this.clock = clock;
    this.upstreamConfig = new UpstreamConfigFilter(config.endpoint().getHost());
    policy.resolve(config.endpoint().getHost()); // fail early on a refused endpoint
  }

  @Override
  public CatalogCapabilities capabilities() {
    return capabilities;
  }

  /** The {@code warehouse} sent to the catalog's {@code /v1/config}. */
  @Override
  public Optional<String> upstreamCatalogName() {
    return Optional.ofNullable(config.properties().get(SessionProperties.WAREHOUSE));
  }

  @Override
  public void validate() {
    call("namespace listing", catalog -> catalog.listNamespaces(context, Namespace.empty()));
  }

  @Override
  public List<NamespacePath> listNamespaces(NamespacePath parent) {
    List<Namespace> found =
        call("namespace listing", catalog -> catalog.listNamespaces(context, namespace(parent)));
    List<NamespacePath> paths = new ArrayList<>(found.size());
    for (Namespace namespace : found) {
      paths.add(new NamespacePath(List.of(namespace.levels())));
    }
    return paths;
  }

  @Override
  public List<CatalogObjectRef> listObjects(NamespacePath namespace, Set<CatalogObjectKind> kinds) {
    List<CatalogObjectRef> objects = new ArrayList<>();
    if (kinds.contains(CatalogObjectKind.TABLE)) {
      for (TableIdentifier id :
          call("table listing", catalog -> catalog.listTables(context, namespace(namespace)))) {
        objects.add(new CatalogObjectRef(CatalogObjectKind.TABLE, namespace, id.name()));
      }
    }
    if (kinds.contains(CatalogObjectKind.VIEW) && capabilities.supportsViews()) {
      for (TableIdentifier id :
          call("view listing", catalog -> catalog.listViews(context, namespace(namespace)))) {
        objects.add(new CatalogObjectRef(CatalogObjectKind.VIEW, namespace, id.name()));
      }
    }
    return objects;
  }

  @Override
  public UpstreamTable loadTable(NamespacePath namespace, String name) {
    return table(namespace, name, load(namespace, name));
  }

  @Override
  public LoadedTable loadTableWithMetadata(NamespacePath namespace, String name) {
    TableMetadata metadata = load(namespace, name);
    UpstreamTable table = table(namespace, name, metadata);
    return new LoadedTable(table, () -> full(metadata));
  }

  @Override
  public UpstreamTableMetadata loadTableMetadata(NamespacePath namespace, String name) {
    return full(load(namespace, name));
  }

  private TableMetadata load(NamespacePath namespace, String name) {
    Table table =
        call("table load", catalog -> catalog.loadTable(context, identifier(namespace, name)));
    return ((HasTableOperations) table).operations().current();
  }

  private static UpstreamTable table(
      NamespacePath namespace, String name, TableMetadata metadata) {
    return new UpstreamTable(
        namespace,
        name,
        TableFormat.ICEBERG,
        identity(metadata.uuid(), namespace, name),
        metadata.metadataFileLocation(),
        metadata.location(),
        SchemaParser.toJson(metadata.schema()),
        metadata.properties(),
        PartitionSpecParser.toJson(metadata.spec()),
        SortOrderParser.toJson(metadata.sortOrder()),
        metadata.formatVersion());
  }

  private static UpstreamTableMetadata full(TableMetadata metadata) {
    if (metadata.metadataFileLocation() == null) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, "the table load answered no metadata location");
    }
    return new UpstreamTableMetadata(
        metadata.metadataFileLocation(), TableMetadataParser.toJson(metadata));
  }

  /**
   * The table UUID as stable identity; a missing one (format v1 allows that) or one that is not a
   * UUID, which the spec does not allow but a lax catalog might write, falls back to the path.
   */
  private static ExternalIdentity identity(String uuid, NamespacePath namespace, String name) {
    if (uuid != null && !uuid.isEmpty()) {
      try {
        UUID.fromString(uuid);
        return ExternalIdentity.stable(uuid); // as written: the identity must not change form
      } catch (IllegalArgumentException e) {
        // not a UUID: the path is the only identity left
      }
    }
    return ExternalIdentity.fromPath(namespace, name);
  }

  @Override
  public UpstreamView loadView(NamespacePath namespace, String name) {
    View view =
        call("view load", catalog -> catalog.loadView(context, identifier(namespace, name)));
    ViewVersion version = view.currentVersion();
    List<ViewRepresentation> representations = new ArrayList<>();
    version.representations().stream()
        .filter(SQLViewRepresentation.class::isInstance)
        .map(SQLViewRepresentation.class::cast)
        .forEach(sql -> representations.add(new ViewRepresentation(sql.dialect(), sql.sql())));
    String uuid = view.uuid() == null ? null : view.uuid().toString();
    String metadataLocation =
        view instanceof BaseView base ? base.operations().current().metadataFileLocation() : null;
    return new UpstreamView(
        namespace,
        name,
        uuid == null ? ExternalIdentity.fromPath(namespace, name) : ExternalIdentity.stable(uuid),
        SchemaParser.toJson(view.schema()),
        representations,
        new NamespacePath(List.of(version.defaultNamespace().levels())),
        version.defaultCatalog(),
        metadataLocation,
        view.properties());
  }

  @Override
  public Optional<VendedStorageCredentials> vendStorageCredentials(
      NamespacePath namespace, String name) {
    // RESTSessionCatalog keeps no table cache, so this is a fresh load-table request every time
    Table table =
        call("table load", catalog -> catalog.loadTable(context, identifier(namespace, name)));
    List<VendedCredentialSelection.Offered> offered = new ArrayList<>();
    if (table.io() instanceof CapturingFileIO io) {
      io.credentials()
          .forEach(c -> offered.add(new VendedCredentialSelection.Offered(c.prefix(), c.config())));
    }
    return VendedCredentialSelection.select(offered, table.location(), clock.instant());
  }

  @Override
  public void validateStorageAccess(UpstreamTable table, VendedStorageCredentials credentials) {
    checkOpen();
    storage.readObject(
        table.metadataLocation(), "table metadata file", credentials, clock.instant());
  }

  private <T> T call(String operation, Function<RESTSessionCatalog, T> body) {
    RESTSessionCatalog catalog = session();
    try {
      return body.apply(catalog);
    } catch (RuntimeException e) {
      CatalogAccessException failure = UpstreamFailures.translate(operation, e);
      if (failure.code() != Code.AUTHENTICATION_FAILED || !renewableSession()) {
        throw failure;
      }
      discard(catalog);
      try {
        return body.apply(session());
      } catch (CatalogAccessException again) {
        throw again;
      } catch (RuntimeException again) {
        throw UpstreamFailures.translate(operation, again);
      }
    }
  }

  private boolean renewableSession() {
    return config.authentication().scheme() == CatalogAuthenticationScheme.OAUTH2
        && sessionProperties.containsKey("credential");
  }

  private synchronized RESTSessionCatalog session() {
    checkOpen();
    if (session == null) {
      URI base = config.endpoint();
      Function<Map<String, String>, RESTClient> clients =
          properties ->
              PolicyEnforcingRestClient.wrap(
                  HTTPClient.builder(properties)
                      .uri(properties.get("uri"))
                      .withHeaders(RESTUtil.configHeaders(properties))
                      .build(),
                  base,
                  policy,
                  maxPages,
                  upstreamConfig);
      RESTSessionCatalog created = new RESTSessionCatalog(clients, null);
      try {
        created.initialize("upstream", new java.util.HashMap<>(sessionProperties));
      } catch (RuntimeException e) {
        closeQuietly(created);
        throw UpstreamFailures.translateSetup(e);
      }
      session = created;
    }
    return session;
  }

  private synchronized void discard(RESTSessionCatalog stale) {
    if (session == stale) {
      session = null;
      closeQuietly(stale);
    }
  }

  private synchronized void checkOpen() {
    if (closed) {
      throw new CatalogAccessException(Code.CLOSED, "the catalog client is closed");
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (session != null) {
      closeQuietly(session);
      session = null;
    }
  }

  private static void closeQuietly(RESTSessionCatalog catalog) {
    try {
      catalog.close();
    } catch (IOException | RuntimeException e) {
      // closing releases connections only; nothing a caller could act on
    }
  }

  private static Namespace namespace(NamespacePath path) {
    return Namespace.of(path.segments().toArray(String[]::new));
  }

  private static TableIdentifier identifier(NamespacePath namespace, String name) {
    return TableIdentifier.of(namespace(namespace), name);
  }

  @Override
  public String toString() {
    return "IcebergRestClient[" + config + "]";
  }
}
