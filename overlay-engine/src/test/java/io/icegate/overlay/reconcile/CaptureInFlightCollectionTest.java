package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.icegate.access.delta.iceberg.ForwardingFileIO;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.generated.GeneratedFiles;
import io.icegate.overlay.generated.GeneratedFilesCollector;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.capture.DeletedCaptures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated files of a Delta capture in flight while its Table is deleted, or while another
 * gateway collects (the gap left by issue 26's deleted-table collection): a first capture has no
 * capture pointer until it publishes, so before its write lease nothing attributed its prefix to
 * the Catalog and the collector kept its files forever. Two gateways over one store (memory and
 * a SQLite file): the capturing one (a {@link ReconcileHarness} whose Catalog FileIO carries the
 * test's hooks, fired inside the capture) and another that deletes and collects. The warehouse
 * is an object store ({@link GeneratedWarehouse}); every clock runs two hours ahead of the
 * store's file times, so every file written looks older than the grace, as those of a capture
 * that has run longer than it.
 */
class CaptureInFlightCollectionTest {
  private static final String WAREHOUSE_SECRET = "warehouse-secret-41b9";
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();
  @RegisterExtension static final GeneratedWarehouse warehouse =
      new GeneratedWarehouse(WAREHOUSE_SECRET);
  private static final Duration GRACE = Duration.ofHours(1);

  private static int worlds;

  @TempDir Path scratch;

  private KvStore store;

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  /**
   * The Overlay deleted (on another gateway) while its Table's first capture writes: the files
   * the capture wrote before and after the deletion go a grace after the collector first saw the
   * Table deleted.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aFirstCaptureInFlightWhenItsOverlayIsDeletedLeavesNothingBehind(String kind)
      throws Exception {
    World w = new World(kind);
    w.hooks.beforeWrite(file -> true, w::deleteOverlay);
    w.reconcileThroughTheHook();
    assertThat(w.h.relations(w.catalog.id())).isEmpty();
    assertThat(w.listed()).isNotEmpty(); // written by the capture, never published

    GeneratedFilesCollector collector = w.collector();
    assertThat(collector.collect().deleted()).isZero(); // first seen deleted now
    w.clock.advance(GRACE.minusMinutes(1));
    assertThat(collector.collect().deleted()).isZero();
    w.clock.advance(Duration.ofMinutes(2));
    collector.collect();
    w.assertNothingLeft();
  }

  /**
   * The Overlay deleted while a first capture writes its first file, then more than a renewal
   * interval passes: the capture's next renewal finds the deletion and it writes nothing more
   * (no metadata file); what it wrote goes a grace later.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCaptureInFlightStopsWritingWhenItsRenewalFindsTheDeletion(String kind) throws Exception {
    World w = new World(kind);
    w.hooks.beforeWrite(file -> true, () -> {
      w.deleteOverlay();
      w.clock.advance(WriteLeases.RENEW_AFTER.plusSeconds(1));
    });
    w.reconcileThroughTheHook();
    assertThat(w.listed()).isNotEmpty().noneMatch(file -> file.endsWith(".metadata.json"));
    assertThat(w.pending()).hasSize(1);

    w.collectPastTheGrace();
    w.assertNothingLeft();
  }

  /**
   * The account deleted while a first capture writes: the deletion leaves the entry and the
   * Catalog's record and secret outside the account, and the collector takes the files.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aFirstCaptureInFlightWhenItsAccountIsDeletedLeavesNothingBehind(String kind)
      throws Exception {
    World w = new World(kind);
    w.hooks.beforeWrite(file -> true, () -> w.other.accountDeletion.delete(w.h.account,
        ExpectedGeneration.any()));
    w.reconcileThroughTheHook();
    assertThat(w.listed()).isNotEmpty();
    assertThat(w.pending()).hasSize(1);
    byte[] kept = w.store().read(tx -> tx.get(KeyLayout.generatedDeletedCatalog(w.h.account,
        w.catalog.id())));
    assertThat(kept).isNotNull();

    w.collectPastTheGrace();
    w.assertNothingLeft();
  }

  /**
   * The other order: the Overlay deleted after the capture read its targets but before it wrote
   * anything. Nothing may be written for a Table whose deletion is recorded: no collector could
   * attribute it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCaptureStartingAfterTheDeletionWritesNothing(String kind) throws Exception {
    World w = new World(kind);
    w.hooks.beforeOpen(w::deleteOverlay);
    w.reconcileThroughTheHook();
    w.assertNothingLeft();
  }

  /**
   * Another gateway collects while a live Table's first capture, running longer than the grace,
   * writes its metadata file: the manifests and manifest list it wrote before, which it is about
   * to publish, stay; once published, the capture's files are all there.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCollectorOnAnotherGatewayKeepsTheFilesOfACaptureInFlight(String kind) throws Exception {
    World w = new World(kind);
    GeneratedFilesCollector collector = w.collector();
    AtomicReference<Set<String>> before = new AtomicReference<>();
    AtomicInteger deletedInFlight = new AtomicInteger(-1);
    w.hooks.beforeWrite(file -> file.endsWith(".metadata.json"), () -> {
      before.set(w.listed());
      deletedInFlight.set(collector.collect().deleted());
    });
    assertThat(w.h.reconcile(w.overlay).warnings()).isEmpty();
    assertThat(w.hooks.fired()).isEqualTo(1);
    assertThat(before.get()).isNotEmpty();
    assertThat(deletedInFlight.get()).isZero();
    assertThat(w.listed()).containsAll(before.get());
    String tableId = w.h.relations(w.catalog.id()).get(w.namespace + ".orders").id();
    Captures.Capture capture = new Captures(w.h.repos).read(w.h.account, tableId).orElseThrow();
    TableMetadata published = TableMetadataParser.fromJson(new String(capture.metadataJson(),
        StandardCharsets.UTF_8));
    assertThat(w.listed()).contains(published.currentSnapshot().manifestListLocation());
    assertThat(w.leases()).isZero(); // the publication released it
    assertThat(collector.collect().deleted()).isZero(); // everything is referenced
  }

  /**
   * A capture that held its lease longer than the grace without renewing it: another gateway's
   * collector cleared the lease as stale and took the files older than the grace, so the capture
   * is not published (it would name collected manifests); the next round captures the table
   * whole.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCaptureWhoseLeaseLapsedIsNotPublishedAndTheNextRoundCapturesIt(String kind)
      throws Exception {
    World w = new World(kind);
    GeneratedFilesCollector collector = w.collector();
    AtomicInteger deletedInFlight = new AtomicInteger(-1);
    w.hooks.beforeWrite(file -> file.endsWith(".metadata.json"), () -> {
      w.clock.advance(GRACE.plusMinutes(2));
      deletedInFlight.set(collector.collect().deleted());
    });
    List<String> warnings = w.h.reconcile(w.overlay).warnings();
    assertThat(w.hooks.fired()).isEqualTo(1);
    assertThat(deletedInFlight.get()).isPositive(); // the manifests and the manifest list
    assertThat(warnings).anyMatch(warning -> warning.contains("write lease"));
    String tableId = w.h.relations(w.catalog.id()).get(w.namespace + ".orders").id();
    assertThat(new Captures(w.h.repos).read(w.h.account, tableId)).isEmpty();

    assertThat(w.h.reconcile(w.overlay).warnings()).isEmpty();
    Captures.Capture capture = new Captures(w.h.repos).read(w.h.account, tableId).orElseThrow();
    TableMetadata published = TableMetadataParser.fromJson(new String(capture.metadataJson(),
        StandardCharsets.UTF_8));
    collector.collect(); // the unpublished metadata file goes, nothing the capture names
    assertThat(w.listed()).contains(published.currentSnapshot().manifestListLocation(),
        capture.pointer().metadataFile());
  }

  /**
   * One Catalog on the object-store warehouse, one Delta table upstream selected by one Overlay
   * that has never been reconciled; the capturing gateway {@code h} and another, {@code other}.
   */
  private final class World {
    final MutableClock clock = new MutableClock(Instant.now().plus(Duration.ofHours(2)));
    final HookedFiles hooks;
    final ReconcileHarness h;
    final ReconcileHarness other;
    final Resource<Catalog> catalog;
    final String namespace;
    final String overlay;

    World(String kind) throws Exception {
      store = ReconcileHarness.openStore(kind, scratch);
      int n = ++worlds;
      hooks = new HookedFiles(catalogFiles());
      h = new ReconcileHarness(store, clock, hooks);
      other = h.another(store);
      catalog = warehouse.createCatalog(h, "lake" + n, "in-flight-" + n);
      String integration =
          h.unityIntegration("unity" + n, upstream.unity(), upstream.objects(), "main");
      namespace = "flight" + n;
      upstream.createAndServeOrders(scratch, namespace);
      overlay = h.overlay("o" + n, integration, catalog.id(), List.of(List.of(namespace)));
    }

    KvStore store() {
      return store;
    }

    void deleteOverlay() {
      other.overlays.delete(h.account, overlay, ExpectedGeneration.any());
    }

    /**
     * Reconciles the Overlay, whatever the run ends with (superseded, or its publication
     * skipped), with the hook the test armed fired once inside it.
     */
    void reconcileThroughTheHook() {
      catchThrowable(() -> h.reconcile(overlay));
      assertThat(hooks.fired()).isEqualTo(1);
    }

    /** A pass of {@link #collector()} that first sees the deletion, and one past the grace. */
    void collectPastTheGrace() {
      GeneratedFilesCollector collector = collector();
      collector.collect();
      clock.advance(GRACE.plusMinutes(1));
      collector.collect();
    }

    /** No generated file under the warehouse, no deleted-table entry, no write lease. */
    void assertNothingLeft() {
      assertThat(listed()).isEmpty();
      assertThat(pending()).isEmpty();
      assertThat(leases()).isZero();
    }

    /** The Catalog's FileIO as the gateway builds it (one cache per gateway). */
    CatalogFiles catalogFiles() {
      return warehouse.catalogFiles(() -> h.services.credentials());
    }

    /** A collector of the other gateway, on the shared clock. */
    GeneratedFilesCollector collector() {
      return new GeneratedFilesCollector(other.repos, other.services.credentials(),
          catalogFiles(), clock, GRACE);
    }

    /** Every generated file under the Catalog's warehouse, whatever Table it is of. */
    Set<String> listed() {
      Set<String> out = new TreeSet<>();
      String root = GeneratedFiles.location(catalog, "");
      for (FileInfo file : warehouse.io().listPrefix(root)) {
        out.add(file.location());
      }
      return out;
    }

    List<String> pending() {
      return store.read(tx -> new DeletedCaptures().of(tx, h.account, catalog.id())).stream()
          .map(DeletedCaptures.DeletedCapture::tableId).toList();
    }

    /** How many write leases are held, in every Catalog of the account. */
    int leases() {
      var range = KeyLayout.generatedDeletedOf(h.account).range();
      return (int) store.read(tx -> tx.getRange(range.begin, range.end)).stream()
          .filter(kv -> KeyLayout.generatedDeletedOf(h.account).unpack(kv.key()).size() == 3)
          .count();
    }
  }

  /**
   * The capturing gateway's Catalog FileIOs, with one hook the test arms: fired once, when a
   * capture asks for the Catalog's FileIO ({@link #beforeOpen}), or before the first file it
   * creates that a predicate accepts ({@link #beforeWrite}).
   */
  private static final class HookedFiles implements CatalogFiles {
    private final CatalogFiles delegate;
    private volatile Runnable onOpen;
    private volatile Predicate<String> writes;
    private volatile Runnable onWrite;
    private final AtomicInteger fired = new AtomicInteger();

    HookedFiles(CatalogFiles delegate) {
      this.delegate = delegate;
    }

    void beforeOpen(Runnable hook) {
      onOpen = hook;
    }

    void beforeWrite(Predicate<String> files, Runnable hook) {
      writes = files;
      onWrite = hook;
    }

    int fired() {
      return fired.get();
    }

    private void fire(Runnable hook) {
      if (hook != null && fired.compareAndSet(0, 1)) {
        hook.run();
      }
    }

    @Override
    public FileIO forCatalog(Resource<Catalog> catalog) {
      fire(onOpen);
      FileIO io = delegate.forCatalog(catalog);
      return new ForwardingFileIO(io) {
        @Override
        public OutputFile newOutputFile(String path) {
          if (onWrite != null && writes.test(path)) {
            fire(onWrite);
          }
          return super.newOutputFile(path);
        }
      };
    }
  }
}
