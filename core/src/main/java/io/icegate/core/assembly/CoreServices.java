package io.icegate.core.assembly;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.catalog.CatalogService;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.repo.ContributionRules;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import java.time.Clock;
import java.util.Objects;

/**
 * Core's part of the one service graph over a store: repositories, credentials, idempotent creates,
 * tokens and the Catalog and Integration services, each built once. The overlay engine's {@code
 * Services} builds on it (the server, test harnesses, benchmarks); core's own scenarios, which
 * cannot see the overlay engine, use it directly. Building it writes nothing to the store.
 */
public final class CoreServices {
  private final KvStore store;
  private final Clock clock;
  private final CoreSettings settings;
  private final Repositories repositories;
  private final CredentialStore credentials;
  private final IdempotentCreates creates;
  private final CredentialedWrites writes;
  private final ApiTokens tokens;
  private final IntegrationService integrations;
  private final CatalogService catalogs;

  /**
   * @param rules the overlay rules the repositories keep in their transactions (overlay-store's
   *     {@code OverlayStore} in the server)
   */
  public CoreServices(KvStore store, Clock clock, ContributionRules rules,
      CoreSettings settings) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.repositories = new Repositories(store, clock, rules);
    this.credentials = new CredentialStore(store, settings.masterKey(), clock);
    this.creates = new IdempotentCreates(repositories, clock, settings.idempotency());
    this.writes = new CredentialedWrites(new CredentialPublication(credentials), creates);
    this.tokens = new ApiTokens(store, clock);
    this.integrations = new IntegrationService(repositories, writes, credentials,
        settings.addresses(), settings.connectionSettings());
    this.catalogs = new CatalogService(repositories, writes, credentials);
  }

  public KvStore store() {
    return store;
  }

  public Clock clock() {
    return clock;
  }

  public CoreSettings settings() {
    return settings;
  }

  public Repositories repositories() {
    return repositories;
  }

  public CredentialStore credentials() {
    return credentials;
  }

  public IdempotentCreates creates() {
    return creates;
  }

  public CredentialedWrites writes() {
    return writes;
  }

  public ApiTokens tokens() {
    return tokens;
  }

  public IntegrationService integrations() {
    return integrations;
  }

  public CatalogService catalogs() {
    return catalogs;
  }

  /** The readiness probe over these repositories. */
  public StoreReadiness readiness() {
    return new StoreReadiness(repositories);
  }
}
