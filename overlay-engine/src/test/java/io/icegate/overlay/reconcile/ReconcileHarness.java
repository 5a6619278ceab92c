package io.icegate.overlay.reconcile;

import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.unity.UnitySettings;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.overlay.IntegrationCascade;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.assembly.ServiceSettings;
import io.icegate.overlay.assembly.Services;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The real services ({@link Services}, as the server assembles them) and the reconciler over one
 * store, for reconcile scenarios against the
 * upstream Iceberg REST fixture over HTTP on loopback. Public for the other packages' tests that
 * need an account with Integrations (validation).
 */
public final class ReconcileHarness {
  /**
   * The services' configuration: a fixed master key, no write-time address check (the fixtures
   * are on loopback) and contributions retired 50 per transaction; each scenario's reconciler has
   * its own settings ({@link #reconciler(ReconcileHook, Duration)}).
   */
  private static final ServiceSettings SETTINGS = ServiceSettings.embedded(
      MasterKey.of(new byte[32]), new ReconcileSettings(4, 50, Duration.ofMinutes(10)));

  final Services services;
  final KvStore store;
  final Repositories repos;
  public final IntegrationService integrations;
  final OverlayService overlays;
  final IntegrationCascade cascade;
  final AccountDeletion accountDeletion;
  public final IntegrationAdapter adapter;
  public final IntegrationClients clients;
  public final String account;

  public ReconcileHarness(KvStore store, Clock clock) {
    this(new Services(store, clock, SETTINGS));
  }

  /** A harness whose Delta captures write generated files through {@code catalogFiles}. */
  public ReconcileHarness(KvStore store, Clock clock,
      io.icegate.overlay.generated.CatalogFiles catalogFiles) {
    this(new Services(store, clock, SETTINGS.withCatalogFiles(catalogFiles)));
  }

  /** A harness whose reconcilers open upstream clients through {@code clients}. */
  public ReconcileHarness(KvStore store, Clock clock, IntegrationClients clients) {
    this(new Services(store, clock, SETTINGS, clients));
  }

  private ReconcileHarness(Services services) {
    this(services, null);
  }

  /**
   * Another instance of the services over {@code store} (the same store, or another handle on its
   * file) acting for this harness's account: a second gateway sharing the store. Nothing but the
   * store is shared (no in-process state).
   */
  public ReconcileHarness another(KvStore store) {
    return new ReconcileHarness(new Services(store, repos.clock(), SETTINGS), account);
  }

  private ReconcileHarness(Services services, String existingAccount) {
    this.services = services;
    this.store = services.store();
    this.repos = services.repositories();
    integrations = services.integrations();
    overlays = services.overlays();
    cascade = services.cascade();
    accountDeletion = services.accountDeletion(List.of());
    adapter = services.adapter();
    this.clients = services.clients();
    account = existingAccount != null ? existingAccount
        : repos.accounts().create(new Account("acme"), OnConflict.ERROR).resource().id();
  }

  /**
   * A fresh store of {@code kind}: {@code memory} (the in-memory engine with real FDB-style
   * conflicts) or {@code sqlite} (a file in {@code dir}).
   */
  static KvStore openStore(String kind, java.nio.file.Path dir) {
    return switch (kind) {
      case "memory" -> new io.icegate.core.store.engine.EngineKvStore(
          io.icegate.core.store.memory.InMemoryEngine.create());
      case "sqlite" -> io.icegate.storage.sqlite.SqliteKvStore.open(dir.resolve("icegate.db"));
      default -> throw new IllegalArgumentException("no store kind " + kind);
    };
  }

  /**
   * Creates table {@code name} (ORDERS schema) in {@code upstream}'s backing catalog, with each
   * missing level of {@code namespace} (dot-separated); {@code name} null creates only those.
   */
  static void upstreamTable(IcebergRestFixture upstream, String namespace, String name) {
    org.apache.iceberg.jdbc.JdbcCatalog c = upstream.backingCatalog();
    org.apache.iceberg.catalog.Namespace ns =
        org.apache.iceberg.catalog.Namespace.of(namespace.split("\\."));
    for (int i = 1; i <= ns.length(); i++) {
      org.apache.iceberg.catalog.Namespace level =
          org.apache.iceberg.catalog.Namespace.of(java.util.Arrays.copyOf(ns.levels(), i));
      if (!c.namespaceExists(level)) {
        c.createNamespace(level);
      }
    }
    if (name != null) {
      c.createTable(org.apache.iceberg.catalog.TableIdentifier.of(ns, name),
          IcebergRestFixture.ORDERS_SCHEMA);
    }
  }

  Reconciler reconciler(ReconcileHook hook) {
    return reconciler(hook, Duration.ofMinutes(10));
  }

  Reconciler reconciler(ReconcileHook hook, Duration lease) {
    return services.reconciler(new ReconcileSettings(4, 2, lease), hook);
  }

  ReconcileReport reconcile(String overlayId) {
    return reconciler(ReconcileHook.NONE).reconcile(account, overlayId);
  }

  String integration(String name, IcebergRestFixture upstream) {
    return integration(name, upstream.uri().toString());
  }

