package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.model.ModelJson;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, "Async form and progress": a process killed while it runs an asynchronous reconcile
 * must not leave its operation RUNNING forever. The running process re-stores the operation's
 * record on a heartbeat; any process answers a RUNNING record it does not run and that was not
 * stored within the staleness bound as FAILED with RECONCILE_INTERRUPTED, and stores that answer.
 * Real core services on the in-memory store, the upstream Iceberg REST fixture over HTTP on
 * loopback. A second {@link ReconcileOperations} on the same store stands for another process;
 * a killed process is a record it stored (as RUNNING) and never stored again, since a JVM cannot
 * kill -9 a part of itself.
 */
class ReconcileOperationHeartbeatTest {
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  private KvStore store;
  private ReconcileHarness h;
  private OperationRecords records;
  private String overlay;

  @BeforeAll
  static void startUpstream() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects).seed();
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.close();
    objects.close();
  }

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, Clock.systemUTC());
    records = new OperationRecords(store);
    overlay = h.overlay("sales", h.integration("a", upstream), h.catalog("analytics"),
        List.of(List.of("sales")));
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  @Test
  void aRunningOperationsRecordIsRestoredOnTheHeartbeatAndStaysRunningElsewhere()
      throws Exception {
    CountDownLatch published = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Reconciler held = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPublishBatch(int batch) {
        if (batch == 0) {
          published.countDown();
          await(proceed);
        }
      }
    });
    Duration beat = Duration.ofMillis(100);
    Duration staleAfter = Duration.ofSeconds(2);
    try (ReconcileOperations running = new ReconcileOperations(held, records, Clock.systemUTC(),
            1, beat, staleAfter);
        ReconcileOperations elsewhere = new ReconcileOperations(h.reconciler(ReconcileHook.NONE),
            records, Clock.systemUTC(), 1, beat, staleAfter)) {
      ReconcileOperation started = running.submit(h.account, overlay);
      String id = started.id();
      // Stored at start; the run's thread may already have stored its first phase change.
      assertThat(started.updatedAtMillis()).isNotNull()
          .isGreaterThanOrEqualTo(started.startedAtMillis());
      await(published);

      // The blocked run stores nothing itself; the heartbeat re-stores its record, with the
      // phase and counts it has reached.
      ReconcileOperation first = stored(id);
      ReconcileOperation later = eventually(() -> stored(id),
          r -> r.updatedAtMillis() > first.updatedAtMillis());
      assertThat(later.state()).isEqualTo(ReconcileOperation.State.RUNNING);
      assertThat(later.phase()).isEqualTo("PUBLISH");
      assertThat(later.counts()).isEqualTo(running.get(h.account, id).orElseThrow().counts());
      assertThat(later.finishedAtMillis()).isNull();

      // Longer than the staleness bound after its start, another process still sees it running:
      // the heartbeat kept its record fresh.
      Thread.sleep(staleAfter.toMillis() + 500);
      ReconcileOperation seenElsewhere = elsewhere.get(h.account, id).orElseThrow();
      assertThat(seenElsewhere.state()).isEqualTo(ReconcileOperation.State.RUNNING);
      assertThat(seenElsewhere.startedAtMillis())
          .isLessThan(System.currentTimeMillis() - staleAfter.toMillis());
      assertThat(stored(id).state()).isEqualTo(ReconcileOperation.State.RUNNING);

      proceed.countDown();
      ReconcileOperation done = eventually(() -> elsewhere.get(h.account, id).orElseThrow(),
          r -> r.state() != ReconcileOperation.State.RUNNING);
      assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
      assertThat(done.report().count(CREATED)).isEqualTo(3);
      assertThat(done.updatedAtMillis()).isEqualTo(done.finishedAtMillis());
      // No heartbeat revives an ended operation.
      Thread.sleep(beat.toMillis() * 5);
      assertThat(stored(id)).isEqualTo(done);
    }
  }

  @Test
  void aRunningRecordNoLongerStoredIsAnsweredInterruptedOnceStaleAndThatAnswerIsStored() {
    MutableClock clock = new MutableClock(Instant.now());
    String id = "op-of-a-killed-process";
    ReconcileOperation running = new ReconcileOperation(id, overlay,
        ReconcileOperation.State.RUNNING, "DISCOVERY", Map.of("loaded", 7L), null, null,
        clock.millis() - 60_000, null, clock.millis());
    records.put(h.account, id, running);
    try (ReconcileOperations other = operations(clock)) {
      // Within the bound: the process that stored it may well be running it.
      clock.advance(ReconcileOperations.DEFAULT_STALE_AFTER);
      assertThat(other.get(h.account, id)).contains(running);
      assertThat(stored(id)).isEqualTo(running);

      clock.advance(Duration.ofMillis(1));
      ReconcileOperation failed = other.get(h.account, id).orElseThrow();
      assertThat(failed.state()).isEqualTo(ReconcileOperation.State.FAILED);
      assertThat(failed.problem().code()).isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());
      assertThat(failed.problem().status()).isEqualTo(500);
      assertThat(failed.problem().detail()).contains(id, overlay, "stopped before it finished",
          "can be reconciled again now");
      assertThat(failed.phase()).isEqualTo("DISCOVERY");
      assertThat(failed.counts()).isEqualTo(running.counts());
      assertThat(failed.startedAtMillis()).isEqualTo(running.startedAtMillis());
      assertThat(failed.finishedAtMillis()).isEqualTo(running.updatedAtMillis());
      assertThat(failed.updatedAtMillis()).isEqualTo(clock.millis());
      assertThat(failed.report()).isNull();

      // Stored, so the answer is stable here and anywhere else.
      assertThat(stored(id)).isEqualTo(failed);
      clock.advance(Duration.ofMinutes(5));
      assertThat(other.get(h.account, id)).contains(failed);
      try (ReconcileOperations third = operations(clock)) {
        assertThat(third.get(h.account, id)).contains(failed);
      }
    }
  }

  @Test
  void aRecordStoredBeforeTheHeartbeatExistedCountsFromItsStart() {
    MutableClock clock = new MutableClock(Instant.now());
    String id = "op-without-heartbeat";
    ObjectNode old = ModelJson.mapper().valueToTree(new ReconcileOperation(id, overlay,
        ReconcileOperation.State.RUNNING, "PREFLIGHT", Map.of(), null, null, clock.millis(),
        null, null));
    old.remove("updatedAtMillis");
    records.put(h.account, id, old);
    try (ReconcileOperations other = operations(clock)) {
      assertThat(other.get(h.account, id).orElseThrow().state())
          .isEqualTo(ReconcileOperation.State.RUNNING);
      clock.advance(ReconcileOperations.DEFAULT_STALE_AFTER.plusMillis(1));
      ReconcileOperation failed = other.get(h.account, id).orElseThrow();
      assertThat(failed.problem().code()).isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());
      assertThat(failed.finishedAtMillis()).isEqualTo(failed.startedAtMillis());
      assertThat(stored(id)).isEqualTo(failed);
    }
  }

  /**
   * A process died an hour ago in the middle of an asynchronous run that had published (its run
   * record RUNNING, its lease long lapsed): its operation is answered interrupted, and a new
   * asynchronous reconcile of the Overlay runs and supersedes the dead run's record.
   */
  @Test
  void afterAKilledRunTheOverlayIsReconciledAgain() throws Exception {
    Instant anHourAgo = Instant.now().minus(Duration.ofHours(1));
    String deadId = "op-killed-an-hour-ago";
    ReconcileRuns deadProcess = new ReconcileRuns(store, new MutableClock(anHourAgo),
        Duration.ofMinutes(10));
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) store.read(
        tx -> deadProcess.start(tx, h.account, overlay, deadId))).ticket();
    store.run(tx -> {
      deadProcess.record(tx, ticket);
      return null;
    });
    records.put(h.account, deadId, new ReconcileOperation(deadId, overlay,
        ReconcileOperation.State.RUNNING, "PUBLISH", Map.of("created", 2L), null, null,
        anHourAgo.toEpochMilli(), null, anHourAgo.toEpochMilli() + 20_000));

    try (ReconcileOperations restarted = new ReconcileOperations(
        h.reconciler(ReconcileHook.NONE), records, Clock.systemUTC(), 1)) {
      assertThat(restarted.get(h.account, deadId).orElseThrow().problem().code())
          .isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());

      ReconcileOperation again = restarted.submit(h.account, overlay);
      assertThat(again.id()).isNotEqualTo(deadId);
      ReconcileOperation done = eventually(() -> restarted.get(h.account, again.id())
          .orElseThrow(), r -> r.state() != ReconcileOperation.State.RUNNING);
      assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
      assertThat(done.report().count(CREATED)).isEqualTo(3);
      assertThat(done.report().runGeneration()).isEqualTo(2);
    }
    ReconcileRuns.Run run = h.runRecord(overlay).orElseThrow();
    assertThat(run.generation()).isEqualTo(2);
    assertThat(run.state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
    assertThat(stored(deadId).state()).isEqualTo(ReconcileOperation.State.FAILED);
  }

  /**
   * A dead run that had published holds the Overlay through its run record only until its
   * operation counts as interrupted (30 s after its last store), not until its lease lapses: up
   * to then a synchronous reconcile is refused and an asynchronous one joins the operation, which
   * still reads RUNNING; from then on a new reconcile takes over and fences the dead run out.
   */
  @Test
  void aDeadRunThatPublishedHoldsTheOverlayOnlyUntilItsOperationCountsInterrupted() {
    MutableClock clock = new MutableClock(Instant.now());
    String deadId = "op-killed-just-now";
    ReconcileRuns deadProcess = new ReconcileRuns(store, Clock.systemUTC(),
        Duration.ofMinutes(10));
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) store.read(
        tx -> deadProcess.start(tx, h.account, overlay, deadId))).ticket();
    store.run(tx -> {
      deadProcess.record(tx, ticket);
      return null;
    });
    records.put(h.account, deadId, new ReconcileOperation(deadId, overlay,
        ReconcileOperation.State.RUNNING, "PUBLISH", Map.of(), null, null, clock.millis(), null,
        clock.millis()));
    clock.advance(ReconcileOperations.DEFAULT_STALE_AFTER);
    try (ReconcileOperations restarted = operations(clock)) {
      ReconcileOperation joined = restarted.submit(h.account, overlay);
      assertThat(joined.id()).isEqualTo(deadId);
      assertThat(joined.state()).isEqualTo(ReconcileOperation.State.RUNNING);
      assertThatThrownBy(() -> restarted.reconcile(h.account, overlay)).isInstanceOfSatisfying(
          io.icegate.core.error.IcegateException.class,
          e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_IN_PROGRESS));

      clock.advance(Duration.ofMillis(1));
      // The dead run's lease (10 minutes here) still lives; its operation's verdict frees it.
      assertThat(h.runRecord(overlay).orElseThrow().leaseExpiresAtMillis())
          .isGreaterThan(System.currentTimeMillis() + 60_000);
      ReconcileReport report = restarted.reconcile(h.account, overlay);
      assertThat(report.count(CREATED)).isEqualTo(3);
      assertThat(report.runGeneration()).isEqualTo(2);
    }
    ReconcileRuns.Run run = h.runRecord(overlay).orElseThrow();
    assertThat(run.generation()).isEqualTo(2);
    assertThat(run.state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
    assertThat(stored(deadId).problem().code())
        .isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());
    assertThatThrownBy(() -> store.read(tx -> {
      deadProcess.assertCurrent(tx, ticket);
      return null;
    })).isInstanceOfSatisfying(io.icegate.core.error.IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED));
  }

  /** Operations with the default heartbeat and staleness bound on {@code clock}. */
  private ReconcileOperations operations(Clock clock) {
    return new ReconcileOperations(h.reconciler(ReconcileHook.NONE), records, clock, 1);
  }

  private ReconcileOperation stored(String id) {
    JsonNode json = records.get(h.account, id).orElseThrow();
    try {
      return ModelJson.mapper().treeToValue(json, ReconcileOperation.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Polls {@code read} until {@code done} holds (at most 20 s), returning the last value. */
  private static ReconcileOperation eventually(Supplier<ReconcileOperation> read,
      java.util.function.Predicate<ReconcileOperation> done) throws InterruptedException {
    ReconcileOperation last = read.get();
    for (int i = 0; i < 800 && !done.test(last); i++) {
      Thread.sleep(25);
      last = read.get();
    }
    assertThat(done.test(last)).as("condition on %s", last).isTrue();
    return last;
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(60, TimeUnit.SECONDS)).as("latch").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
