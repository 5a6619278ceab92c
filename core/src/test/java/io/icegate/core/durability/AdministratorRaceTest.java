package io.icegate.core.durability;

import io.icegate.core.catalog.CatalogService;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.overlay.RecordingRetirement;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.testing.HookedStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Administrators racing on one account, one committing between another's reads and its writing
 * transaction (a {@link HookedStore} action, so the interleaving is deterministic on every
 * driver). Each driver runs it through a subclass, and with it every family, one interface each:
 * {@link PatchAndRotationRaces} (a PATCH decides on the record its transaction replaces, a
 * rotation retires the generation its transaction replaced), {@link DeletionFenceRaces} (writers
 * meeting a deletion's fence) and {@link CrashedCredentialRaces} (a process dying between
 * preparing a credential and publishing or discarding it).
 */
public abstract class AdministratorRaceTest
    implements PatchAndRotationRaces, DeletionFenceRaces, CrashedCredentialRaces {

  private HookedStore store;
  private Repositories repos;
  private CredentialStore credentials;
  private IntegrationService integrations;
  private CatalogService catalogs;
  private OverlayService overlays;
  private String account;
  private MutableClock clock;
  private final List<String> checkedHosts = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The engine of one test. */
  protected abstract KvEngine newEngine();

  @BeforeEach
  void open() {
    store = new HookedStore(new EngineKvStore(newEngine()));
    clock = MutableClock.start();
    repos = new Repositories(store, clock, NoContributions.RULES);
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
    CredentialedWrites writes =
        new CredentialedWrites(new CredentialPublication(credentials), creates);
    integrations = new IntegrationService(repos, writes, credentials,
        host -> checkedHosts.add(store.openWrites() > 0 ? host + " inside" : host));
    catalogs = new CatalogService(repos, writes, credentials);
    overlays = new OverlayService(repos, creates, new RecordingRetirement(store));
    account = repos.accounts().create(new Account("acme")).id();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Override
  public final HookedStore store() {
    return store;
  }

  @Override
  public final Repositories repos() {
    return repos;
  }

  @Override
  public final CredentialStore credentials() {
    return credentials;
  }

  @Override
  public final IntegrationService integrations() {
    return integrations;
  }

  @Override
  public final CatalogService catalogs() {
    return catalogs;
  }

  @Override
  public final OverlayService overlays() {
    return overlays;
  }

  @Override
  public final String account() {
    return account;
  }

  @Override
  public final MutableClock clock() {
    return clock;
  }

  @Override
  public final List<String> checkedHosts() {
    return checkedHosts;
  }
}
