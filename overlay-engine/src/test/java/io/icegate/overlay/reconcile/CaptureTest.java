package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURED;
import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURE_FAILED;
import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURE_UNCHANGED;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.Range;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CaptureChunkCollector;
import io.icegate.overlay.store.capture.CaptureOutcome;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Capture (issue 10) against the real upstream Iceberg REST fixture over HTTP on loopback, with
 * the real core services on the in-memory store: reconcile captures the full table metadata of
 * managed Iceberg tables, a new upstream commit gives a new capture generation, an unchanged
 * upstream writes nothing, overlay delete removes the pointers and the chunk collector then
 * deletes the blobs after the grace period, sparing one written for a publication in flight.
 *
 * <p>Upstream commits append data files through iceberg-core's REST client as metadata only: the
 * files are not written (nothing here reads data files; validation is a later slice), which is
 * enough to produce real upstream snapshots, refs and snapshot log entries.
 */
class CaptureTest {
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  private KvStore store;
  private MutableClock clock;
  private ReconcileHarness h;

  @BeforeAll
  static void startUpstream() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.close();
    objects.close();
  }

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    clock = MutableClock.start();
    h = new ReconcileHarness(store, clock);
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  /** A fresh upstream namespace holding table {@code t}; returns the namespace name. */
  static String upstreamTable() {
    String ns = "cap" + NAMES.incrementAndGet();
    upstream.backingCatalog().createNamespace(Namespace.of(ns));
    upstream.backingCatalog().createTable(TableIdentifier.of(ns, "t"),
        IcebergRestFixture.ORDERS_SCHEMA);
    return ns;
  }

  static String append(String ns) {
    return CaptureTestUpstream.append(upstream, ns);
  }

  private String overlayOver(String ns) {
    String integration = h.integration("up" + ns, upstream);
    String catalog = h.catalog("c" + ns);
    return h.overlay("o" + ns, integration, catalog, List.of(List.of(ns)));
  }

  /** Every key and value of the capture subspaces and the table records, for "nothing written". */
  private List<String> captureState() {
    List<String> out = new ArrayList<>();
    store.read(tx -> {
      for (Range range : List.of(KeySubspace.CAPTURES.range(), KeySubspace.BLOBS.range(),
          KeySubspace.BLOB_MARKERS.range(),
          KeyLayout.resources(h.account, io.icegate.core.model.ResourceKind.TABLE).range())) {
        for (KeyValue kv : tx.getRange(range.begin, range.end)) {
          out.add(HexFormat.of().formatHex(kv.key()) + "=" + HexFormat.of().formatHex(kv.value()));
        }
      }
      return null;
    });
    return out;
  }

  @Test
  void reconcileCapturesCommitsAndAnUnchangedUpstreamWritesNothing() {
    String ns = upstreamTable();
    String firstLocation = append(ns);
    String overlay = overlayOver(ns);
    String catalog = h.repos.overlays(h.account).get(overlay).orElseThrow().spec().catalogId();

    ReconcileReport first = h.reconcile(overlay);
    assertThat(first.count(CAPTURED)).isEqualTo(1);
    assertThat(first.count(CAPTURE_UNCHANGED)).isZero();
    assertThat(first.count(CAPTURE_FAILED)).isZero();
    Resource<?> table = h.relations(catalog).get(ns + ".t");
    Captures captures = new Captures(h.repos);
    Captures.Capture capture = captures.read(h.account, table.id()).orElseThrow();
    assertThat(capture.pointer().captureGeneration()).isEqualTo(1);
    assertThat(capture.pointer().upstreamMetadataLocation()).isEqualTo(firstLocation);
    TableMetadata parsed = TableMetadataParser.fromJson(
        new String(capture.metadataJson(), StandardCharsets.UTF_8));
    TableMetadata upstreamNow = CaptureTestUpstream.current(upstream, ns);
    assertThat(parsed.snapshots()).hasSize(1);
    assertThat(parsed.currentSnapshot().snapshotId())
        .isEqualTo(upstreamNow.currentSnapshot().snapshotId());
    assertThat(parsed.refs()).containsKey("main");
    assertThat(parsed.snapshotLog()).hasSize(1);
    assertThat(parsed.uuid()).isEqualTo(upstreamNow.uuid());
    assertThat(((Table) table.spec()).properties())
        .containsEntry(Captures.CAPTURED_AT_PROPERTY, capture.pointer().capturedAt().toString());

    // A new upstream commit: the next reconcile captures generation 2 with both snapshots.
    clock.advance(Duration.ofMinutes(1));
    String secondLocation = append(ns);
    ReconcileReport second = h.reconcile(overlay);
    assertThat(second.count(CAPTURED)).isEqualTo(1);
    Captures.Capture next = captures.read(h.account, table.id()).orElseThrow();
    assertThat(next.pointer().captureGeneration()).isEqualTo(2);
    assertThat(next.pointer().upstreamMetadataLocation()).isEqualTo(secondLocation);
    assertThat(next.pointer().capturedAt()).isAfter(capture.pointer().capturedAt());
    TableMetadata parsedNext = TableMetadataParser.fromJson(
        new String(next.metadataJson(), StandardCharsets.UTF_8));
    assertThat(parsedNext.snapshots()).hasSize(2);
    assertThat(h.relations(catalog).get(ns + ".t").id()).isEqualTo(table.id());

    // Unchanged upstream: neither a reconcile nor a capture on request writes anything.
    List<String> before = captureState();
    var stats = store.stats();
    ReconcileReport third = h.reconcile(overlay);
    assertThat(third.count(CAPTURED)).isZero();
    assertThat(third.count(CAPTURE_UNCHANGED)).isEqualTo(1);
    CaptureReport requested = capture().capture(h.account, overlay);
    assertThat(requested.captured()).isZero();
    assertThat(requested.unchanged()).isEqualTo(1);
    assertThat(requested.failed()).isZero();
    assertThat(captureState()).isEqualTo(before);
    assertThat(store.stats().committedWrites()).isEqualTo(stats.committedWrites());
    assertThat(store.stats().mutations()).isEqualTo(stats.mutations());

    // A capture on request asks the upstream itself: a commit no reconcile saw is captured.
    String thirdLocation = append(ns);
    CaptureReport fresh = capture().capture(h.account, overlay);
    assertThat(fresh.captured()).isEqualTo(1);
    assertThat(captures.pointer(h.account, table.id()).orElseThrow().upstreamMetadataLocation())
        .isEqualTo(thirdLocation);
  }

  private OverlayCapture capture() {
    Reconciler reconciler = h.reconciler(ReconcileHook.NONE);
    return new OverlayCapture(reconciler, h.repos, h.adapter, h.clients,
        new ReconcileSettings(4, 2, Duration.ofMinutes(10)));
  }

  @Test
  void overlayDeleteRemovesCapturesAndTheCollectorDeletesTheirBlobsAfterTheGracePeriod() {
    String ns = upstreamTable();
    append(ns);
    String overlay = overlayOver(ns);
    String catalog = h.repos.overlays(h.account).get(overlay).orElseThrow().spec().catalogId();
    h.reconcile(overlay);
    String tableId = h.relations(catalog).get(ns + ".t").id();
    CapturePointer pointer = new Captures(h.repos).pointer(h.account, tableId).orElseThrow();
    CaptureChunkCollector collector =
        new CaptureChunkCollector(store, clock, Duration.ofHours(1));
    clock.advance(Duration.ofHours(2));
    assertThat(collector.collect()).as("a referenced blob is never collected").isZero();

    h.overlays.delete(h.account, overlay, ExpectedGeneration.any());
    assertThat(new Captures(h.repos).pointer(h.account, tableId)).isEmpty();
    assertThat(keys(KeySubspace.CAPTURES.range())).isZero();
    assertThat(keys(KeyLayout.blobChunks(pointer.digest()).range())).isPositive();

    clock.advance(Duration.ofHours(2));
    assertThat(collector.collect()).isEqualTo(1);
    assertThat(keys(KeySubspace.BLOBS.range())).isZero();
    assertThat(keys(KeySubspace.BLOB_MARKERS.range())).isZero();
  }

  @Test
  void accountDeletionRemovesCapturesAndTheCollectorThenDeletesTheBlob() {
    String ns = upstreamTable();
    append(ns);
    String overlay = overlayOver(ns);
    h.reconcile(overlay);
    assertThat(keys(KeySubspace.CAPTURES.range())).isEqualTo(1);
    h.accountDeletion.delete(h.account, ExpectedGeneration.any());
    assertThat(ContributionInvariants.checker(store).keysOfAccount(h.account)).isZero();
    assertThat(keys(KeySubspace.CAPTURES.range())).isZero();
    // the deletion's capture step forgets each pointer with its reference hint: the marker stays
    assertThat(keys(KeySubspace.BLOB_MARKERS.range())).as("marker only").isEqualTo(1);

    clock.advance(Duration.ofHours(2));
    assertThat(new CaptureChunkCollector(store, clock, Duration.ofHours(1)).collect())
        .isEqualTo(1);
    assertThat(keys(KeySubspace.BLOBS.range())).isZero();
    assertThat(keys(KeySubspace.BLOB_MARKERS.range())).isZero();
  }

  @Test
  void aTableGoneUpstreamIsACountedFailureWithAWarningAndAStaleGenerationIsSkipped() {
    String ns = upstreamTable();
    append(ns);
    String overlay = overlayOver(ns);
    String catalog = h.repos.overlays(h.account).get(overlay).orElseThrow().spec().catalogId();
    h.reconcile(overlay);
    String tableId = h.relations(catalog).get(ns + ".t").id();
    Captures captures = new Captures(h.repos);
    CapturePointer pointer = captures.pointer(h.account, tableId).orElseThrow();

    // A publication that read no pointer (generation 0) finds generation 1: nothing is written.
    List<String> before = captureState();
    assertThat(captures.publish(h.account, overlay, tableId, Optional.empty(),
        "s3://elsewhere/v2.json", "{}".getBytes(StandardCharsets.UTF_8), tx -> { }))
        .isInstanceOf(CaptureOutcome.Skipped.class);
    assertThat(captures.pointer(h.account, tableId)).contains(pointer);

    // A fence that refuses stops the publication before its pointer.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> captures.publish(h.account, overlay,
        tableId, Optional.of(pointer), "s3://elsewhere/v3.json",
        "{}".getBytes(StandardCharsets.UTF_8), tx -> {
          throw new IllegalStateException("superseded");
        })).hasMessage("superseded");
    assertThat(captures.pointer(h.account, tableId)).contains(pointer);

    upstream.backingCatalog().dropTable(TableIdentifier.of(ns, "t"), false);
    CaptureReport report = capture().capture(h.account, overlay);
    assertThat(report.failed()).isEqualTo(1);
    assertThat(report.captured()).isZero();
    assertThat(report.warnings()).singleElement().asString()
        .contains("capture of table " + ns + ".t failed", "NOT_FOUND");
    assertThat(captures.pointer(h.account, tableId)).contains(pointer);
    assertThat(before).isNotEmpty();
  }

  @Test
  void theCollectorSparesABlobWrittenForAPublicationInFlight() {
    String ns = upstreamTable();
    append(ns);
    String overlay = overlayOver(ns);
    String catalog = h.repos.overlays(h.account).get(overlay).orElseThrow().spec().catalogId();
    h.reconcile(overlay);
    String tableId = h.relations(catalog).get(ns + ".t").id();
    Captures captures = new Captures(h.repos);
    Optional<CapturePointer> read = captures.pointer(h.account, tableId);
    Blobs blobs = new Blobs(store, clock);
    String orphan = blobs.write("{\"orphan\":true}".getBytes(StandardCharsets.UTF_8));
    clock.advance(Duration.ofHours(2));

    // A publication in flight: its blob is written, its pointer transaction not yet run.
    byte[] inFlight = "{\"in-flight\":true}".getBytes(StandardCharsets.UTF_8);
    String pending = blobs.write(inFlight);
    CaptureChunkCollector collector =
        new CaptureChunkCollector(store, clock, Duration.ofHours(1));
    assertThat(collector.collect()).isEqualTo(1);
    assertThat(keys(KeyLayout.blobChunks(orphan).range())).isZero();
    assertThat(keys(KeyLayout.blobChunks(pending).range())).isPositive();

    // The publication completes (its write refreshed the marker; the pointer now names it).
    assertThat(captures.publish(h.account, overlay, tableId, read, "s3://elsewhere/v9.json",
        inFlight, tx -> { })).isInstanceOf(CaptureOutcome.Captured.class);
    clock.advance(Duration.ofHours(2));
    assertThat(collector.collect()).as("the old capture's blob is now unreferenced").isEqualTo(1);
    assertThat(captures.read(h.account, tableId).orElseThrow().metadataJson()).isEqualTo(inFlight);
  }

  @Test
  void theInvariantCheckerFlagsAPointerWhoseBlobIsGoneOrATableThatDisagrees() {
    String ns = upstreamTable();
    append(ns);
    String overlay = overlayOver(ns);
    String catalog = h.repos.overlays(h.account).get(overlay).orElseThrow().spec().catalogId();
    h.reconcile(overlay);
    String tableId = h.relations(catalog).get(ns + ".t").id();
    Captures.Capture capture = new Captures(h.repos).read(h.account, tableId).orElseThrow();
    Range chunks = KeyLayout.blobChunks(capture.pointer().digest()).range();
    store.run(tx -> {
      tx.clearRange(chunks.begin, chunks.end);
      return null;
    });
    assertThat(ContributionInvariants.checker(store).violations())
        .anyMatch(v -> v.contains("names blob") && v.contains("missing"));
    new Blobs(store, clock).write(capture.metadataJson());
    ContributionInvariants.checker(store).assertClean();

    Resource<Table> table = h.repos.tables(h.account).get(tableId).orElseThrow();
    h.repos.tables(h.account).update(tableId, ExpectedGeneration.any(),
        new Table(table.spec().catalogId(), table.spec().namespace(), table.spec().name(), null,
            java.util.Map.of(), table.spec().provenance()),
        io.icegate.core.repo.ChangeKind.METADATA);
    assertThat(ContributionInvariants.checker(store).violations())
        .anyMatch(v -> v.contains("captured at"));
    h.repos.tables(h.account).update(tableId, ExpectedGeneration.any(), table.spec(),
        io.icegate.core.repo.ChangeKind.METADATA);
  }

  private long keys(Range range) {
    return store.read(tx -> (long) tx.getRange(range.begin, range.end).size());
  }
}
