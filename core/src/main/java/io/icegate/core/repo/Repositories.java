package io.icegate.core.repo;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.durability.DependencyCounters;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.paging.PageTokens;
import io.icegate.core.store.KvStore;
import java.time.Clock;
import java.util.Objects;

/**
 * Entry point to the resource repositories of one store. One instance per store, shared by every
 * request; the repositories it hands out are bound to an account and cheap to create.
 *
 * <pre>{@code
 * Repositories repos = new Repositories(store, Clock.systemUTC(), contributionRules);
 * Resource<Account> acme = repos.accounts().create(new Account("acme"));
 * ResourceRepository<Catalog> catalogs = repos.catalogs(acme.id());
 * store.run(tx -> {                  // compose several operations in one transaction
 *   Resource<Table> t = repos.tables(acme.id()).require(tx, tableId);
 *   ...
 * });
 * }</pre>
 */
public final class Repositories {
  private final KvStore store;
  private final Clock clock;
  private final ContributionRules contributions;
  private final DeletionFences fences = new DeletionFences();
  private final DependencyCounters counters = new DependencyCounters();
  private final NameIndexListing.Factory listings;
  private final ResourceCodec<Account> accountCodec = new ResourceCodec<>(Account.class);
  private final ResourceCodec<Catalog> catalogCodec = new ResourceCodec<>(Catalog.class);
  private final ResourceCodec<Namespace> namespaceCodec = new ResourceCodec<>(Namespace.class);
  private final ResourceCodec<Table> tableCodec = new ResourceCodec<>(Table.class);
  private final ResourceCodec<View> viewCodec = new ResourceCodec<>(View.class);
  private final ResourceCodec<Integration> integrationCodec =
      new ResourceCodec<>(Integration.class);
  private final ResourceCodec<CatalogOverlay> overlayCodec =
      new ResourceCodec<>(CatalogOverlay.class);

  /**
   * Repositories over {@code store}; {@code clock} stamps createdAt/updatedAt; {@code
   * contributions} answers the overlay domain's checks in every namespace drop or move and every
   * relation delete (overlay-store's {@code OverlayStore}). Loads (on the first start of a store:
   * creates) the page-token key in its own transaction.
   */
  public Repositories(KvStore store, Clock clock, ContributionRules contributions) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.contributions = Objects.requireNonNull(contributions, "contributions");
    this.listings = new NameIndexListing.Factory(PageTokens.load(store));
  }

  /** The store every repository runs on. */
  public KvStore store() {
    return store;
  }

  /** The clock that stamps records. */
  public Clock clock() {
    return clock;
  }

  /** The store's page-token issuer, for listings kept outside the name index. */
  public io.icegate.core.paging.PageTokens pageTokens() {
    return listings.tokens();
  }

  /** The deletion fences every mutation asserts. */
  public DeletionFences fences() {
    return fences;
  }

  /** The dependency counters kept by creates and deletes. */
  public DependencyCounters counters() {
    return counters;
  }

  /** Accounts (server-wide names). Delete accounts with {@link io.icegate.core.durability.AccountDeletion}. */
  public ResourceRepository<Account> accounts() {
    return new ResourceRepository<>(
        store, clock, new KindRules.AccountRules(fences, counters), accountCodec, listings, null);
  }

  /** Catalogs of account {@code accountId} (names unique per account). */
  public ResourceRepository<Catalog> catalogs(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.CatalogRules(fences, counters),
        catalogCodec,
        listings,
        requireAccount(accountId));
  }

  /** Namespaces of account {@code accountId} (names unique per catalog and parent path). */
  public ResourceRepository<Namespace> namespaces(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.NamespaceRules(fences, counters, contributions),
        namespaceCodec,
        listings,
        requireAccount(accountId));
  }

  /** Tables of account {@code accountId} (one relation-name scope with views per namespace). */
  public ResourceRepository<Table> tables(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.RelationRules<>(
            ResourceKind.TABLE, Table.class, fences, counters, contributions),
        tableCodec,
        listings,
        requireAccount(accountId));
  }

  /** Views of account {@code accountId} (one relation-name scope with tables per namespace). */
  public ResourceRepository<View> views(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.RelationRules<>(
            ResourceKind.VIEW, View.class, fences, counters, contributions),
        viewCodec,
        listings,
        requireAccount(accountId));
  }

  /** CatalogIntegrations of account {@code accountId} (names unique per account). */
  public ResourceRepository<Integration> integrations(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.IntegrationRules(fences, counters),
        integrationCodec,
        listings,
        requireAccount(accountId));
  }

  /** CatalogOverlays of account {@code accountId} (names unique among the account's overlays). */
  public ResourceRepository<CatalogOverlay> overlays(String accountId) {
    return new ResourceRepository<>(
        store,
        clock,
        new KindRules.OverlayRules(fences, counters),
        overlayCodec,
        listings,
        requireAccount(accountId));
  }

  private static String requireAccount(String accountId) {
    if (accountId == null || accountId.isEmpty()) {
      throw io.icegate.core.error.IcegateException.invalidArgument("an account id is required");
    }
    return accountId;
  }
}
