package io.icegate.core.catalog;

import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.List;
import java.util.Map;

/**
 * The Catalog service of a few accounts over one store, for the warehouse-claim tests: real
 * repositories, idempotent creates and credentials, as the server builds them.
 */
final class ClaimWorld {
  final KvStore store;
  final MutableClock clock = MutableClock.start();
  final Repositories repos;
  final CredentialStore credentials;
  final CatalogService catalogs;

  ClaimWorld(KvStore store) {
    this.store = store;
    this.repos = new Repositories(store, clock, NoContributions.RULES);
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    this.credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
    this.catalogs = new CatalogService(repos,
        new CredentialedWrites(new CredentialPublication(credentials), creates), credentials);
  }

  String account(String name) {
    return repos.accounts().create(new Account(name)).id();
  }

  Resource<Catalog> create(String account, String name, String warehouse) {
    return create(account, name, warehouse, CreateRequest.plain());
  }

  Resource<Catalog> create(String account, String name, String warehouse,
      CreateRequest request) {
    return catalogs.create(account, new Catalog(name, warehouse, Map.of()), null, request)
        .outcome().resource();
  }

  /** Every claim key in the store, unpacked (without the subspace tag). */
  List<List<Object>> claims() {
    return store.read(tx -> tx.getRange(KeySubspace.WAREHOUSE_CLAIMS.range().begin,
            KeySubspace.WAREHOUSE_CLAIMS.range().end)).stream()
        .map(KeyValue::key)
        .map(k -> KeySubspace.WAREHOUSE_CLAIMS.unpack(k).getItems())
        .toList();
  }
}
