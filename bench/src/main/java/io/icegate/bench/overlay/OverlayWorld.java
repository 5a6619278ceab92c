package io.icegate.bench.overlay;

import io.icegate.access.client.CatalogClient;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.assembly.ServiceSettings;
import io.icegate.overlay.assembly.Services;
import io.icegate.overlay.reconcile.ReconcileHook;
import io.icegate.overlay.reconcile.ReconcileReport;
import io.icegate.overlay.reconcile.ReconcileSettings;
import io.icegate.overlay.reconcile.Reconciler;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * One fresh icegate world for {@link ReconcileComparison}: the default store (a SQLite file), the
 * real services as the server assembles them ({@link Services}) and {@link Reconciler}, an account with a bearer Integration on the upstream,
 * an empty Catalog and an Overlay selecting the whole upstream tree into it.
 */
final class OverlayWorld implements AutoCloseable {
  private final Path file;
  private final KvStore store;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final Reconciler reconciler;
  private final String account;
  private final String integration;
  private final String overlay;

  /**
   * Creates the store at {@code file} (which must not exist) and the resources.
   *
   * @param settings the reconciler's settings; {@link BareDiscovery} uses the same concurrency
   * @param hook called between the reconciler's phases (timing)
   */
  OverlayWorld(Path file, URI upstream, ReconcileSettings settings, ReconcileHook hook) {
    this.file = file;
    this.store = SqliteKvStore.open(file);
    // The bench upstream is on loopback; the host check is the admin API's, not measured here.
    Services services = new Services(store, Clock.systemUTC(),
        ServiceSettings.embedded(MasterKey.of(new byte[32]), settings));
    Repositories repos = services.repositories();
    this.adapter = services.adapter();
    this.clients = services.clients();
    this.reconciler = services.reconciler(settings, hook);

    this.account = repos.accounts().create(new Account("bench"), OnConflict.ERROR).resource().id();
    // The fixture accepts any bearer token while its authentication filter is off.
    this.integration = services.integrations().create(account,
        new Integration("upstream", IntegrationType.ICEBERG_REST, upstream.toString(), Map.of(),
            new IntegrationAuthentication.Bearer(), 0),
        new SecretValues(Map.of("token", "bench-token")), new CreateRequest(OnConflict.ERROR, null))
        .outcome().resource().id();
    String catalog = repos.catalogs(account)
        .create(new Catalog("lake", "file:///tmp/icegate-bench-lake", Map.of())).id();
    this.overlay = services.overlays().create(account,
        new CatalogOverlay("everything", integration, catalog, List.of(), List.of()),
        new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  /** A reconcile run of the Overlay, synchronous. */
  ReconcileReport reconcile() {
    return reconciler.reconcile(account, overlay);
  }

  /**
   * A catalog-access client for the Integration, opened exactly as the reconciler opens its own
   * (resolved by the adapter, under the same outbound address policy); the caller closes it.
   */
  CatalogClient openClient() {
    return clients.open(adapter.resolve(account, integration));
  }

  /** Write transactions committed on the store so far. */
  long committedWrites() {
    return store.stats().committedWrites();
  }

  /** Keys written by those transactions so far. */
  long mutations() {
    return store.stats().mutations();
  }

  /** Bytes of the store file (without its write-ahead log). */
  long fileBytes() throws IOException {
    return Files.size(file);
  }

  @Override
  public void close() throws IOException {
    store.close();
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      Files.deleteIfExists(Path.of(file + suffix));
    }
  }
}
