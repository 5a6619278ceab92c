package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 8: a gateway killed during a reconcile that had already published must not hold the
 * Overlay for long. Its run record's lease is short and renewed by the running process's
 * heartbeat, and a start takes over at once from a holder whose operation counts as interrupted;
 * a holder that still heartbeats is never taken over, and a taken-over run that wakes up fails
 * its next fenced transaction. Real core services on the embedded SQLite store (a file in a
 * temporary directory), the upstream Iceberg REST fixture over HTTP on loopback. Another {@link
 * ReconcileOperations} or {@link Reconciler} on the same store stands for another process; a
 * killed process is a run record and operation record it stored and never stored again, or a
 * run blocked in a hook whose process's heartbeat never fires (a JVM cannot kill -9 a part of
 * itself).
 */
class ReconcileTakeoverTest {
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  @TempDir Path dir;
  private KvStore store;
  private OperationRecords records;

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
  void openStore() {
    store = SqliteKvStore.open(dir.resolve("icegate.db"));
    records = new OperationRecords(store);
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  /** The harness on {@code clock} and an Overlay of upstream {@code sales} (three relations). */
  private record World(ReconcileHarness h, String overlay, String catalog) {}

  private World world(Clock clock) {
    ReconcileHarness h = new ReconcileHarness(store, clock);
    String catalog = h.catalog("analytics");
    String overlay = h.overlay("sales", h.integration("a", upstream), catalog,
        List.of(List.of("sales")));
    return new World(h, overlay, catalog);
  }

  /**
   * An asynchronous run killed after it published, with the default lease (60 s) still live:
   * within the staleness bound a new request joins it (sync: 409); past it, a synchronous or an
   * asynchronous reconcile takes over at once and publishes generation 2.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sync", "async"})
  void aDeadAsynchronousHolderIsTakenOverOnceItsOperationCountsInterrupted(String form)
      throws Exception {
    World w = world(Clock.systemUTC());
    ReconcileHarness h = w.h();
    String deadId = "op-of-a-killed-gateway";
    ReconcileRuns deadProcess =
        new ReconcileRuns(store, Clock.systemUTC(), ReconcileSettings.DEFAULT_LEASE);
    ReconcileRuns.Ticket dead = recorded(deadProcess, h, w.overlay(), deadId);
    long now = System.currentTimeMillis();
    records.put(h.account, deadId, new ReconcileOperation(deadId, w.overlay(),
        ReconcileOperation.State.RUNNING, "PUBLISH", Map.of("created", 2L), null, null, now,
        null, now));

    MutableClock clock = new MutableClock(Instant.ofEpochMilli(now));
    try (ReconcileOperations restarted = new ReconcileOperations(
        h.reconciler(ReconcileHook.NONE, ReconcileSettings.DEFAULT_LEASE), records, clock, 1)) {
      clock.advance(ReconcileOperations.DEFAULT_STALE_AFTER);
      assertThat(restarted.submit(h.account, w.overlay()).id()).isEqualTo(deadId);
      assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
          () -> restarted.reconcile(h.account, w.overlay()));

      clock.advance(Duration.ofMillis(1));
      // Not the lease: the dead run's 60-second lease still lives on the server clock.
      assertThat(h.runRecord(w.overlay()).orElseThrow().leaseExpiresAtMillis())
          .isGreaterThan(System.currentTimeMillis());
      ReconcileReport report;
      if (form.equals("sync")) {
        report = restarted.reconcile(h.account, w.overlay());
      } else {
        ReconcileOperation again = restarted.submit(h.account, w.overlay());
        assertThat(again.id()).isNotEqualTo(deadId);
        ReconcileOperation done = eventually(() -> restarted.get(h.account, again.id())
            .orElseThrow(), r -> r.state() != ReconcileOperation.State.RUNNING);
        assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
        report = done.report();
      }
      assertThat(report.count(CREATED)).isEqualTo(3);
      assertThat(report.runGeneration()).isEqualTo(2);
    }
    ReconcileRuns.Run run = h.runRecord(w.overlay()).orElseThrow();
    assertThat(run.generation()).isEqualTo(2);
    assertThat(run.state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
    assertThat(stored(h, deadId).problem().code())
        .isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());
    assertFails(ErrorCode.RECONCILE_SUPERSEDED, () -> store.run(tx -> {
      deadProcess.record(tx, dead);
      return null;
    }));
  }

  /**
   * A synchronous run (no operation to judge) killed after it published holds the Overlay only
   * for its short lease, since nothing renews it any more: refused 59 s after its last write,
   * free after 60 s, for a synchronous and an asynchronous request alike.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sync", "async"})
  void aDeadSynchronousHolderFreesTheOverlayWhenItsShortLeaseLapses(String form)
      throws Exception {
    MutableClock clock = new MutableClock(Instant.now());
    World w = world(clock);
    ReconcileHarness h = w.h();
    recorded(new ReconcileRuns(store, clock, ReconcileSettings.DEFAULT_LEASE), h, w.overlay(),
        "a-synchronous-run");
    try (ReconcileOperations restarted = new ReconcileOperations(
        h.reconciler(ReconcileHook.NONE, ReconcileSettings.DEFAULT_LEASE), records, clock, 1)) {
      clock.advance(ReconcileSettings.DEFAULT_LEASE.minusSeconds(1));
      assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
          () -> restarted.reconcile(h.account, w.overlay()));
      assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
          () -> restarted.submit(h.account, w.overlay()));

      clock.advance(Duration.ofSeconds(1));
      ReconcileReport report;
      if (form.equals("sync")) {
        report = restarted.reconcile(h.account, w.overlay());
      } else {
        ReconcileOperation again = restarted.submit(h.account, w.overlay());
        report = eventually(() -> restarted.get(h.account, again.id()).orElseThrow(),
            r -> r.state() != ReconcileOperation.State.RUNNING).report();
      }
      assertThat(report.count(CREATED)).isEqualTo(3);
      assertThat(report.runGeneration()).isEqualTo(2);
    }
  }

  /**
   * A live run blocked (a slow upstream, say) for several times its lease and the staleness
   * bound, in a process whose heartbeat keeps renewing its lease and its operation: another
   * process never takes it over (an asynchronous request joins it, a synchronous one is refused),
   * and once unblocked it finishes as generation 1.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sync", "async"})
  void aSlowHolderThatKeepsHeartbeatingIsNeverTakenOver(String form) throws Exception {
    World w = world(Clock.systemUTC());
    ReconcileHarness h = w.h();
    // Real time: bounds wide enough that a loaded CI machine stalling a second or two does not
    // make the live holder look dead.
    Duration beat = Duration.ofMillis(100);
    Duration staleAfter = Duration.ofSeconds(4);
    Duration lease = Duration.ofSeconds(5);
    CountDownLatch published = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Reconciler slow = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPublishBatch(int batch) {
        if (batch == 0) {
          published.countDown();
          await(proceed);
        }
      }
    }, lease);
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (ReconcileOperations running =
            new ReconcileOperations(slow, records, Clock.systemUTC(), 1, beat, staleAfter);
        ReconcileOperations elsewhere = new ReconcileOperations(
            h.reconciler(ReconcileHook.NONE, lease), records, Clock.systemUTC(), 1, beat,
            staleAfter)) {
      Future<ReconcileReport> sync = null;
      String asyncId = null;
      if (form.equals("sync")) {
        sync = caller.submit(() -> running.reconcile(h.account, w.overlay()));
      } else {
        asyncId = running.submit(h.account, w.overlay()).id();
      }
      await(published);
      long firstLease = h.runRecord(w.overlay()).orElseThrow().leaseExpiresAtMillis();

      long until = System.currentTimeMillis() + lease.toMillis() * 3 / 2;
      while (System.currentTimeMillis() < until) {
        assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
            () -> elsewhere.reconcile(h.account, w.overlay()));
        if (asyncId == null) {
          assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
              () -> elsewhere.submit(h.account, w.overlay()));
        } else {
          ReconcileOperation joined = elsewhere.submit(h.account, w.overlay());
          assertThat(joined.id()).isEqualTo(asyncId);
          assertThat(joined.state()).isEqualTo(ReconcileOperation.State.RUNNING);
        }
        Thread.sleep(beat.toMillis());
      }
      ReconcileRuns.Run held = h.runRecord(w.overlay()).orElseThrow();
      assertThat(held.generation()).isEqualTo(1);
      assertThat(held.state()).isEqualTo(ReconcileRuns.State.RUNNING);
      assertThat(held.leaseExpiresAtMillis()).isGreaterThan(firstLease + lease.toMillis());

      proceed.countDown();
      ReconcileReport report;
      if (sync != null) {
        report = sync.get(60, TimeUnit.SECONDS);
      } else {
        String id = asyncId;
        ReconcileOperation done = eventually(() -> elsewhere.get(h.account, id).orElseThrow(),
            r -> r.state() != ReconcileOperation.State.RUNNING);
        assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
        report = done.report();
      }
      assertThat(report.count(CREATED)).isEqualTo(3);
      assertThat(report.runGeneration()).isEqualTo(1);
    } finally {
      proceed.countDown();
      caller.shutdownNow();
    }
    assertThat(h.runRecord(w.overlay()).orElseThrow().state())
        .isEqualTo(ReconcileRuns.State.SUCCEEDED);
  }

  /**
   * A run that published its first batch, then stalled while its process stopped heartbeating
   * (a long pause, a frozen VM), is taken over by another process once its operation counts as
   * interrupted; the newer run publishes generation 2. When the stalled run wakes, its next
   * fenced transaction fails with RECONCILE_SUPERSEDED: no relation, claim or run record
   * changes, and the only key it still writes is its own operation's end.
   */
  @Test
  void aZombieWakingAfterTheTakeoverFailsItsFenceAndChangesNothing() throws Exception {
    World w = world(Clock.systemUTC());
    ReconcileHarness h = w.h();
    CountDownLatch published = new CountDownLatch(1);
    CountDownLatch wake = new CountDownLatch(1);
    Reconciler stalled = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPublishBatch(int batch) {
        if (batch == 0) {
          published.countDown();
          await(wake);
        }
      }
    }, Duration.ofHours(3));
    // A heartbeat that never fires within the test: the process looks dead.
    try (ReconcileOperations zombieProcess = new ReconcileOperations(stalled, records,
        Clock.systemUTC(), 1, Duration.ofHours(1), Duration.ofHours(2))) {
      String zombieId = zombieProcess.submit(h.account, w.overlay()).id();
      await(published);
      assertThat(h.runRecord(w.overlay()).orElseThrow().operationId()).isEqualTo(zombieId);

      awaitNextMillisecond();
      MutableClock later = new MutableClock(Instant.now()
          .plus(ReconcileOperations.DEFAULT_STALE_AFTER).plusMillis(1));
      String newerId;
      try (ReconcileOperations other = new ReconcileOperations(h.reconciler(ReconcileHook.NONE),
          records, later, 1)) {
        ReconcileOperation newer = other.submit(h.account, w.overlay());
        newerId = newer.id();
        assertThat(newerId).isNotEqualTo(zombieId);
        ReconcileOperation done = eventually(() -> other.get(h.account, newerId).orElseThrow(),
            r -> r.state() != ReconcileOperation.State.RUNNING);
        assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
        assertThat(done.report().runGeneration()).isEqualTo(2);
      }
      assertThat(stored(h, zombieId).problem().code())
          .isEqualTo(ErrorCode.RECONCILE_INTERRUPTED.name());
      ReconcileOperation newerDone = stored(h, newerId);
      Map<String, String> before = h.content();

      wake.countDown();
      ReconcileOperation zombieEnd = eventually(() -> stored(h, zombieId),
          r -> r.problem() != null
              && !r.problem().code().equals(ErrorCode.RECONCILE_INTERRUPTED.name()));
      assertThat(zombieEnd.state()).isEqualTo(ReconcileOperation.State.FAILED);
      assertThat(zombieEnd.problem().code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED.name());

      Map<String, String> after = h.content();
      Set<String> changed = after.keySet().stream()
          .filter(k -> !after.get(k).equals(before.get(k))).collect(Collectors.toSet());
      changed.addAll(before.keySet().stream().filter(k -> !after.containsKey(k)).toList());
      assertThat(changed).containsExactly(
          HexFormat.of().formatHex(KeyLayout.operation(h.account, zombieId)));
      assertThat(stored(h, newerId)).isEqualTo(newerDone);
      ReconcileRuns.Run run = h.runRecord(w.overlay()).orElseThrow();
      assertThat(run.generation()).isEqualTo(2);
      assertThat(run.operationId()).isEqualTo(newerId);
      assertThat(run.state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
      assertThat(h.relations(w.catalog())).hasSize(3);
    } finally {
      wake.countDown();
    }
  }

