package io.icegate.gateway;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.auth.CachingAuthenticator;
import io.icegate.gateway.catalog.CatalogDirectory;
import io.icegate.gateway.catalog.MetadataCache;
import io.icegate.gateway.iceberg.ConfigRoute;
import io.icegate.gateway.iceberg.IcebergOperations;
import io.icegate.gateway.iceberg.IcebergRestServlet;
import io.icegate.gateway.iceberg.IdempotentReplies;
import io.icegate.gateway.iceberg.TableLoads;
import io.icegate.gateway.network.OutboundAddressCheck;
import io.icegate.gateway.ops.ChunkCollection;
import io.icegate.gateway.ops.RouteMetrics;
import io.icegate.gateway.server.DataDirLock;
import io.icegate.gateway.server.HttpServer;
import io.icegate.gateway.server.HttpSettings;
import io.icegate.gateway.server.StoreLocation;
import io.icegate.gateway.vending.AssumeRoleVending;
import io.icegate.gateway.vending.ManagedTableCredentials;
import io.icegate.gateway.vending.NativeCredentialSource;
import io.icegate.gateway.vending.TableCredentials;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.capture.CaptureChunkCollector;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running gateway: the store, the bootstrap, the Iceberg REST servlet and the HTTP server,
 * wired together. {@code icegate serve} and the tests start it the same way.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final DataDirLock lock;
  private final KvStore store;
  private final HttpServer server;
  private final AssumeRoleVending assumeRole;
  private final ChunkCollection chunkCollection;

  private Gateway(DataDirLock lock, KvStore store, HttpServer server,
      AssumeRoleVending assumeRole, ChunkCollection chunkCollection) {
    this.lock = lock;
    this.store = store;
    this.server = server;
    this.assumeRole = assumeRole;
    this.chunkCollection = chunkCollection;
  }

  /**
   * Opens the store, bootstraps it when empty, and starts serving.
   *
   * @param out where the generated bootstrap token is printed (once)
   * @throws DataDirLock.InUseException when another server holds the data dir
   * @throws Exception when the store cannot be opened or the port cannot be bound
   */
  public static Gateway start(GatewaySettings settings, PrintStream out) throws Exception {
    DataDirLock lock = DataDirLock.acquire(settings.dataDir());
    KvStore store;
    try {
      store = StoreLocation.open(settings.store(), settings.dataDir());
    } catch (Exception | Error e) {
      lock.close();
      throw e;
    }
    return start(settings, StoreLocation.resolve(settings.store(), settings.dataDir()), lock,
        store, out);
  }

  /**
   * As {@link #start(GatewaySettings, PrintStream)} on an already open store (embedding, tests
   * with a fault-injecting store); {@code settings.store()} is ignored. The gateway owns the store
   * from then on and closes it. The data dir is locked all the same.
   */
  public static Gateway start(GatewaySettings settings, KvStore store, PrintStream out)
      throws Exception {
    DataDirLock lock;
    try {
      lock = DataDirLock.acquire(settings.dataDir());
    } catch (Exception | Error e) {
      store.close();
      throw e;
    }
    return start(settings, "embedded " + store.getClass().getSimpleName(), lock, store, out);
  }

  private static Gateway start(GatewaySettings settings, String storeName, DataDirLock lock,
      KvStore store, PrintStream out) throws Exception {
    try {
      Clock clock = Clock.systemUTC();
      Repositories repositories = OverlayStore.repositories(store, clock);
      ApiTokens tokens = new ApiTokens(store);
      Bootstrap.ensure(repositories, tokens, settings.dataDir(), settings.bootstrapToken(), out);

      IdempotencySettings idempotency = IdempotencySettings.DEFAULT;
      io.icegate.core.credential.CredentialStore credentials =
          new io.icegate.core.credential.CredentialStore(store, masterKey(settings), clock);
      io.icegate.gateway.fileio.CatalogFileIO.StorageSecrets storageSecrets =
          (id, generation) -> credentials.read(id, generation).map(v -> v.get("secretAccessKey"));
      AssumeRoleVending assumeRole = new AssumeRoleVending(storageSecrets, clock);
      CatalogDirectory directory = new CatalogDirectory(repositories, new MetadataCache(10_000),
          new io.icegate.gateway.fileio.CatalogFileIO(storageSecrets));
      IcebergOperations operations = new IcebergOperations(directory,
          new ConfigRoute(directory, tokens, idempotency.receiptLifetime()),
          new TableLoads(256L * 1024 * 1024),
          new IdempotentReplies(store, idempotency, clock),
          new TableCredentials(new NativeCredentialSource(storageSecrets, assumeRole),
              managedTableCredentials(repositories, credentials, clock,
                  settings.outboundPolicy())));
      RouteMetrics metrics = new RouteMetrics();
      CachingAuthenticator authenticator =
          new CachingAuthenticator(tokens, Duration.ofSeconds(10), 100_000);
      HttpSettings http = new HttpSettings(
          settings.bind(), settings.port(), HttpSettings.DEFAULT_MAX_REQUEST_BYTES);
      IcebergRestServlet servlet = new IcebergRestServlet(
          operations, authenticator, metrics, http.maxRequestBytes());
      io.icegate.admin.AdminServlet admin = adminServlet(credentials, repositories, tokens,
          clock, idempotency, http.maxRequestBytes(), settings.outboundPolicy(),
          authenticator.accountCleanup(), settings.allowLocalFiles());
      HttpServer server = HttpServer.start(http, store, servlet, admin, metrics);
      // The resolved values (bound port, store path), not the flags: port 0 and a default store
      // say nothing. Neither the token nor any credential is part of the line.
      LOG.info("gateway started: bind={}, port={}, store={}, dataDir={}, allowLocalFiles={}, "
          + "outboundPolicy={}", settings.bind(), server.port(), storeName, settings.dataDir(),
          settings.allowLocalFiles(), settings.outboundPolicy());
      ChunkCollection chunkCollection = ChunkCollection.start(
          new CaptureChunkCollector(store, clock, ChunkCollection.GRACE), ChunkCollection.CADENCE);
      return new Gateway(lock, store, server, assumeRole, chunkCollection);
    } catch (Exception | Error e) {
      store.close();
      lock.close();
      throw e;
    }
  }

  /**
   * The CredentialStore's master key: {@code ICEGATE_MASTER_KEY}, else the file named by {@code
   * ICEGATE_MASTER_KEY_FILE}, else (SQLite only) a key file generated under the data dir; with
   * FoundationDB a configured key is required and startup fails without one.
   */
  private static io.icegate.core.credential.MasterKey masterKey(GatewaySettings settings)
      throws java.io.IOException {
    boolean shared = settings.store() != null && settings.store().startsWith("fdb:");
    String keyFile = System.getenv("ICEGATE_MASTER_KEY_FILE");
    return io.icegate.core.credential.MasterKey.load(
        System.getenv(io.icegate.core.credential.MasterKey.ENV),
        keyFile == null ? null : java.nio.file.Path.of(keyFile), settings.dataDir(),
        shared ? io.icegate.core.credential.MasterKey.Generation.FORBIDDEN
            : io.icegate.core.credential.MasterKey.Generation.ALLOWED);
  }

  /**
   * Storage credentials of managed tables: what their upstream vends through their Integration,
   * under the same outbound address policy as every other upstream call.
   */
  private static ManagedTableCredentials managedTableCredentials(Repositories repositories,
      io.icegate.core.credential.CredentialStore credentials, Clock clock,
      io.icegate.access.network.OutboundAddressPolicy addressPolicy) {
    return new ManagedTableCredentials(
        new io.icegate.overlay.adapter.IntegrationAdapter(repositories, credentials),
        new io.icegate.overlay.adapter.IntegrationClients(
            io.icegate.access.client.CatalogClientFactory.load(Gateway.class.getClassLoader()),
            addressPolicy),
        clock, 10_000);
  }

  /** The admin API over the core services. */
  private static io.icegate.admin.AdminServlet adminServlet(
      io.icegate.core.credential.CredentialStore credentials, Repositories repositories,
      ApiTokens tokens, Clock clock, IdempotencySettings idempotency, long maxBodyBytes,
      io.icegate.access.network.OutboundAddressPolicy addressPolicy,
      io.icegate.core.durability.CleanupStep forgetTokens, boolean allowLocalFiles) {
    io.icegate.core.durability.IdempotentCreates creates =
        new io.icegate.core.durability.IdempotentCreates(repositories, clock, idempotency);
    io.icegate.core.credential.CredentialedWrites writes =
        new io.icegate.core.credential.CredentialedWrites(
            new io.icegate.core.credential.CredentialPublication(credentials), creates);
    io.icegate.core.overlay.ContributionRetirement retirement =
        new io.icegate.overlay.reconcile.OverlayContributions(repositories,
            io.icegate.overlay.reconcile.ReconcileSettings.DEFAULT.batch());
    io.icegate.core.overlay.OverlayService overlays =
        new io.icegate.core.overlay.OverlayService(repositories, creates, retirement);
    io.icegate.core.durability.AccountDeletion deletion =
        new io.icegate.core.durability.AccountDeletion(repositories, clock,
            io.icegate.core.durability.AccountDeletion.DEFAULT_BATCH_KEYS,
            java.util.List.of(overlays.accountCleanup(), credentials.accountCleanup(),
                forgetTokens));
    io.icegate.admin.AdminOperations operations = new io.icegate.admin.AdminOperations(
        new io.icegate.core.account.AccountService(repositories, creates, tokens, deletion),
        new io.icegate.core.catalog.CatalogService(repositories, writes, credentials),
        new io.icegate.core.integration.IntegrationService(
            repositories, writes, credentials, new OutboundAddressCheck(addressPolicy),
            new io.icegate.gateway.integration.ProviderSettingsCheck(
                io.icegate.access.client.CatalogClientFactory.load(
                    Gateway.class.getClassLoader()))),
        upstreamOperations(repositories.store(), repositories, credentials, clock,
            addressPolicy),
        overlays,
        new io.icegate.core.overlay.IntegrationCascade(repositories, overlays, retirement,
            credentials),
        reconcileRoutes(repositories, credentials, clock, addressPolicy, allowLocalFiles),
        tableRoutes(repositories, credentials, overlays, addressPolicy, allowLocalFiles));
    return new io.icegate.admin.AdminServlet(operations, tokens::resolve, (int) maxBodyBytes);
  }

  /**
   * Validation, capabilities and discovery of integrations (overlay-engine) over the providers
   * registered on the gateway's class path, under the same outbound address policy as the
   * Integration write-time check (every provider applies it again after DNS resolution).
   */
  private static io.icegate.admin.UpstreamOperations upstreamOperations(KvStore store,
      Repositories repositories, io.icegate.core.credential.CredentialStore credentials,
      Clock clock, io.icegate.access.network.OutboundAddressPolicy addressPolicy) {
    io.icegate.overlay.adapter.IntegrationAdapter adapter =
        new io.icegate.overlay.adapter.IntegrationAdapter(repositories, credentials);
    io.icegate.overlay.adapter.IntegrationClients clients =
        new io.icegate.overlay.adapter.IntegrationClients(
            io.icegate.access.client.CatalogClientFactory.load(Gateway.class.getClassLoader()),
            addressPolicy);
    return new io.icegate.admin.UpstreamOperations(
        new io.icegate.overlay.validation.IntegrationValidator(adapter, clients, clock, 100),
        new io.icegate.overlay.discovery.IntegrationDiscovery(adapter, clients,
            io.icegate.core.paging.PageTokens.load(store)));
  }

  /**
   * Overlay reconciliation (overlay-engine): default settings, upstream concurrency from {@code
   * ICEGATE_RECONCILE_CONCURRENCY} (8 when unset); asynchronous operations on two daemon threads.
   */
  private static io.icegate.admin.ReconcileRoutes reconcileRoutes(Repositories repositories,
      io.icegate.core.credential.CredentialStore credentials, Clock clock,
      io.icegate.access.network.OutboundAddressPolicy addressPolicy, boolean allowLocalFiles) {
    io.icegate.overlay.adapter.IntegrationAdapter adapter =
        new io.icegate.overlay.adapter.IntegrationAdapter(repositories, credentials);
    io.icegate.overlay.adapter.IntegrationClients clients =
        new io.icegate.overlay.adapter.IntegrationClients(
            io.icegate.access.client.CatalogClientFactory.load(Gateway.class.getClassLoader()),
            addressPolicy);
    io.icegate.overlay.reconcile.ReconcileSettings settings =
        io.icegate.overlay.reconcile.ReconcileSettings.withConcurrency(System.getenv(
            io.icegate.overlay.reconcile.ReconcileSettings.CONCURRENCY_ENV))
            .withAllowLocalFiles(allowLocalFiles);
    io.icegate.overlay.reconcile.Reconciler reconciler =
        new io.icegate.overlay.reconcile.Reconciler(repositories, adapter, clients, settings,
            io.icegate.overlay.reconcile.ReconcileHook.NONE);
    return new io.icegate.admin.ReconcileRoutes(
        new io.icegate.overlay.reconcile.ReconcileOperations(reconciler,
            new io.icegate.core.overlay.OperationRecords(repositories.store()), clock, 2),
        new io.icegate.overlay.reconcile.OverlayCapture(reconciler, repositories, adapter,
            clients, settings));
  }

  /**
   * Tables' capture, validation and visibility routes, revalidating with the same outbound
   * address policy and {@code --allow-local-files} as reconciliation.
   */
  private static io.icegate.admin.TableRoutes tableRoutes(Repositories repositories,
      io.icegate.core.credential.CredentialStore credentials,
      io.icegate.core.overlay.OverlayService overlays,
      io.icegate.access.network.OutboundAddressPolicy addressPolicy, boolean allowLocalFiles) {
    io.icegate.overlay.adapter.IntegrationAdapter adapter =
        new io.icegate.overlay.adapter.IntegrationAdapter(repositories, credentials);
    io.icegate.overlay.adapter.IntegrationClients clients =
        new io.icegate.overlay.adapter.IntegrationClients(
            io.icegate.access.client.CatalogClientFactory.load(Gateway.class.getClassLoader()),
            addressPolicy);
    return new io.icegate.admin.TableRoutes(repositories,
        new io.icegate.overlay.tablevalidation.TableRevalidation(repositories, adapter, clients,
            overlays, new io.icegate.overlay.tablevalidation.TableValidator(repositories,
                addressPolicy, allowLocalFiles,
                io.icegate.overlay.reconcile.ReconcileSettings.DEFAULT.concurrency())));
  }

  /** The store the gateway runs on, for embedding (admin tooling, tests). */
  public KvStore store() {
    return store;
  }

  /** The bound HTTP port. */
  public int port() {
    return server.port();
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** Stops the server, then closes the store. Idempotent. */
  @Override
  public void close() {
    try {
      server.close();
    } catch (Exception e) {
      LOG.warn("stopping the HTTP server failed", e);
    } finally {
      chunkCollection.close();
      assumeRole.close();
      store.close();
      lock.close();
    }
  }

}
