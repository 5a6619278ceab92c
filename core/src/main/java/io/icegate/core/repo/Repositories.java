package io.icegate.core.repo;

import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.store.KvStore;
import java.time.Clock;

/**
 * Entry point to the resource repositories of one store. One instance per store, shared by every
 * request; the repositories it hands out are bound to an account and cheap to create.
 *
 * <pre>{@code
 * Repositories repos = new Repositories(store, Clock.systemUTC());
 * Resource<Account> acme = repos.accounts().create(new Account("acme"));
 * ResourceRepository<Catalog> catalogs = repos.catalogs(acme.id());
 * store.run(tx -> {                  // compose several operations in one transaction
 *   Resource<Table> t = repos.tables(acme.id()).require(tx, tableId);
 *   ...
 * });
 * }</pre>
 */
public final class Repositories {

  /** Repositories over {@code store}; {@code clock} stamps createdAt/updatedAt. */
  public Repositories(KvStore store, Clock clock) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** The store every repository runs on. */
  public KvStore store() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Accounts (server-wide names). Delete accounts with {@link io.icegate.core.durability.AccountDeletion}. */
  public ResourceRepository<Account> accounts() {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Catalogs of account {@code accountId} (names unique per account). */
  public ResourceRepository<Catalog> catalogs(String accountId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Namespaces of account {@code accountId} (names unique per catalog and parent path). */
  public ResourceRepository<Namespace> namespaces(String accountId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Tables of account {@code accountId} (one relation-name scope with views per namespace). */
  public ResourceRepository<Table> tables(String accountId) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Views of account {@code accountId} (one relation-name scope with tables per namespace). */
  public ResourceRepository<View> views(String accountId) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