  /**
   * Each phase change stores the operation (its heartbeat never fires here): what another
   * process reads at each hook is the phase just entered with the counts so far, so a run killed
   * early does not read STARTING with zero counts forever.
   */
  @Test
  void theOperationIsStoredWhenItsPhaseChanges() throws Exception {
    World w = world(Clock.systemUTC());
    ReconcileHarness h = w.h();
    List<String> seen = new CopyOnWriteArrayList<>();
    String[] id = new String[1];
    CountDownLatch submitted = new CountDownLatch(1);
    Reconciler observed = h.reconciler(new ReconcileHook() {
      private void see(String point) {
        await(submitted);
        ReconcileOperation stored = stored(h, id[0]);
        seen.add(point + ":" + stored.phase() + ":" + stored.counts().get("loaded") + ":"
            + stored.counts().get("created"));
      }

      @Override
      public void afterDiscovery(Inventory inventory) {
        see("afterDiscovery");
      }

      @Override
      public void afterPreflight(Inventory inventory) {
        see("afterPreflight");
      }

      @Override
      public void afterPublishBatch(int batch) {
        if (batch == 0) {
          see("afterPublishBatch");
        }
      }

      @Override
      public void afterRetirement(Inventory inventory) {
        see("afterRetirement");
      }

      @Override
      public void afterCapture(Inventory inventory) {
        see("afterCapture");
      }
    }, Duration.ofHours(3));
    try (ReconcileOperations operations = new ReconcileOperations(observed, records,
        Clock.systemUTC(), 1, Duration.ofHours(1), Duration.ofHours(2))) {
      ReconcileOperation started = operations.submit(h.account, w.overlay());
      id[0] = started.id();
      // the run's thread may already be in discovery when submit answers
      assertThat(started.phase()).isIn("STARTING", "DISCOVERY");
      submitted.countDown();
      ReconcileOperation done = eventually(() -> stored(h, id[0]),
          r -> r.state() != ReconcileOperation.State.RUNNING);
      assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
    }
    // Discovery's loads are counted during discovery and stored when preflight begins; the
    // publication's counts when retirement begins.
    assertThat(seen).containsExactly(
        "afterDiscovery:DISCOVERY:0:0",
        "afterPreflight:PREFLIGHT:3:0",
        "afterPublishBatch:PUBLISH:3:0",
        "afterRetirement:RETIRE:3:3",
        "afterCapture:CAPTURE:3:3");
  }

