package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.iceberg.TableMetadataParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Capture publication under storage faults: tables captured once (one table; three tables in
 * batches of two), then an upstream commit to each, then a run whose every commit fails once with
 * every fault kind: a reconcile (each table captured in the transaction that publishes its new
 * definition) or a capture on request (blob and pointer transactions of its own). A reader polling the store
 * (without faults) throughout never sees a pointer whose blob is missing, a blob that digests
 * otherwise, or a pointer and table property from different publications, and its captured
 * JSON's snapshots are those of the pointer's metadata location; a retry converges to the newest
 * capture and the invariant checker holds.
 */
class CaptureFaultTest {
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;
  private static String ns;
  /** Three tables: with the harness's batch of 2, one pointer transaction holds two of them. */
  private static final String BATCHED_NS = "faultedbatch";
  private static final List<String> BATCHED = List.of("t", "u", "v");

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
    ns = "faulted";
    upstream.backingCatalog().createNamespace(org.apache.iceberg.catalog.Namespace.of(ns));
    upstream.backingCatalog().createTable(
        org.apache.iceberg.catalog.TableIdentifier.of(ns, "t"), IcebergRestFixture.ORDERS_SCHEMA);
    upstream.backingCatalog().createNamespace(
        org.apache.iceberg.catalog.Namespace.of(BATCHED_NS));
    for (String name : BATCHED) {
      upstream.backingCatalog().createTable(
          org.apache.iceberg.catalog.TableIdentifier.of(BATCHED_NS, name),
          IcebergRestFixture.ORDERS_SCHEMA);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
    objects.close();
  }

  /** Snapshot count of every upstream metadata location seen: what a capture of it must hold. */
  private static final Map<String, Integer> SNAPSHOTS = new ConcurrentHashMap<>();

  private record Setup(ReconcileHarness h, String overlay, String namespace, List<String> names,
      List<String> tableIds) {}

  private static Setup setUp(FaultWorld world, String namespace, List<String> names) {
    ReconcileHarness h = new ReconcileHarness(world.store, world.clock);
    String integration = h.integration("up", upstream);
    String catalog = h.catalog("c");
    String overlay = h.overlay("o", integration, catalog, List.of(List.of(namespace)));
    names.forEach(name -> appendUpstream(namespace, name));
    h.reconcile(overlay);
    List<String> tableIds = names.stream()
        .map(name -> h.relations(catalog).get(namespace + "." + name).id()).toList();
    names.forEach(name -> appendUpstream(namespace, name));
    world.clock.advance(Duration.ofSeconds(1));
    return new Setup(h, overlay, namespace, names, tableIds);
  }

  private static void appendUpstream(String namespace, String name) {
    CaptureTestUpstream.append(upstream, namespace, name);
    org.apache.iceberg.TableMetadata now = CaptureTestUpstream.current(upstream, namespace, name);
    SNAPSHOTS.put(now.metadataFileLocation(), now.snapshots().size());
  }

  /** The run under faults. */
  private enum Run {
    RECONCILE, CAPTURE_ON_REQUEST;

    void run(Setup s) {
      Reconciler reconciler = s.h().reconciler(ReconcileHook.NONE, Duration.ZERO);
      if (this == RECONCILE) {
        reconciler.reconcile(s.h().account, s.overlay());
      } else {
        new OverlayCapture(reconciler, s.h().repos, s.h().adapter, s.h().clients,
            new ReconcileSettings(4, 2, Duration.ZERO)).capture(s.h().account, s.overlay());
      }
    }
  }

