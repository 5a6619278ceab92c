package io.icegate.gateway;

import io.icegate.core.assembly.CoreSettings;
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
import io.icegate.gateway.ops.RefreshMetrics;
import io.icegate.gateway.ops.RouteMetrics;
import io.icegate.gateway.server.DataDirLock;
import io.icegate.gateway.server.HttpServer;
import io.icegate.gateway.server.HttpSettings;
import io.icegate.gateway.server.ListeningPort;
import io.icegate.gateway.server.StoreLocation;
import io.icegate.gateway.vending.AssumeRoleVending;
import io.icegate.gateway.vending.ManagedTableCredentials;
import io.icegate.gateway.vending.NativeCredentialSource;
import io.icegate.gateway.vending.TableCredentials;
import io.icegate.overlay.assembly.ServiceSettings;
import io.icegate.overlay.assembly.Services;
import io.icegate.overlay.generated.GeneratedFilesCollector;
import io.icegate.overlay.jobs.RefreshScheduler;
import io.icegate.overlay.store.capture.CaptureChunkCollector;
import java.io.PrintStream;
import java.nio.channels.ServerSocketChannel;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running gateway: the store, the bootstrap, the Iceberg REST servlet and the HTTP server,
 * wired together over the one service graph ({@link Services}, configured from {@link
 * GatewaySettings} alone), and the process's refresh scheduler (issue 28; several gateways over
 * one store share the work through job leases). {@code icegate serve} and the tests start it the same way.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final DataDirLock lock;
  private final KvStore store;
  private final HttpServer server;
  private final AssumeRoleVending assumeRole;
  private final ChunkCollection chunkCollection;
  private final RefreshScheduler scheduler;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  private Gateway(DataDirLock lock, KvStore store, HttpServer server,
      AssumeRoleVending assumeRole, ChunkCollection chunkCollection, RefreshScheduler scheduler) {
    this.scheduler = scheduler;
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
   * @throws ListeningPort.UnavailableException when the port is in use or the address cannot be
   *     bound (checked first: nothing is created then)
   * @throws DataDirLock.InUseException when another server holds the data dir
   * @throws Exception when the store cannot be opened
   */
  public static Gateway start(GatewaySettings settings, PrintStream out) throws Exception {
    ServerSocketChannel listening = ListeningPort.bind(settings.bind(), settings.port());
    DataDirLock lock;
    KvStore store;
    try {
      lock = DataDirLock.acquire(settings.dataDir());
      try {
        store = StoreLocation.open(settings.store(), settings.dataDir());
      } catch (Exception | Error e) {
        lock.close();
        throw e;
      }
    } catch (Exception | Error e) {
      listening.close();
      throw e;
    }
    return start(settings, StoreLocation.resolve(settings.store(), settings.dataDir()), listening,
        lock, store, out);
  }

  /**
   * As {@link #start(GatewaySettings, PrintStream)} on an already open store (embedding, tests
   * with a fault-injecting store); {@code settings.store()} is ignored. The gateway owns the store
   * from then on and closes it. The data dir is locked all the same.
   */
  public static Gateway start(GatewaySettings settings, KvStore store, PrintStream out)
      throws Exception {
    ServerSocketChannel listening;
    DataDirLock lock;
    try {
      listening = ListeningPort.bind(settings.bind(), settings.port());
      try {
        lock = DataDirLock.acquire(settings.dataDir());
      } catch (Exception | Error e) {
        listening.close();
        throw e;
      }
    } catch (Exception | Error e) {
      store.close();
      throw e;
    }
    return start(settings, "embedded " + store.getClass().getSimpleName(), listening, lock, store,
        out);
  }

  private static Gateway start(GatewaySettings settings, String storeName,
      ServerSocketChannel listening, DataDirLock lock, KvStore store, PrintStream out)
      throws Exception {
    try {
      Clock clock = Clock.systemUTC();
      IdempotencySettings idempotency = IdempotencySettings.DEFAULT;
      // Delta capture writes generated files with the Catalogs' own FileIOs, which read their
      // keys from the services' credential store: set once the services exist
      java.util.concurrent.atomic.AtomicReference<io.icegate.gateway.fileio.CatalogFileIO>
          catalogFiles = new java.util.concurrent.atomic.AtomicReference<>();
      Services services = new Services(store, clock,
          serviceSettings(settings, store, storeName, idempotency)
              .withCatalogFiles(catalog -> catalogFiles.get().forCatalog(catalog)));
      Repositories repositories = services.repositories();
      ApiTokens tokens = services.core().tokens();
      Bootstrap.ensure(repositories, tokens, settings.dataDir(), settings.bootstrapToken(), out);
      // Catalogs stored before warehouse claims (and the bootstrap's own) get theirs before any
      // request can create a Catalog of another account over them.
      new io.icegate.core.catalog.WarehouseClaimBackfill(repositories).run();

      io.icegate.core.credential.CredentialStore credentials = services.credentials();
      io.icegate.gateway.fileio.CatalogFileIO.StorageSecrets storageSecrets =
          (id, generation) -> credentials.read(id, generation).map(v -> v.get("secretAccessKey"));
      AssumeRoleVending assumeRole = new AssumeRoleVending(storageSecrets, clock);
      catalogFiles.set(new io.icegate.gateway.fileio.CatalogFileIO(storageSecrets));
      CatalogDirectory directory = new CatalogDirectory(repositories, new MetadataCache(10_000),
          catalogFiles.get());
      IcebergOperations operations = new IcebergOperations(directory,
          new ConfigRoute(directory, tokens, idempotency.receiptLifetime()),
          new TableLoads(256L * 1024 * 1024),
          new IdempotentReplies(store, idempotency, clock),
          new TableCredentials(new NativeCredentialSource(storageSecrets, assumeRole),
              new ManagedTableCredentials(services.adapter(), services.clients(), clock, 10_000)));
      RouteMetrics metrics = new RouteMetrics();
      CachingAuthenticator authenticator =
          new CachingAuthenticator(tokens, CachingAuthenticator.REVOCATION_BOUND, 100_000);
      HttpSettings http = new HttpSettings(
          settings.bind(), settings.port(), HttpSettings.DEFAULT_MAX_REQUEST_BYTES);
      IcebergRestServlet servlet = new IcebergRestServlet(
          operations, authenticator, http.maxRequestBytes());
      io.icegate.admin.AdminServlet admin = io.icegate.admin.AdminApi.servlet(
          services, authenticator.accountCleanup(), http.maxRequestBytes(),
          settings.maxTokenLifetime(), settings.minRefreshInterval());
      HttpServer server = HttpServer.start(http, listening, store, services.core().readiness(),
          servlet, admin, metrics);
      // The resolved values (bound port, store path), not the flags: port 0 and a default store
      // say nothing. Neither the token nor any credential is part of the line.
      LOG.info("gateway started: bind={}, port={}, store={}, dataDir={}, allowLocalFiles={}, "
          + "outboundPolicy={}", settings.bind(), server.port(), storeName, settings.dataDir(),
          settings.allowLocalFiles(), settings.outboundPolicy());
      ChunkCollection chunkCollection = ChunkCollection.start(
          new CaptureChunkCollector(store, clock, ChunkCollection.GRACE),
          new GeneratedFilesCollector(repositories, credentials, catalogFiles.get()::forCatalog,
              clock,
              ChunkCollection.GRACE),
          ChunkCollection.CADENCE);
      RefreshScheduler scheduler = services.refreshScheduler(settings.minRefreshInterval());
      metrics.addSection(new RefreshMetrics(scheduler.metrics(),
          services.schedules(settings.minRefreshInterval())));
      return new Gateway(lock, store, server, assumeRole, chunkCollection, scheduler);
    } catch (Exception | Error e) {
      store.close();
      lock.close();
      listening.close(); // a no-op once the server took it and closed it
      throw e;
    }
  }

  /**
   * The services' configuration from the gateway's: the master key ({@link
   * GatewaySettings#masterKey()}; with FoundationDB a configured key is required, only SQLite may
   * generate one under the data dir, and on either a key the store's secrets were not written with
   * is refused: {@link io.icegate.core.credential.MasterKeyCheck}), the outbound address policy both for Integration writes and
   * for upstream clients, the providers on the gateway's class path (each Integration's properties
   * checked by its provider), and reconciliation's settings with {@code --allow-local-files}.
   */
  private static ServiceSettings serviceSettings(GatewaySettings settings, KvStore store,
      String storeName, IdempotencySettings idempotency) throws java.io.IOException {
    boolean shared = settings.store() != null && settings.store().startsWith("fdb:");
    io.icegate.core.credential.MasterKey masterKey = settings.masterKey().load(
        store, storeName, settings.dataDir(),
        shared ? io.icegate.core.credential.MasterKey.Generation.FORBIDDEN
            : io.icegate.core.credential.MasterKey.Generation.ALLOWED);
    io.icegate.access.client.CatalogClientFactory providers =
        io.icegate.access.client.CatalogClientFactory.load(Gateway.class.getClassLoader());
    return new ServiceSettings(
        new CoreSettings(masterKey, idempotency,
            new OutboundAddressCheck(settings.outboundPolicy()),
            new io.icegate.gateway.integration.ProviderSettingsCheck(providers)),
        providers, settings.outboundPolicy(),
        settings.reconcile().withAllowLocalFiles(settings.allowLocalFiles()));
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

  /**
   * Stops the server, then closes the store, and logs one "gateway stopped" line (what an operator
   * looks for after a SIGTERM: `serve`'s shutdown hook calls this). Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    int port = server.port();
    // The scheduler first: its rounds in flight stop before the store closes under them.
    scheduler.close();
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
    LOG.info("gateway stopped: port={}, HTTP server stopped and store closed", port);
  }

}
