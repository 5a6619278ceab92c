package io.icegate.overlay.store.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Validation publication, retirement, paging, overrides, visibility and cleanup over the
 * in-memory store (the same engine contract as SQLite and FoundationDB).
 */
class TableValidationsTest {
  private static final Consumer<io.icegate.core.store.Transaction> NO_FENCE = tx -> { };

  private KvStore store;
  private MutableClock clock;
  private Repositories repos;
  private ManagedTableSetup setup;
  private TableValidations validations;

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    clock = MutableClock.start();
    repos = OverlayStore.repositories(store, clock);
    setup = new ManagedTableSetup(repos, clock);
    validations = new TableValidations(repos);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void failedValidationHidesTheTableAndACleanRevalidationRetiresItsErrors() {
    Resource<Table> table = setup.managedTable("orders");
    assertThat(visibility(table)).isEqualTo(Visibility.PENDING);
    CapturePointer capture = setup.capture(table.id());
    assertThat(visibility(table).reason()).isEqualTo("validation pending");
    assertThat(validations.status(setup.account, table.id())).isEmpty();

    ValidationOutcome failed = validations.publish(setup.account, table.id(), Optional.empty(),
        capture.captureGeneration(), ManagedTableSetup.errors(table, "first", 3), NO_FENCE);
    ValidationStatus status = ((ValidationOutcome.Published) failed).status();
    assertThat(status.state()).isEqualTo(ValidationState.FAILED);
    assertThat(status.errorCount()).isEqualTo(3);
    assertThat(status.captureGeneration()).isEqualTo(1);
    assertThat(validations.status(setup.account, table.id())).contains(status);
    assertThat(visibility(table)).isEqualTo(new Visibility.Failed(3));
    assertThat(visibility(table).reason()).isEqualTo("3 validation errors");
    assertThat(validations.errors(setup.account, table.id(), PageRequest.first()).items())
        .extracting(ValidationError::message).containsExactly("first #0", "first #1", "first #2");
    ContributionInvariants.checker(store).assertClean();

    clock.advance(Duration.ofSeconds(5));
    ValidationOutcome clean = validations.publish(setup.account, table.id(), Optional.of(status),
        capture.captureGeneration(), List.of(), NO_FENCE);
    ValidationStatus valid = ((ValidationOutcome.Published) clean).status();
    assertThat(valid.state()).isEqualTo(ValidationState.VALID);
    assertThat(valid.validationGeneration()).isGreaterThan(status.validationGeneration());
    assertThat(valid.validatedAt()).isAfter(status.validatedAt());
    assertThat(visibility(table)).isEqualTo(Visibility.VISIBLE);
    assertThat(validations.errors(setup.account, table.id(), PageRequest.first()).items())
        .isEmpty();
    assertThat(errorKeys(table)).isZero();
    ContributionInvariants.checker(store).assertClean();

    // a failing revalidation replaces the clean one the same way, and one error reads singular
    ValidationStatus again = published(validations.publish(setup.account, table.id(),
        Optional.of(valid), 1, ManagedTableSetup.errors(table, "second", 1), NO_FENCE));
    assertThat(visibility(table).reason()).isEqualTo("1 validation error");
    assertThat(errorKeys(table)).isEqualTo(1);
    assertThat(again.validationGeneration()).isGreaterThan(valid.validationGeneration());
    ContributionInvariants.checker(store).assertClean();
  }

