package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IdempotentCreatesTest {
  private static final IdempotencySettings SETTINGS =
      new IdempotencySettings(Duration.ofSeconds(30), Duration.ofHours(1));

  private FaultInjectingEngine faults;
  private KvStore store;
  private MutableClock clock;
  private Repositories repos;
  private IdempotentCreates creates;
  private String account;
  private ResourceRepository<Catalog> catalogs;

  @BeforeEach
  void setUp() {
    faults = new FaultInjectingEngine(InMemoryEngine.create());
    store = new EngineKvStore(faults);
    clock = MutableClock.start();
    repos = new Repositories(store, clock, NoContributions.RULES);
    creates = new IdempotentCreates(repos, clock, SETTINGS);
    account = repos.accounts().create(new Account("a")).id();
    catalogs = repos.catalogs(account);
  }

  @AfterEach
  void tearDown() {
    InvariantChecker.of(store).assertClean();
    store.close();
  }

  private IdempotentResult<Catalog> create(String key, Catalog spec) {
    return creates.create(catalogs, key, RequestFingerprint.of(spec), spec, OnConflict.ERROR);
  }

  private static void assertCode(Runnable action, ErrorCode code) {
    assertThatThrownBy(action::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void replayReturnsTheRecordedAnswerNotCurrentState() {
    Catalog spec = new Catalog("c", "s3://w", Map.of());
    IdempotentResult<Catalog> first = create("k", spec);
    assertThat(first.replayed()).isFalse();
    assertThat(first.outcome().disposition()).isEqualTo(CreateOutcome.Disposition.CREATED);
    String id = first.outcome().resource().id();

    catalogs.rename(id, ExpectedGeneration.of(1), NameScope.ACCOUNT_WIDE, "renamed");
    IdempotentResult<Catalog> replay = create("k", spec);
    assertThat(replay.replayed()).isTrue();
    assertThat(replay.outcome()).isEqualTo(first.outcome());
    assertThat(replay.outcome().resource().name()).isEqualTo("c");

    catalogs.delete(id, ExpectedGeneration.any());
    assertThat(create("k", spec).outcome()).isEqualTo(first.outcome());
  }

  @Test
  void sameKeyWithAnotherRequestIsRejected() {
    create("k", new Catalog("c", null, Map.of()));
    IcegateException e = org.junit.jupiter.api.Assertions.assertThrows(IcegateException.class,
        () -> create("k", new Catalog("c", "other", Map.of())));
    assertThat(e.code()).isEqualTo(ErrorCode.IDEMPOTENCY_KEY_REUSED);
    assertThat(e.httpStatus()).isEqualTo(422);
    // Keys are scoped to the operation: the same key may create another kind.
    assertThat(creates.create(repos.accounts(), "k", "fp", new Account("b"), OnConflict.ERROR)
        .replayed()).isFalse();
  }

  @Test
  void replaceCannotBeCombinedWithAKey() {
    assertCode(() -> creates.create(catalogs, "k", "fp", new Catalog("c", null, Map.of()),
        OnConflict.REPLACE), ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void rejectionsAreRecordedAndReplayed() {
    catalogs.create(new Catalog("taken", null, Map.of()));
    Catalog spec = new Catalog("taken", "s3://mine", Map.of());
    assertCode(() -> create("k", spec), ErrorCode.ALREADY_EXISTS);
    String id = catalogs.getByName(NameScope.ACCOUNT_WIDE, "taken").orElseThrow().id();
    catalogs.delete(id, ExpectedGeneration.any());
    // The name is free now, but the key's recorded answer is the rejection.
    assertCode(() -> create("k", spec), ErrorCode.ALREADY_EXISTS);
    assertThat(catalogs.getByName(NameScope.ACCOUNT_WIDE, "taken")).isEmpty();
  }

  @Test
  void returnExistingIsRecordedAsExisting() {
    IdempotentResult<Catalog> original = create("k1", new Catalog("c", null, Map.of()));
    Catalog again = new Catalog("c", "different", Map.of());
    IdempotentResult<Catalog> existing = creates.create(catalogs, "k2",
        RequestFingerprint.of(again), again, OnConflict.RETURN_EXISTING);
    assertThat(existing.outcome().disposition()).isEqualTo(CreateOutcome.Disposition.EXISTING);
    assertThat(existing.outcome().resource()).isEqualTo(original.outcome().resource());
  }

  @Test
  void pendingReservationBlocksUntilItsLeaseLapsesThenResumesWithTheReservedId() {
    Catalog spec = new Catalog("c", null, Map.of());
    int next = faults.commitsSeen() + 1;
    faults.failAt(next + 1, Fault.FAILURE_BEFORE_COMMIT); // the publish
    faults.failAt(next + 2, Fault.FAILURE_BEFORE_COMMIT); // the lease release
    assertThatThrownBy(() -> create("k", spec)).isInstanceOf(KvStoreFailureException.class);
    String reserved = storedRecord("k").get("reservedId").asText();

    assertCode(() -> create("k", spec), ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    assertCode(() -> create("k", new Catalog("c", "x", Map.of())),
        ErrorCode.IDEMPOTENCY_KEY_REUSED);
    clock.advance(SETTINGS.lease().plusSeconds(1));
    IdempotentResult<Catalog> resumed = create("k", spec);
    assertThat(resumed.outcome().resource().id()).isEqualTo(reserved);
    assertThat(resumed.replayed()).isFalse();
  }

  @Test
  void definiteFailureReleasesTheLeaseForAnImmediateRetry() {
    Catalog spec = new Catalog("c", null, Map.of());
    faults.failAt(faults.commitsSeen() + 2, Fault.FAILURE_BEFORE_COMMIT);
    assertThatThrownBy(() -> create("k", spec)).isInstanceOf(KvStoreFailureException.class);
    String reserved = storedRecord("k").get("reservedId").asText();
    assertThat(create("k", spec).outcome().resource().id()).isEqualTo(reserved);
  }

  @Test
  void anUnrecordedRejectionReleasesTheLeaseForAnImmediateRetry() {
    Catalog spec = new Catalog("c", null, Map.of());
    IdempotentCreates.Preparation<Catalog> contended = new IdempotentCreates.Preparation<>() {
      @Override
      public Catalog prepare(String reservedId, Catalog original) {
        throw new IcegateException(ErrorCode.STORE_CONTENTION, null);
      }

      @Override
      public void published(io.icegate.core.store.Transaction tx,
          io.icegate.core.model.Resource<Catalog> resource) {}
    };
    assertCode(() -> creates.create(catalogs, "k", RequestFingerprint.of(spec), spec,
        OnConflict.ERROR, contended), ErrorCode.STORE_CONTENTION);
    String reserved = storedRecord("k").get("reservedId").asText();
    assertThat(create("k", spec).outcome().resource().id()).isEqualTo(reserved);
  }

  @Test
  void unknownCommitOfThePublishIsResolvedByReadingTheReceipt() {
    Catalog spec = new Catalog("c", null, Map.of());
    faults.failAt(faults.commitsSeen() + 2, Fault.COMMIT_UNKNOWN_APPLIED);
    IdempotentResult<Catalog> result = create("k", spec);
    assertThat(result.replayed()).isFalse(); // our own publish, found by re-reading
    assertThat(faults.injected()).hasSize(1);
    assertThat(create("k", spec).outcome()).isEqualTo(result.outcome());
  }

  @Test
  void expiredReceiptsAreIgnoredAndSwept() {
    Catalog spec = new Catalog("c", null, Map.of());
    create("k", spec);
    create("k2", new Catalog("d", null, Map.of()));
    clock.advance(SETTINGS.receiptLifetime().plusSeconds(1));
    create("fresh", new Catalog("e", null, Map.of()));
    // Expired: the key is free again, even for another request; the name is still taken.
    assertCode(() -> create("k", spec), ErrorCode.ALREADY_EXISTS);
    IdempotentResult<Catalog> other = create("k2", new Catalog("f", null, Map.of()));
    assertThat(other.replayed()).isFalse();
    clock.advance(SETTINGS.receiptLifetime().plusSeconds(1));
    create("fresh2", new Catalog("g", null, Map.of()));
    assertThat(creates.sweepExpired(account, 2)).isEqualTo(3); // k, k2, fresh
    assertThat(storedRecord("fresh")).isNull();
    assertThat(storedRecord("fresh2")).isNotNull();
    assertThat(create("fresh2", new Catalog("g", null, Map.of())).replayed()).isTrue();
  }

  @Test
  void fencedAccountGetsNoReceipt() {
    store.run(tx -> {
      repos.fences().install(tx,
          new Fence(ResourceRef.account(account), "op", Instant.EPOCH, null));
      return null;
    });
    assertCode(() -> create("k", new Catalog("c", null, Map.of())), ErrorCode.FENCED);
    assertThat(storedRecord("k")).isNull();
    new AccountDeletion(repos, clock).delete(account, ExpectedGeneration.any());
  }

  @Test
  void accountCreatesAreIdempotentServerWide() {
    IdempotentResult<Account> first =
        creates.create(repos.accounts(), "acct-key", "fp", new Account("new"), OnConflict.ERROR);
    IdempotentResult<Account> replay =
        creates.create(repos.accounts(), "acct-key", "fp", new Account("new"), OnConflict.ERROR);
    assertThat(replay.replayed()).isTrue();
    assertThat(replay.outcome()).isEqualTo(first.outcome());
    assertThat(first.outcome().resource().accountId()).isEqualTo(first.outcome().resource().id());
  }

  @Test
  void fingerprintsAreCanonical() {
    assertThat(RequestFingerprint.of(new Catalog("c", null, Map.of("a", "1", "b", "2"))))
        .isEqualTo(RequestFingerprint.of(new Catalog("c", null, new java.util.TreeMap<>(
            Map.of("b", "2", "a", "1")))))
        .isNotEqualTo(RequestFingerprint.of(new Catalog("c", null, Map.of("a", "1"))))
        .hasSize(64);
  }

  private JsonNode storedRecord(String key) {
    byte[] bytes = store.read(tx -> tx.get(KeyLayout.receipt(account, "create:catalog", key)));
    try {
      return bytes == null ? null : ModelJson.mapper().readTree(bytes);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