  /** An Iceberg REST Integration with a bearer token, at {@code uri}. */
  String integration(String name, String uri) {
    Integration spec = new Integration(name, IntegrationType.ICEBERG_REST, uri, Map.of(),
        new IntegrationAuthentication.Bearer(), 0);
    return integrations.create(account, spec, new SecretValues(Map.of("token", "t-" + name)),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  /**
   * A Unity Integration with OAuth client credentials against {@code unity}, its Delta logs read
   * from {@code objects}, selecting Unity catalog {@code unityCatalog}.
   */
  String unityIntegration(String name, UnityCatalogFixture unity, ObjectStoreFixture objects,
      String unityCatalog) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(UnitySettings.CATALOG, unityCatalog);
    properties.put(UnitySettings.S3_ENDPOINT, objects.endpoint().toString());
    properties.put(UnitySettings.S3_REGION, ObjectStoreFixture.REGION);
    properties.put(UnitySettings.S3_PATH_STYLE_ACCESS, "true");
    Integration spec = new Integration(name, IntegrationType.UNITY, unity.uri().toString(),
        properties, new IntegrationAuthentication.OAuth2ClientCredentials(null,
            UnityCatalogFixture.CLIENT_ID, null), 0);
    return integrations.create(account, spec,
        new SecretValues(Map.of("clientSecret", UnityCatalogFixture.CLIENT_SECRET)),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  /**
   * A Delta Sharing Integration with a recipient token {@code sharing} issues, its Delta logs read
   * from {@code objects}.
   */
  String sharingIntegration(String name, DeltaSharingFixture sharing, ObjectStoreFixture objects) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("s3.endpoint", objects.endpoint().toString());
    properties.put("s3.path-style-access", "true");
    Integration spec = new Integration(name, IntegrationType.DELTA_SHARING,
        sharing.endpoint().toString(), properties, new IntegrationAuthentication.Bearer(), 0);
    return integrations.create(account, spec,
        new SecretValues(Map.of("token", sharing.issueToken())),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  String catalog(String name) {
    return repos.catalogs(account).create(new Catalog(name, "file:///tmp/" + name, Map.of()))
        .id();
  }

  String overlay(String name, String integrationId, String catalogId, List<List<String>> include) {
    return overlays.create(account, new CatalogOverlay(name, integrationId, catalogId, include,
        List.of()), new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  /** Creates a local namespace path (each missing level) and returns the leaf's id. */
  String localNamespace(String catalogId, List<String> path) {
    String id = null;
    for (int depth = 1; depth <= path.size(); depth++) {
      List<String> prefix = path.subList(0, depth);
      Optional<Resource<Namespace>> ns = repos.namespaces(account).getByName(
          NameScope.inCatalog(catalogId, prefix.subList(0, depth - 1)), prefix.get(depth - 1));
      id = ns.isPresent() ? ns.get().id()
          : repos.namespaces(account).create(new Namespace(catalogId, prefix, Map.of())).id();
    }
    return id;
  }

  String localTable(String catalogId, List<String> namespace, String name) {
    localNamespace(catalogId, namespace);
    return repos.tables(account).create(new Table(catalogId, namespace, name,
        "file:///tmp/local/" + name + "/metadata.json", Map.of())).id();
  }

  /** Every Table and View of {@code catalogId}: "ns.name" to its resource. */
  Map<String, Resource<?>> relations(String catalogId) {
    return relations(repos, account, catalogId);
  }

  /** Every Table and View of {@code catalogId} in {@code account}: "ns.name" to its resource. */
  static Map<String, Resource<?>> relations(Repositories repos, String account, String catalogId) {
    Map<String, Resource<?>> out = new TreeMap<>();
    repos.store().read(tx -> {
      for (var kind : List.of(io.icegate.core.model.ResourceKind.TABLE,
          io.icegate.core.model.ResourceKind.VIEW)) {
        var range = io.icegate.core.store.KeyLayout.resources(account, kind).range();
        for (var kv : tx.getRange(range.begin, range.end)) {
          Resource<?> r = kind == io.icegate.core.model.ResourceKind.TABLE
              ? repos.tables(account).codec().read(kv.value())
              : repos.views(account).codec().read(kv.value());
          NameScope.InCatalog scope = (NameScope.InCatalog) r.spec().nameScope();
          if (scope.catalogId().equals(catalogId)) {
            out.put(String.join(".", scope.path()) + "." + r.name(), r);
          }
        }
      }
      return null;
    });
    return out;
  }

  /** Every namespace path of {@code catalogId}, dotted. */
  List<String> namespaces(String catalogId) {
    List<String> out = new ArrayList<>();
    store.read(tx -> {
      var range = io.icegate.core.store.KeyLayout
          .resources(account, io.icegate.core.model.ResourceKind.NAMESPACE).range();
      for (var kv : tx.getRange(range.begin, range.end)) {
        Namespace ns = repos.namespaces(account).codec().read(kv.value()).spec();
        if (ns.catalogId().equals(catalogId)) {
          out.add(String.join(".", ns.path()));
        }
      }
      return null;
    });
    out.sort(null);
    return out;
  }

  /** Every key and value of the store, hex-encoded (comparable with equals). */
  Map<String, String> content() {
    Map<String, String> out = new TreeMap<>();
    java.util.HexFormat hex = java.util.HexFormat.of();
    store.read(tx -> {
      for (var kv : tx.getRange(new byte[] {0x00}, new byte[] {(byte) 0xff})) {
        out.put(hex.formatHex(kv.key()), hex.formatHex(kv.value()));
      }
      return null;
    });
    return out;
  }

  /** The run record of {@code overlayId}, if a run wrote one. */
  Optional<io.icegate.core.overlay.ReconcileRuns.Run> runRecord(String overlayId) {
    var runs = new io.icegate.core.overlay.ReconcileRuns(store, Clock.systemUTC(),
        Duration.ofMinutes(10));
    return store.read(tx -> runs.read(tx, account, overlayId));
  }

  /** The overlay managing {@code relation}, or null for a local one. */
  static String managedBy(Resource<?> relation) {
    var p = ManagedRelations.provenanceOf(relation);
    return p == null ? null : p.overlayId();
  }
}