  @Test
  void aNewCaptureMakesTheValidationPendingAndStalePublicationsPublishNothing() {
    Resource<Table> table = setup.managedTable("orders");
    setup.capture(table.id());
    ValidationStatus first = published(validations.publish(setup.account, table.id(),
        Optional.empty(), 1, List.of(), NO_FENCE));
    assertThat(visibility(table).visible()).isTrue();

    // a caller that read nothing, racing the one that published: refused, and its records
    // (several transactions' worth) are gone again
    ValidationOutcome stale = validations.publish(setup.account, table.id(), Optional.empty(), 1,
        ManagedTableSetup.errors(table, "stale", 1_200), NO_FENCE);
    assertThat(stale).isInstanceOf(ValidationOutcome.Skipped.class);
    assertThat(((ValidationOutcome.Skipped) stale).reason()).contains("moved from 0 to 1");
    assertThat(errorKeys(table)).isZero();
    assertThat(validations.status(setup.account, table.id())).contains(first);
    ContributionInvariants.checker(store).assertClean();

    // captured again: the old validation no longer counts
    setup.capture(table.id());
    assertThat(validations.status(setup.account, table.id()).orElseThrow().state())
        .isEqualTo(ValidationState.PENDING);
    assertThat(visibility(table)).isEqualTo(Visibility.PENDING);
    ValidationOutcome oldCapture = validations.publish(setup.account, table.id(),
        Optional.of(first), 1, ManagedTableSetup.errors(table, "old", 2), NO_FENCE);
    assertThat(((ValidationOutcome.Skipped) oldCapture).reason())
        .contains("capture generation moved from 1 to 2");
    assertThat(errorKeys(table)).isZero();
    published(validations.publish(setup.account, table.id(), Optional.of(first), 2, List.of(),
        NO_FENCE));
    assertThat(visibility(table).visible()).isTrue();

    // a refusing fence stops the publication and leaves no record behind
    ValidationStatus current = validations.status(setup.account, table.id()).orElseThrow();
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    long[] recordsAtSwitch = {0};
    assertThatThrownBy(() -> validations.publish(setup.account, table.id(), Optional.of(current),
        2, ManagedTableSetup.errors(table, "fenced", 700), tx -> {
          // allocation, the first 500 records, then the switch: refuse the switch
          if (calls.incrementAndGet() == 3) {
            recordsAtSwitch[0] = errorKeysIn(tx, table);
            throw new IllegalStateException("stop: records written, pointer not yet");
          }
        })).hasMessageContaining("stop");
    assertThat(recordsAtSwitch[0]).isEqualTo(500);
    assertThat(errorKeys(table)).isZero();
    assertThat(validations.status(setup.account, table.id())).contains(current);
    ContributionInvariants.checker(store).assertClean();

    // a table that was never captured cannot be validated
    Resource<Table> uncaptured = setup.managedTable("fresh");
    assertThat(validations.publish(setup.account, uncaptured.id(), Optional.empty(), 1,
        List.of(), NO_FENCE)).isInstanceOf(ValidationOutcome.Skipped.class);
  }

