package io.icegate.core.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import java.time.Duration;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Run records: start writes nothing, the first publication takes the generation, the newer start
 * wins, a live lease blocks a start and a lapsed one does not, a run that wrote nothing finishes
 * without a transaction.
 */
class ReconcileRunsTest {
  private final KvStore store = new EngineKvStore(InMemoryEngine.create());
  private final MutableClock clock = MutableClock.start();
  private final ReconcileRuns runs = new ReconcileRuns(store, clock, Duration.ofMinutes(1));
  /** Where Overlay "ov"'s record lives: a run's end is written only while it exists. */
  private static final byte[] OVERLAY_RECORD =
      KeyLayout.resource(new ResourceRef("acct", ResourceKind.OVERLAY, "ov"));

  private ReconcileRuns.Start start(String operationId) {
    return store.read(tx -> runs.start(tx, "acct", "ov", operationId));
  }

  /** Starts a run, then moves the clock so the next start is strictly later. */
  private ReconcileRuns.Ticket started(String operationId) {
    ReconcileRuns.Start start = start(operationId);
    assertThat(start).isInstanceOf(ReconcileRuns.Started.class);
    clock.advance(Duration.ofMillis(1));
    return ((ReconcileRuns.Started) start).ticket();
  }

  /** A run's first publication, of an Overlay that exists (written with it, as it stands in). */
  private void record(ReconcileRuns.Ticket ticket) {
    store.run(tx -> {
      tx.set(OVERLAY_RECORD, "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      runs.record(tx, ticket);
      return null;
    });
  }

  private void assertCurrent(ReconcileRuns.Ticket ticket) {
    store.read(tx -> {
      runs.assertCurrent(tx, ticket);
      return null;
    });
  }

  private static void assertSuperseded(ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED));
  }

  private Optional<ReconcileRuns.Run> record() {
    return store.read(tx -> runs.read(tx, "acct", "ov"));
  }

  private ReconcileRuns.Run stored() {
    return record().orElseThrow();
  }

  @Test
  void aRunOfAnOverlayDeletedMeanwhileDoesNotWriteItsEnd() {
    ReconcileRuns.Ticket ticket = started("op1");
    record(ticket);
    store.run(tx -> {
      tx.clear(OVERLAY_RECORD); // its delete or its Integration's cascade
      return null;
    });
    runs.finish(ticket, true);
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.RUNNING);
  }

  @Test
  void aRunThatWritesNothingLeavesNoTrace() {
    long writes = store.stats().committedWrites();
    ReconcileRuns.Ticket ticket = started("op1");
    assertCurrent(ticket);
    runs.finish(ticket, true);
    assertThat(store.stats().committedWrites()).isEqualTo(writes);
    assertThat(store.stats().mutations()).isZero();
    assertThat(record()).isEmpty();
    assertThat(ticket.generation()).isZero();
    // The next run observes the same world and takes the first generation.
    ReconcileRuns.Ticket next = started("op2");
    record(next);
    assertThat(stored().generation()).isEqualTo(1);
    assertThat(next.generation()).isEqualTo(1);
  }

  @Test
  void theFirstPublicationTakesTheGenerationAndLaterOnesRenewTheLease() {
    ReconcileRuns.Ticket ticket = started("op1");
    record(ticket);
    ReconcileRuns.Run first = stored();
    assertThat(first).isEqualTo(new ReconcileRuns.Run(1, ReconcileRuns.State.RUNNING, "op1",
        ticket.startedAtMillis(), clock.millis() + Duration.ofMinutes(1).toMillis()));
    clock.advance(Duration.ofSeconds(30));
    record(ticket);
    assertThat(stored().generation()).isEqualTo(1);
    assertThat(stored().leaseExpiresAtMillis())
        .isEqualTo(first.leaseExpiresAtMillis() + Duration.ofSeconds(30).toMillis());
    runs.finish(ticket, true);
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
    assertThat(stored().generation()).isEqualTo(1);

    // After a finished run, the next one observes generation 1 and takes 2.
    ReconcileRuns.Ticket second = started("op2");
    assertThat(second.observedGeneration()).isEqualTo(1);
    record(second);
    assertThat(stored().generation()).isEqualTo(2);
  }

  @Test
  void aWriteThatDidNotCommitDoesNotCountAsTheRunsOwn() {
    ReconcileRuns.Ticket ticket = started("op1");
    // The first publishing transaction fails after the fence wrote the record: nothing commits.
    assertThatThrownBy(() -> store.run(tx -> {
      runs.record(tx, ticket);
      throw new IllegalStateException("publication failed");
    })).isInstanceOf(IllegalStateException.class);
    assertThat(record()).isEmpty();
    // Its retry takes generation 1 as if first; a repeat of a committed write is its own.
    record(ticket);
    record(ticket);
    assertThat(stored().generation()).isEqualTo(1);
    assertThat(stored().operationId()).isEqualTo("op1");
  }

  @Test
  void aNewerRunThatPublishedFirstSupersedesAnOlderOne() {
    ReconcileRuns.Ticket older = started("older");
    ReconcileRuns.Ticket newer = started("newer");
    assertThat(older.observedGeneration()).isZero();
    assertThat(newer.observedGeneration()).isZero();
    record(newer);
    assertSuperseded(() -> assertCurrent(older));
    assertSuperseded(() -> record(older));
    // The older run's end leaves the newer record alone.
    runs.finish(older, false);
    assertThat(stored().operationId()).isEqualTo("newer");
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.RUNNING);
    assertCurrent(newer);
  }

  @Test
  void aNewerRunPublishingAfterAnOlderOneSupersedesIt() {
    ReconcileRuns.Ticket older = started("older");
    ReconcileRuns.Ticket newer = started("newer");
    record(older);
    assertThat(stored().generation()).isEqualTo(1);
    assertCurrent(newer); // an older run's record does not stop a newer one
    record(newer);
    assertThat(stored().generation()).isEqualTo(2);
    assertThat(stored().operationId()).isEqualTo("newer");
    assertSuperseded(() -> record(older));
    runs.finish(older, false);
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.RUNNING);
  }

  @Test
  void runsStartedInTheSameMillisecondLetTheFirstRecordWin() {
    ReconcileRuns.Ticket one = ((ReconcileRuns.Started) start("one")).ticket();
    ReconcileRuns.Ticket two = ((ReconcileRuns.Started) start("two")).ticket();
    record(two);
    assertSuperseded(() -> record(one));
    assertCurrent(two);
  }

  @Test
  void aLiveRecordBlocksAStartUntilItEndsOrItsLeaseLapses() {
    ReconcileRuns.Ticket holder = started("op1");
    // Before its first publication the holder is invisible to other processes.
    assertThat(start("op2")).isInstanceOf(ReconcileRuns.Started.class);
    record(holder);
    assertThat(start("op2")).isEqualTo(new ReconcileRuns.Busy("op1"));
    // Another Overlay is independent.
    ReconcileRuns.Start other = store.read(tx -> runs.start(tx, "acct", "other", "op3"));
    assertThat(other).isInstanceOf(ReconcileRuns.Started.class);
    runs.finish(holder, true);
    assertThat(start("op4")).isInstanceOf(ReconcileRuns.Started.class);

    // A holder that dies without finishing: once its lease lapses a new run starts and, at its
    // first publication, supersedes the dead one, whose late end leaves the newer record alone.
    ReconcileRuns.Ticket dead = started("op5");
    record(dead);
    assertThat(start("op6")).isEqualTo(new ReconcileRuns.Busy("op5"));
    clock.advance(Duration.ofMinutes(2));
    ReconcileRuns.Ticket takeover = started("op6");
    assertThat(takeover.observedGeneration()).isEqualTo(2);
    record(takeover);
    assertThat(stored().generation()).isEqualTo(3);
    assertSuperseded(() -> assertCurrent(dead));
    runs.finish(dead, false);
    assertCurrent(takeover);
  }

  @Test
  void renewalKeepsALiveHoldersLeaseAndNeverRevivesOrTouchesAnotherRecord() {
    ReconcileRuns.Ticket unwritten = started("op0");
    assertThat(runs.renew(unwritten)).isFalse(); // nothing recorded: nothing to renew
    assertThat(record()).isEmpty();

    ReconcileRuns.Ticket holder = started("op1");
    record(holder);
    // Renewed every 30 s, the holder's one-minute lease never lapses however long it runs.
    for (int i = 0; i < 10; i++) {
      clock.advance(Duration.ofSeconds(30));
      assertThat(runs.renew(holder)).isTrue();
      assertThat(start("op2")).isEqualTo(new ReconcileRuns.Busy("op1"));
    }
    assertThat(stored().leaseExpiresAtMillis()).isEqualTo(clock.millis() + 60_000);
    assertThat(stored().generation()).isEqualTo(1);

    runs.finish(holder, true);
    assertThat(runs.renew(holder)).isFalse();
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);

    // A holder taken over (lease lapsed, a newer run recorded) renews nothing of the newer run.
    ReconcileRuns.Ticket dead = started("op3");
    record(dead);
    clock.advance(Duration.ofMinutes(2));
    ReconcileRuns.Ticket newer = started("op4");
    record(newer);
    ReconcileRuns.Run newerRecord = stored();
    assertThat(runs.renew(dead)).isFalse();
    assertThat(stored()).isEqualTo(newerRecord);
  }

  @Test
  void aStartTakesOverALiveLeaseOnlyFromTheHolderTheCallerKnowsEnded() {
    ReconcileRuns.Ticket dead = started("op1");
    record(dead);
    ReconcileRuns.Start refused =
        store.read(tx -> runs.start(tx, "acct", "ov", "op2", "another-op"));
    assertThat(refused).isEqualTo(new ReconcileRuns.Busy("op1"));
    ReconcileRuns.Start takeover = store.read(tx -> runs.start(tx, "acct", "ov", "op2", "op1"));
    assertThat(takeover).isInstanceOf(ReconcileRuns.Started.class);
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) takeover).ticket();
    assertThat(ticket.observedGeneration()).isEqualTo(1);
    // Start wrote nothing: the dead holder may still publish until the newer run records.
    assertCurrent(dead);
    clock.advance(Duration.ofMillis(1));
    record(ticket);
    assertThat(stored().generation()).isEqualTo(2);
    assertSuperseded(() -> record(dead));
    assertThat(runs.renew(dead)).isFalse();
    runs.finish(dead, false);
    assertThat(stored().state()).isEqualTo(ReconcileRuns.State.RUNNING);
    assertThat(stored().operationId()).isEqualTo("op2");
  }
}
