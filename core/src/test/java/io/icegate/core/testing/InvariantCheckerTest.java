package io.icegate.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The checker must see each kind of damage it claims to detect, or its green runs mean nothing. */
class InvariantCheckerTest {
  private KvStore store;
  private Repositories repos;
  private String account;
  private Resource<Catalog> catalog;
  private Resource<Namespace> namespace;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    repos = new Repositories(store, MutableClock.start(), NoContributions.RULES);
    account = repos.accounts().create(new Account("a")).id();
    catalog = repos.catalogs(account).create(new Catalog("c", null, Map.of()));
    namespace = repos.namespaces(account)
        .create(new Namespace(catalog.id(), List.of("db"), Map.of()));
    assertThat(InvariantChecker.of(store).violations()).isEmpty();
  }

  private List<String> afterDamage(java.util.function.Consumer<io.icegate.core.store.Transaction> damage) {
    store.run(tx -> {
      damage.accept(tx);
      return null;
    });
    return InvariantChecker.of(store).violations();
  }

  @Test
  void findsAResourceWithoutItsName() {
    assertThat(afterDamage(tx -> tx.clear(KeyLayout.name(account, ResourceKind.CATALOG,
        NameScope.ACCOUNT_WIDE, "c")))).anyMatch(v -> v.contains("has no name-index entry"));
  }

  @Test
  void findsAWarehouseClaimOfAMissingCatalogOrOfAnotherWarehouse() {
    com.apple.foundationdb.tuple.Tuple path = com.apple.foundationdb.tuple.Tuple.from("s3", "b");
    assertThat(afterDamage(tx -> {
      tx.set(KeyLayout.warehouseClaim(path, account, "gone"), new byte[0]);
      tx.set(KeyLayout.warehouseClaim(path, account, catalog.id()), new byte[0]);
    })).anyMatch(v -> v.contains("of missing catalog gone"))
        .anyMatch(v -> v.contains("of catalog " + catalog.id() + " is not its warehouse"));
  }

  @Test
  void reportsOverlayKeysItWasGivenNoInvariantsFor() {
    assertThat(afterDamage(tx -> tx.set(KeyLayout.claim(account, namespace.id(), "overlay"),
        "{}".getBytes(StandardCharsets.UTF_8))))
        .anyMatch(v -> v.contains("1 key(s) under") && v.contains("ContributionInvariants"));
  }

  @Test
  void findsAnOrphanedName() {
    assertThat(afterDamage(tx -> tx.set(KeyLayout.name(account, ResourceKind.CATALOG,
        NameScope.ACCOUNT_WIDE, "ghost"), "nope".getBytes(StandardCharsets.UTF_8))))
        .anyMatch(v -> v.contains("orphaned name-index entry"));
  }

  @Test
  void findsAWrongCounter() {
    assertThat(afterDamage(tx -> tx.set(KeyLayout.counter(catalog.ref(), ResourceKind.NAMESPACE),
        ByteBuffer.allocate(8).putLong(2).array()))).anyMatch(v -> v.contains("real count 1"));
    assertThat(afterDamage(tx -> tx.clear(KeyLayout.counter(catalog.ref(),
        ResourceKind.NAMESPACE)))).anyMatch(v -> v.contains("no counter"));
  }

  @Test
  void findsKeysBehindADeletedAccount() {
    assertThat(afterDamage(tx -> {
      tx.clear(KeyLayout.resource(ResourceRef.account(account)));
      tx.clear(KeyLayout.name(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT,
          NameScope.ACCOUNT_WIDE, "a"));
      repos.fences().install(tx, new io.icegate.core.durability.Fence(
          ResourceRef.account(account), "op", java.time.Instant.EPOCH, java.time.Instant.EPOCH));
    })).anyMatch(v -> v.contains("keys behind the deletion fence of account " + account));
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isGreaterThan(0);
  }

  @Test
  void findsAResourcePublishedWithoutItsReceipt() {
    String json = "{\"fingerprint\":\"f\",\"reservedId\":\"" + namespace.id()
        + "\",\"holder\":\"h\",\"leaseExpiresAt\":\"2025-01-01T00:00:00Z\"}";
    assertThat(afterDamage(tx -> tx.set(KeyLayout.receipt(account, "create:namespace", "k"),
        json.getBytes(StandardCharsets.UTF_8))))
        .anyMatch(v -> v.contains("published without its receipt"));
  }
}