  /** Starts a run of {@code runs} and writes its record, as at its first publication. */
  private ReconcileRuns.Ticket recorded(ReconcileRuns runs, ReconcileHarness h, String overlay,
      String operationId) {
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) store.read(
        tx -> runs.start(tx, h.account, overlay, operationId))).ticket();
    store.run(tx -> {
      runs.record(tx, ticket);
      return null;
    });
    return ticket;
  }

  private ReconcileOperation stored(ReconcileHarness h, String id) {
    JsonNode json = records.get(h.account, id).orElseThrow();
    try {
      return ModelJson.mapper().treeToValue(json, ReconcileOperation.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void assertFails(ErrorCode code, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(code));
  }

  /** Polls {@code read} until {@code done} holds (at most 20 s), returning the last value. */
  private static ReconcileOperation eventually(Supplier<ReconcileOperation> read,
      Predicate<ReconcileOperation> done) throws InterruptedException {
    ReconcileOperation last = read.get();
    for (int i = 0; i < 800 && !done.test(last); i++) {
      Thread.sleep(25);
      last = read.get();
    }
    assertThat(done.test(last)).as("condition on %s", last).isTrue();
    return last;
  }

  /** Returns once the clock has moved past now, so a run started next starts strictly later. */
  private static void awaitNextMillisecond() {
    long now = Clock.systemUTC().millis();
    while (Clock.systemUTC().millis() <= now) {
      Thread.onSpinWait();
    }
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
