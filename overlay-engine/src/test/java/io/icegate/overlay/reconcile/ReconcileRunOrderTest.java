package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One run at a time per Overlay (issue 8) against the real upstream Iceberg REST fixture over HTTP
 * on loopback, with the real core services on the in-memory store. Runs write their record only at
 * their first publication, so these scenarios interleave runs with {@link ReconcileHook}s at the
 * points where that matters: before any write (only this process's registry refuses), after the
 * first publication (the live record refuses other processes), and between the publications of two
 * overlapping runs (the newer start wins). A second {@link Reconciler} on the same store stands for
 * another process.
 */
class ReconcileRunOrderTest {
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  private KvStore store;
  private ReconcileHarness h;
  private String overlay;
  private String catalog;

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

  /** An Overlay of upstream {@code sales}: two namespaces, then three relations in two batches. */
  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, Clock.systemUTC());
    catalog = h.catalog("analytics");
    overlay = h.overlay("sales", h.integration("a", upstream), catalog, List.of(List.of("sales")));
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  private static void assertFails(ErrorCode code, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(code));
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

  @Test
  void aSecondRunIsRefusedHereBeforeAnyWriteAndElsewhereOnceTheRecordIsLive() {
    AtomicBoolean armed = new AtomicBoolean(true);
    AtomicReference<Reconciler> self = new AtomicReference<>();
    Reconciler first = h.reconciler(new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        if (armed.get()) {
          // Nothing is written yet: this reconciler's registry is what refuses.
          assertThat(h.runRecord(overlay)).isEmpty();
          assertFails(ErrorCode.RECONCILE_IN_PROGRESS,
              () -> self.get().reconcile(h.account, overlay));
        }
      }

      @Override
      public void afterPublishBatch(int batch) {
        if (armed.get() && batch == 0) {
          // The first publication wrote a RUNNING record with a live lease: another process
          // (another reconciler on the store) is refused too.
          assertThat(h.runRecord(overlay)).hasValueSatisfying(run -> {
            assertThat(run.generation()).isEqualTo(1);
            assertThat(run.state()).isEqualTo(ReconcileRuns.State.RUNNING);
          });
          assertFails(ErrorCode.RECONCILE_IN_PROGRESS, () -> h.reconcile(overlay));
        }
      }
    });
    self.set(first);
    ReconcileReport report = first.reconcile(h.account, overlay);
    assertThat(report.count(CREATED)).isEqualTo(3);
    assertThat(report.runGeneration()).isEqualTo(1);
    assertThat(h.runRecord(overlay).orElseThrow().state())
        .isEqualTo(ReconcileRuns.State.SUCCEEDED);

    // The ended run no longer holds the Overlay, here or elsewhere; an unchanged re-run records
    // nothing and reports the last recorded generation.
    armed.set(false);
    assertThat(first.reconcile(h.account, overlay).count(UNCHANGED)).isEqualTo(3);
    assertThat(h.reconcile(overlay).runGeneration()).isEqualTo(1);
  }

  @Test
  void aFailedRunFreesTheOverlayInThisProcess() {
    AtomicBoolean fail = new AtomicBoolean(true);
    Reconciler reconciler = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPreflight(Inventory inventory) {
        if (fail.getAndSet(false)) {
          throw new IllegalStateException("injected");
        }
      }
    });
    assertThatThrownBy(() -> reconciler.reconcile(h.account, overlay))
        .isInstanceOf(IllegalStateException.class);
    assertThat(h.runRecord(overlay)).isEmpty(); // it failed before publishing: no trace
    assertThat(reconciler.reconcile(h.account, overlay).count(CREATED)).isEqualTo(3);
  }

  @Test
  void aSecondAsynchronousRequestJoinsTheRunningOperation() throws Exception {
    CountDownLatch discovered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Reconciler held = h.reconciler(new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        discovered.countDown();
        await(proceed);
      }
    });
    String id;
    try (ReconcileOperations operations =
        new ReconcileOperations(held, new OperationRecords(store), Clock.systemUTC(), 2)) {
      ReconcileOperation first = operations.submit(h.account, overlay);
      id = first.id();
      assertThat(first.state()).isEqualTo(ReconcileOperation.State.RUNNING);
      await(discovered);
      assertThat(operations.get(h.account, first.id()).orElseThrow().phase())
          .isEqualTo("DISCOVERY");
      // No run record yet: joining and refusing come from this process's registry.
      assertThat(h.runRecord(overlay)).isEmpty();
      assertThat(operations.submit(h.account, overlay).id()).isEqualTo(first.id());
      assertFails(ErrorCode.RECONCILE_IN_PROGRESS, () -> operations.reconcile(h.account, overlay));
      proceed.countDown();
      ReconcileOperation done = first;
      for (int i = 0; i < 400 && done.state() == ReconcileOperation.State.RUNNING; i++) {
        Thread.sleep(25);
        done = operations.get(h.account, first.id()).orElseThrow();
      }
      assertThat(done.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
      assertThat(done.report().count(CREATED)).isEqualTo(3);
      assertThat(done.counts()).containsEntry("created", 3L);
    }
    // The end is stored: another process (a fresh service on the same store) reads it.
    try (ReconcileOperations fresh = new ReconcileOperations(h.reconciler(ReconcileHook.NONE),
        new OperationRecords(store), Clock.systemUTC(), 1)) {
      ReconcileOperation stored = fresh.get(h.account, id).orElseThrow();
      assertThat(stored.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
      assertThat(stored.report().count(CREATED)).isEqualTo(3);
    }
  }

  /**
   * An older run (started first) meets, at its preflight check or at its first publishing
   * transaction, the record of a newer run (another process) that published meanwhile: it is
   * superseded and publishes nothing, not even its own run record.
   */
  @ParameterizedTest
  @ValueSource(strings = {"afterDiscovery", "afterPreflight"})
  void anOlderRunIsSupersededByANewerOneThatPublishedFirst(String point) {
    AtomicReference<Map<String, String>> afterNewer = new AtomicReference<>();
    Runnable newer = () -> {
      awaitNextMillisecond();
      ReconcileReport report = h.reconcile(overlay);
      assertThat(report.count(CREATED)).isEqualTo(3);
      afterNewer.set(h.content());
    };
    Reconciler older = h.reconciler(new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        if (point.equals("afterDiscovery")) {
          newer.run();
        }
      }

      @Override
      public void afterPreflight(Inventory inventory) {
        if (point.equals("afterPreflight")) {
          newer.run();
        }
      }
    });
    assertFails(ErrorCode.RECONCILE_SUPERSEDED, () -> older.reconcile(h.account, overlay));
    assertThat(h.content()).isEqualTo(afterNewer.get());
    assertThat(h.relations(catalog)).hasSize(3);
    assertThat(h.runRecord(overlay).orElseThrow().state())
        .isEqualTo(ReconcileRuns.State.SUCCEEDED);
  }

  /**
   * Both runs start before either writes; the older one publishes its first batch (taking
   * generation 1), then the newer one publishes (an older record: it takes generation 2) and
   * finishes; the older one's next batch is superseded.
   */
  @Test
  void aNewerRunPublishingAfterAnOlderOnesFirstBatchSupersedesIt() throws Exception {
    CountDownLatch newerBegan = new CountDownLatch(1);
    CountDownLatch olderPublished = new CountDownLatch(1);
    AtomicReference<Future<ReconcileReport>> newerRun = new AtomicReference<>();
    AtomicReference<ReconcileReport> newerReport = new AtomicReference<>();
    ExecutorService elsewhere = Executors.newSingleThreadExecutor();
    Reconciler newer = h.reconciler(new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        newerBegan.countDown();
        await(olderPublished);
      }
    });
    Reconciler older = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPreflight(Inventory inventory) {
        awaitNextMillisecond();
        newerRun.set(elsewhere.submit(() -> newer.reconcile(h.account, overlay)));
        await(newerBegan);
        assertThat(h.runRecord(overlay)).isEmpty();
      }

      @Override
      public void afterPublishBatch(int batch) {
        if (batch != 0) {
          return;
        }
        assertThat(h.runRecord(overlay).orElseThrow().generation()).isEqualTo(1);
        olderPublished.countDown();
        try {
          newerReport.set(newerRun.get().get(60, TimeUnit.SECONDS));
        } catch (Exception e) {
          throw new AssertionError("the newer run failed", e);
        }
      }
    });
    try {
      assertFails(ErrorCode.RECONCILE_SUPERSEDED, () -> older.reconcile(h.account, overlay));
    } finally {
      elsewhere.shutdownNow();
    }
    assertThat(newerReport.get().runGeneration()).isEqualTo(2);
    assertThat(newerReport.get().count(CREATED)).isEqualTo(3);
    ReconcileRuns.Run record = h.runRecord(overlay).orElseThrow();
    assertThat(record.generation()).isEqualTo(2);
    assertThat(record.state()).isEqualTo(ReconcileRuns.State.SUCCEEDED);
    assertThat(h.relations(catalog)).containsOnlyKeys("sales.orders", "sales.order_summary",
        "sales.emea.customers");
  }

  @Test
  void aHolderWhoseLeaseLapsedDoesNotBlockButALiveOneDoes() {
    // Another process's run wrote its record an hour ago at its first publication, then died.
    ReconcileRuns deadProcess = new ReconcileRuns(store,
        new MutableClock(Instant.now().minus(Duration.ofHours(1))), Duration.ofMinutes(10));
    write(deadProcess, "dead");
    ReconcileReport report = h.reconcile(overlay);
    assertThat(report.count(CREATED)).isEqualTo(3);
    assertThat(report.runGeneration()).isEqualTo(2);
    assertThat(h.runRecord(overlay).orElseThrow().state())
        .isEqualTo(ReconcileRuns.State.SUCCEEDED);

    // A run elsewhere that has published and whose lease lives holds the Overlay.
    write(new ReconcileRuns(store, Clock.systemUTC(), Duration.ofMinutes(10)), "alive");
    assertFails(ErrorCode.RECONCILE_IN_PROGRESS, () -> h.reconcile(overlay));
    try (ReconcileOperations operations = new ReconcileOperations(
        h.reconciler(ReconcileHook.NONE), new OperationRecords(store), Clock.systemUTC(), 1)) {
      // Its operation is not stored (a synchronous run): nothing to join.
      assertFails(ErrorCode.RECONCILE_IN_PROGRESS, () -> operations.submit(h.account, overlay));
    }
  }

  /** A run of {@code runs} that starts and writes its record, as at its first publication. */
  private void write(ReconcileRuns runs, String operationId) {
    ReconcileRuns.Start start = store.read(tx -> runs.start(tx, h.account, overlay, operationId));
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    store.run(tx -> {
      runs.record(tx, ticket);
      return null;
    });
  }
}
