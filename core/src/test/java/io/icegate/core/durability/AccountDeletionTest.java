package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.Table;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AccountDeletionTest {
  private FaultInjectingEngine faults;
  private KvStore store;
  private MutableClock clock;
  private Repositories repos;
  private String account;
  private String survivor;
  private String catalogId;

  @BeforeEach
  void setUp() {
    faults = new FaultInjectingEngine(InMemoryEngine.create());
    store = new EngineKvStore(faults);
    clock = MutableClock.start();
    repos = new Repositories(store, clock, NoContributions.RULES);
    account = populate("doomed");
    survivor = populate("survivor");
    catalogId = repos.catalogs(account).getByName(NameScope.ACCOUNT_WIDE, "c0").orElseThrow().id();
  }

  @AfterEach
  void tearDown() {
    InvariantChecker.of(store).assertClean();
    store.close();
  }

  /** An account with catalogs, namespaces, tables and receipts: 30-odd keys. */
  private String populate(String name) {
    String id = repos.accounts().create(new Account(name)).id();
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    for (int c = 0; c < 2; c++) {
      Catalog spec = new Catalog("c" + c, null, Map.of());
      String cat = creates.create(repos.catalogs(id), "key-" + c, RequestFingerprint.of(spec), spec,
          OnConflict.ERROR).outcome().resource().id();
      for (int n = 0; n < 3; n++) {
        repos.namespaces(id).create(new Namespace(cat, List.of("ns" + n), Map.of()));
        repos.tables(id).create(new Table(cat, List.of("ns" + n), "t", "s3://m", Map.of()));
      }
    }
    return id;
  }

  private AccountDeletion deletion(int batchKeys) {
    return new AccountDeletion(repos, clock, batchKeys, List.of());
  }

  private void assertGone(String id) {
    assertThat(InvariantChecker.of(store).keysOfAccount(id)).isZero();
    assertThat(repos.accounts().get(id)).isEmpty();
    assertThat(InvariantChecker.of(store).keysOfAccount(survivor)).isGreaterThan(20);
  }

  @Test
  void deletesEverythingInBoundedTransactions() {
    AccountDeletionReport report = deletion(5).delete(account, ExpectedGeneration.of(1));
    assertThat(report.recordDeleted()).isTrue();
    assertThat(report.keysCleared()).isGreaterThan(20);
    // Every cleanup transaction removed at most 5 keys; the last one of each step found none.
    assertThat(report.cleanupTransactions()).isGreaterThanOrEqualTo((int) (report.keysCleared() / 5));
    assertGone(account);
    // The name is free for a new account, with a new identity.
    assertThat(repos.accounts().create(new Account("doomed")).id()).isNotEqualTo(account);
  }

  @Test
  void everyMutationUnderTheFenceIsRefused() {
    store.run(tx -> {
      repos.fences().install(tx,
          new Fence(ResourceRef.account(account), "op", clock.instant(), null));
      return null;
    });
    assertFenced(() -> repos.catalogs(account).create(new Catalog("new", null, Map.of())));
    assertFenced(() -> repos.namespaces(account).create(
        new Namespace(catalogId, List.of("new"), Map.of())));
    assertFenced(() -> repos.tables(account).create(
        new Table(catalogId, List.of("ns0"), "new", "s3://m", Map.of())));
    assertFenced(() -> repos.catalogs(account).rename(catalogId, ExpectedGeneration.any(),
        NameScope.ACCOUNT_WIDE, "moved"));
    assertFenced(() -> repos.catalogs(account).update(catalogId, ExpectedGeneration.any(),
        new Catalog("c0", "s3://x", Map.of()), ChangeKind.CONFIGURATION));
    assertFenced(() -> repos.accounts().rename(account, ExpectedGeneration.any(),
        NameScope.ACCOUNT_WIDE, "x"));
    deletion(500).delete(account, ExpectedGeneration.any());
    assertGone(account);
  }

  private static void assertFenced(Runnable action) {
    assertThatThrownBy(action::run).isInstanceOfSatisfying(IcegateException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.FENCED);
      assertThat(e.httpStatus()).isEqualTo(409);
    });
  }

  @Test
  void failedRecordDeleteClearsTheFence() {
    assertThatThrownBy(() -> deletion(500).delete(account, ExpectedGeneration.of(7)))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.GENERATION_MISMATCH));
    faults.failAt(faults.commitsSeen() + 2, Fault.FAILURE_BEFORE_COMMIT); // the record delete
    assertThatThrownBy(() -> deletion(500).delete(account, ExpectedGeneration.any()))
        .isInstanceOf(KvStoreFailureException.class);
    // Not fenced: the account keeps working.
    java.util.Optional<Fence> fence =
        store.read(tx -> repos.fences().read(tx, ResourceRef.account(account)));
    assertThat(fence).isEmpty();
    repos.catalogs(account).create(new Catalog("still-writable", null, Map.of()));
  }

  @Test
  void deleteOfAGoneAccountReplaysCleanup() {
    // The first delete dies after the record delete, during cleanup.
    AtomicInteger calls = new AtomicInteger();
    CleanupStep dying = (tx, id, max) -> {
      if (calls.incrementAndGet() == 1) {
        throw new IllegalStateException("process died");
      }
      return 0;
    };
    assertThatThrownBy(() -> new AccountDeletion(repos, clock, 3, List.of(dying))
        .delete(account, ExpectedGeneration.any())).hasMessageContaining("process died");
    assertThat(repos.accounts().get(account)).isEmpty();
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isGreaterThan(0);
    assertThat(deletion(3).incomplete(10)).containsExactly(account);

    AccountDeletionReport replay = new AccountDeletion(repos, clock, 3, List.of(dying))
        .delete(account, ExpectedGeneration.any());
    assertThat(replay.recordDeleted()).isFalse();
    assertThat(replay.keysCleared()).isGreaterThan(0);
    assertGone(account);
    assertThat(deletion(3).incomplete(10)).isEmpty();
    // Deleting again still replays (nothing left to do) rather than answering NOT_FOUND.
    assertThat(deletion(3).delete(account, ExpectedGeneration.any()).keysCleared()).isZero();
  }

  @Test
  void unknownAccountIsNotFound() {
    assertThatThrownBy(() -> deletion(500).delete("no-such", ExpectedGeneration.any()))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }

  @Test
  void extraStepsRunBeforeThePartitionIsCleared() {
    AtomicInteger sawCatalogs = new AtomicInteger(-1);
    CleanupStep step = (tx, id, max) -> {
      if (sawCatalogs.get() < 0) {
        sawCatalogs.set((int) repos.catalogs(id).count(tx,
            io.icegate.core.repo.Listing.of(NameScope.ACCOUNT_WIDE),
            io.icegate.core.store.ReadConsistency.STRONG));
      }
      return 0;
    };
    new AccountDeletion(repos, clock, 500, List.of(step)).delete(account, ExpectedGeneration.any());
    assertThat(sawCatalogs.get()).isEqualTo(2);
    assertGone(account);
  }
}