  /** What a reader must never see, checked in one read of {@code store}. */
  private static void look(KvStore store, Repositories repos, String account, String tableId,
      List<String> seen) {
    store.read(tx -> {
      Optional<CapturePointer> pointer = new CapturePointers().get(tx, account, tableId);
      if (pointer.isEmpty()) {
        seen.add("no capture at all");
        return null;
      }
      Optional<byte[]> blob = Blobs.read(tx, pointer.get().digest());
      if (blob.isEmpty() || !Blobs.digest(blob.get()).equals(pointer.get().digest())) {
        seen.add("pointer " + pointer.get() + " names a missing or different blob");
        return null;
      }
      Table table = repos.tables(account).get(tx, tableId).orElseThrow().spec();
      if (!pointer.get().capturedAt().toString()
          .equals(table.properties().get(Captures.CAPTURED_AT_PROPERTY))) {
        seen.add("pointer and table property from different publications");
      }
      int snapshots = TableMetadataParser.fromJson(
          new String(blob.get(), StandardCharsets.UTF_8)).snapshots().size();
      Integer expected = SNAPSHOTS.get(pointer.get().upstreamMetadataLocation());
      if (expected == null || expected != snapshots) {
        seen.add("capture of " + pointer.get().upstreamMetadataLocation() + " holds " + snapshots
            + " snapshots");
      }
      return null;
    });
  }

  @ParameterizedTest
  @EnumSource(Run.class)
  void everyCommitOfCapturePublicationFailsOnceAndNoReaderSeesAMixedCapture(Run run)
      throws Exception {
    everyCommitFailsOnce(run, ns, List.of("t"));
  }

  /**
   * Three tables in batches of two: a fault in a blob or pointer transaction holding two tables
   * leaves both whole (published together or not at all), and the retry converges.
   */
  @ParameterizedTest
  @EnumSource(Run.class)
  void aFaultInTheMiddleOfAPointerBatchLeavesWholeCapturesAndTheRetryConverges(Run run)
      throws Exception {
    everyCommitFailsOnce(run, BATCHED_NS, BATCHED);
  }

  private static void everyCommitFailsOnce(Run run, String namespace, List<String> names)
      throws Exception {
    int commits;
    try (FaultWorld clean = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
        new ContributionInvariants())) {
      Setup s = setUp(clean, namespace, names);
      int before = clean.faults.commitsSeen();
      run.run(s);
      commits = clean.faults.commitsSeen() - before;
    }
    // a reconcile: the tables' update with their captures (writing the run record), then the
    // run's end; a capture on request: blob and pointer transactions too
    assertThat(commits).isGreaterThanOrEqualTo(run == Run.RECONCILE ? 2 : 4);
    int fired = 0;
    for (int commit = 1; commit <= commits; commit++) {
      for (Fault fault : Fault.values()) {
        InMemoryEngine engine = InMemoryEngine.create();
        try (FaultWorld world = FaultWorld.open(engine, new OverlayStore(),
            new ContributionInvariants())) {
          Setup s = setUp(world, namespace, names);
          KvStore reader = new EngineKvStore(engine);
          List<String> seen = new CopyOnWriteArrayList<>();
          AtomicBoolean running = new AtomicBoolean(true);
          Thread poller = new Thread(() -> {
            while (running.get()) {
              s.tableIds().forEach(id -> look(reader, s.h().repos, s.h().account, id, seen));
            }
          });
          poller.start();
          world.faults.failAt(world.faults.commitsSeen() + commit, fault);
          try {
            run.run(s);
          } catch (RuntimeException expected) {
            // the faulted run may fail; a reader must still see whole captures only
          }
          fired += world.faults.injected().size();
          run.run(s);
          running.set(false);
          poller.join();
          s.tableIds().forEach(id -> look(reader, s.h().repos, s.h().account, id, seen));
          assertThat(seen).isEmpty();
          for (int i = 0; i < names.size(); i++) {
            String newest = CaptureTestUpstream.current(upstream, namespace, names.get(i))
                .metadataFileLocation();
            CapturePointer pointer = new Captures(s.h().repos)
                .pointer(s.h().account, s.tableIds().get(i)).orElseThrow();
            assertThat(pointer.upstreamMetadataLocation()).isEqualTo(newest);
            assertThat(pointer.captureGeneration()).isEqualTo(2);
          }
          ContributionInvariants.checker(world.store).assertClean();
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError(run + " commit " + commit + " fault " + fault, e);
        }
      }
    }
    assertThat(fired).isEqualTo(commits * Fault.values().length);
  }
}