  @Test
  void errorsPageInPublishedOrderAndATokenDiesWithItsGeneration() {
    Resource<Table> table = setup.managedTable("orders");
    setup.capture(table.id());
    List<ValidationError> errors = ManagedTableSetup.errors(table, "bad", 1_203);
    ValidationStatus status = published(validations.publish(setup.account, table.id(),
        Optional.empty(), 1, errors, NO_FENCE));
    assertThat(status.errorCount()).isEqualTo(1_203);
    assertThat(TableValidations.batches(errors)).hasSize(3);

    List<ValidationError> read = new ArrayList<>();
    PageRequest request = PageRequest.first(500);
    String firstToken = null;
    int pages = 0;
    while (true) {
      Page<ValidationError> page = validations.errors(setup.account, table.id(), request);
      read.addAll(page.items());
      pages++;
      if (page.next().isEmpty()) {
        break;
      }
      firstToken = firstToken == null ? page.nextPageToken() : firstToken;
      request = request.next(page.nextPageToken());
    }
    assertThat(pages).isEqualTo(3);
    assertThat(read).isEqualTo(errors);

    // a token is bound to its table and generation
    Resource<Table> other = setup.managedTable("other");
    String token = firstToken;
    assertThatThrownBy(() -> validations.errors(setup.account, other.id(),
        new PageRequest(token, 500)))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PAGE_TOKEN));
    published(validations.publish(setup.account, table.id(), Optional.of(status), 1,
        ManagedTableSetup.errors(table, "again", 600), NO_FENCE));
    assertThatThrownBy(() -> validations.errors(setup.account, table.id(),
        new PageRequest(token, 500)))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PAGE_TOKEN));
    assertThat(errorKeys(table)).isEqualTo(600);
    ContributionInvariants.checker(store).assertClean();
  }

  @Test
  void anOverrideMakesAFailingTableVisibleUntilCleared() {
    Resource<Table> table = setup.managedTable("orders");
    setup.capture(table.id());
    published(validations.publish(setup.account, table.id(), Optional.empty(), 1,
        ManagedTableSetup.errors(table, "bad", 2), NO_FENCE));
    assertThat(visibility(table).visible()).isFalse();

    VisibilityOverride set = validations.setOverride(setup.account, table.id(), "known issue");
    assertThat(set.note()).isEqualTo("known issue");
    assertThat(visibility(table)).isEqualTo(Visibility.VISIBLE);
    Optional<VisibilityOverride> stored =
        store.read(tx -> validations.override(tx, setup.account, table.id()));
    assertThat(stored).contains(set);
    ContributionInvariants.checker(store).assertClean();

    assertThat(validations.clearOverride(setup.account, table.id())).isTrue();
    assertThat(validations.clearOverride(setup.account, table.id())).isFalse();
    assertThat(visibility(table).reason()).startsWith("2 validation errors");

    // a never-validated table is visible with an override too; a Delta table is validated like
    // an Iceberg one (issue 26): pending until its capture validates, or overridden
    Resource<Table> delta = setup.managedTable("events", "DELTA");
    assertThat(visibility(delta)).isEqualTo(Visibility.PENDING);
    validations.setOverride(setup.account, delta.id(), null);
    assertThat(visibility(delta).visible()).isTrue();

    Resource<Table> local = setup.localTable("scratch");
    assertThat(visibility(local)).isEqualTo(Visibility.VISIBLE);
    assertThatThrownBy(() -> validations.setOverride(setup.account, local.id(), null))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThatThrownBy(() -> validations.setOverride(setup.account, "no-such-table", null))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    ContributionInvariants.checker(store).assertClean();
  }

  @Test
  void cleanValidationsOfManyTablesPublishInOneTransactionEachCheckedOnItsOwn() {
    Resource<Table> a = setup.managedTable("a");
    Resource<Table> b = setup.managedTable("b");
    Resource<Table> c = setup.managedTable("c");
    for (Resource<Table> t : List.of(a, b, c)) {
      setup.capture(t.id());
    }
    setup.capture(c.id()); // c moved on: a candidate for its first capture is stale
    long before = store.stats().committedWrites();
    List<ValidationOutcome> outcomes = validations.publishClean(setup.account, List.of(
        new TableValidations.CleanCandidate(a.id(), Optional.empty(), 1),
        new TableValidations.CleanCandidate(b.id(), Optional.empty(), 1),
        new TableValidations.CleanCandidate(c.id(), Optional.empty(), 1)), NO_FENCE);
    assertThat(store.stats().committedWrites() - before).isEqualTo(1);
    assertThat(published(outcomes.get(0)).state()).isEqualTo(ValidationState.VALID);
    assertThat(published(outcomes.get(1)).state()).isEqualTo(ValidationState.VALID);
    assertThat(outcomes.get(2)).isInstanceOf(ValidationOutcome.Skipped.class);
    assertThat(visibility(a).visible()).isTrue();
    assertThat(visibility(b).visible()).isTrue();
    assertThat(visibility(c)).isEqualTo(Visibility.PENDING);
    ContributionInvariants.checker(store).assertClean();

    // a refusing fence stops the whole batch: nothing published
    Resource<Table> d = setup.managedTable("d");
    setup.capture(d.id());
    assertThatThrownBy(() -> validations.publishClean(setup.account, List.of(
        new TableValidations.CleanCandidate(d.id(), Optional.empty(), 1)), tx -> {
          throw new IllegalStateException("fenced");
        })).hasMessage("fenced");
    assertThat(validations.status(setup.account, d.id())).isEmpty();
  }

  @Test
  void deletingTheTableOrTheAccountRemovesEveryValidationKey() {
    Resource<Table> table = setup.managedTable("orders");
    Resource<Table> kept = setup.managedTable("kept");
    for (Resource<Table> t : List.of(table, kept)) {
      setup.capture(t.id());
      published(validations.publish(setup.account, t.id(), Optional.empty(), 1,
          ManagedTableSetup.errors(t, "bad", 700), NO_FENCE));
      validations.setOverride(setup.account, t.id(), null);
    }
    assertThat(keysOf(table)).isEqualTo(700 + 3); // records, pointer, allocation, override

    // deleting a managed relation runs ManagedRelations.forget (as retirement and cascade do)
    repos.tables(setup.account).delete(table.id(), ExpectedGeneration.any());
    assertThat(keysOf(table)).isZero();
    assertThat(keysOf(kept)).isEqualTo(703);
    ContributionInvariants.checker(store).assertClean();

    new AccountDeletion(repos, clock, 1_000, List.of(setup.credentials.accountCleanup())).delete(setup.account, ExpectedGeneration.any());
    List<io.icegate.core.store.KeyValue> left = store.read(tx -> tx.getRange(
        KeySubspace.VALIDATIONS.range().begin, KeySubspace.VALIDATIONS.range().end));
    assertThat(left).isEmpty();
    assertThat(ContributionInvariants.checker(store).keysOfAccount(setup.account)).isZero();
    ContributionInvariants.checker(store).assertClean();
  }

  @Test
  void theCheckerFlagsRecordsOfAnotherGenerationAndOrphanedKeys() {
    Resource<Table> table = setup.managedTable("orders");
    setup.capture(table.id());
    ValidationStatus status = published(validations.publish(setup.account, table.id(),
        Optional.empty(), 1, ManagedTableSetup.errors(table, "bad", 2), NO_FENCE));
    ValidationRecords records = new ValidationRecords();
    store.run(tx -> {
      records.writeErrors(tx, setup.account, table.id(), status.validationGeneration() - 1, 0,
          ManagedTableSetup.errors(table, "old", 1));
      return null;
    });
    assertThat(ContributionInvariants.checker(store).violations())
        .anyMatch(v -> v.contains("of generations other than its current"));
    store.run(tx -> {
      records.clearBelow(tx, setup.account, table.id(), status.validationGeneration());
      records.writeErrors(tx, setup.account, "gone-table", 1, 0,
          ManagedTableSetup.errors(table, "x", 1));
      return null;
    });
    assertThat(ContributionInvariants.checker(store).violations())
        .containsExactly("validation keys of gone-table have no managed table");
  }

  private Visibility visibility(Resource<Table> table) {
    return store.read(tx -> validations.visibility(tx, setup.account,
        repos.tables(setup.account).get(tx, table.id()).orElseThrow()));
  }

  private static ValidationStatus published(ValidationOutcome outcome) {
    assertThat(outcome).isInstanceOf(ValidationOutcome.Published.class);
    return ((ValidationOutcome.Published) outcome).status();
  }

  private long errorKeys(Resource<Table> table) {
    return store.read(tx -> errorKeysIn(tx, table));
  }

  private long errorKeysIn(io.icegate.core.store.ReadTransaction tx, Resource<Table> table) {
    var range = KeyLayout.validationErrors(setup.account, table.id()).range();
    return tx.getRange(range.begin, range.end).size();
  }

  private long keysOf(Resource<Table> table) {
    var range = KeyLayout.validations(setup.account, table.id()).range();
    return store.read(tx -> tx.getRange(range.begin, range.end).size());
  }
}
