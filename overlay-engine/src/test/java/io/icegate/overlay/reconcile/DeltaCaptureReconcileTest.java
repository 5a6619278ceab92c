package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.UnityDeltaUpstream.LAKE;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.paging.PageRequest;
import io.icegate.overlay.generated.DeltaRefusal;
import io.icegate.overlay.generated.GeneratedFiles;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.Visibility;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26, capture: a reconcile of an Overlay on the Unity fixture captures each Delta table it
 * materializes (a real table written by Delta Kernel, on s3proxy, read with the keys Unity vends)
 * as Iceberg metadata whose generated files lie under the target Catalog's warehouse; a re-run
 * with no upstream commit writes nothing; a new commit appends a snapshot to the previous capture.
 * The capture is validated like an Iceberg one (data files through the upstream's credentials,
 * generated files through the Catalog's): clean is visible, a lost file hides the table.
 */
class DeltaCaptureReconcileTest extends ReconcileWorld {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();

  @Test
  void aUnityDeltaTableIsCapturedUnderTheWarehouseAndFollowsNewCommits() throws IOException {
    KernelTableWriter delta = upstream.createOrders(scratch, "gold/orders");
    long v1 = UnityDeltaUpstream.appendAndUpload(delta, "gold/orders", "EU", 1L, 2L);
    upstream.serveOrders("gold", "orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "gold", catalog, "gold");
    retain(overlay, "P1D"); // history kept (issue 28: the default is the current capture only)

    ReconcileReport first = h.reconcile(overlay);
    assertThat(first.warnings()).isEmpty();
    String tableId = h.relations(catalog).get("gold.orders").id();
    Captures captures = new Captures(h.repos);
    Captures.Capture one = captures.read(h.account, tableId).orElseThrow();
    assertThat(one.pointer().upstreamMetadataLocation())
        .isEqualTo("s3://" + LAKE + "/gold/orders/_delta_log/" + String.format("%020d.json", v1));
    TableMetadata m1 = UnityDeltaUpstream.metadata(one);
    assertThat(m1.formatVersion()).isEqualTo(2);
    assertThat(m1.snapshots()).hasSize(1);
    assertThat(m1.currentSnapshot().summary())
        .containsEntry(DeltaVersionCapture.DELTA_VERSION, "" + v1);
    String generated = "file:" + warehouse.toAbsolutePath() + "/" + GeneratedFiles.PREFIX
        + tableId + "/";
    assertThat(m1.currentSnapshot().manifestListLocation()).startsWith(generated);
    assertThat(UnityDeltaUpstream.dataFiles(m1, m1.currentSnapshot()))
        .containsExactly("s3://" + LAKE + "/gold/orders/region=EU=2");
    long filesAfterFirst = countFiles(warehouse);
    assertThat(filesAfterFirst).isPositive();

    // No upstream change: nothing read, nothing written.
    ReconcileReport again = h.reconcile(overlay);
    assertThat(again.warnings()).isEmpty();
    Captures.Capture same = captures.read(h.account, tableId).orElseThrow();
    assertThat(same.pointer()).isEqualTo(one.pointer());
    assertThat(countFiles(warehouse)).isEqualTo(filesAfterFirst);

    // A new commit: one more snapshot on top of the previous capture.
    long v2 = UnityDeltaUpstream.appendAndUpload(delta, "gold/orders", "US", 3L);
    ReconcileReport third = h.reconcile(overlay);
    assertThat(third.warnings()).isEmpty();
    Captures.Capture two = captures.read(h.account, tableId).orElseThrow();
    assertThat(two.pointer().captureGeneration()).isEqualTo(one.pointer().captureGeneration() + 1);
    assertThat(two.pointer().upstreamMetadataLocation()).endsWith(String.format("%020d.json", v2));
    TableMetadata m2 = UnityDeltaUpstream.metadata(two);
    assertThat(m2.snapshots()).extracting(Snapshot::snapshotId)
        .containsExactly(m1.currentSnapshot().snapshotId(), m2.currentSnapshot().snapshotId());
    assertThat(m2.currentSnapshot().parentId()).isEqualTo(m1.currentSnapshot().snapshotId());
    assertThat(UnityDeltaUpstream.dataFiles(m2, m2.currentSnapshot())).containsExactlyInAnyOrder(
        "s3://" + LAKE + "/gold/orders/region=EU=2", "s3://" + LAKE + "/gold/orders/region=US=1");
    assertThat(UnityDeltaUpstream.dataFiles(m2, m2.snapshot(m1.currentSnapshot().snapshotId())))
        .containsExactly("s3://" + LAKE + "/gold/orders/region=EU=2");
  }

  @Test
  void aCapturedDeltaTableIsValidatedLikeAnIcebergOne() {
    KernelTableWriter delta = upstream.createOrders(scratch, "silver/trades");
    UnityDeltaUpstream.append(delta, "silver/trades", "EU", 1L);
    UnityDeltaUpstream.appendAndUpload(delta, "silver/trades", "US", 2L);
    upstream.serveOrders("silver", "trades");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "silver", catalog, "silver");
    TableValidations validations = new TableValidations(h.repos);

    ReconcileReport first = h.reconcile(overlay);
    assertThat(first.warnings()).isEmpty();
    String tableId = h.relations(catalog).get("silver.trades").id();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);

    // A data file the upstream lost: revalidation finds it, the table is hidden and it is listed.
    String usFile = upstream.s3()
        .listObjectsV2(b -> b.bucket(LAKE).prefix("silver/trades/region=US/"))
        .contents().get(0).key();
    upstream.s3().deleteObject(b -> b.bucket(LAKE).key(usFile));
    assertThat(h.services.revalidation().revalidateTable(h.account, catalog, tableId).status()
        .errorCount()).isEqualTo(1);
    assertThat(visibility(validations, tableId)).isEqualTo(new Visibility.Failed(1));
    List<ValidationError> errors =
        validations.errors(h.account, tableId, PageRequest.first()).items();
    assertThat(errors).singleElement().satisfies(e -> {
      assertThat(e.tableFormat()).isEqualTo("DELTA");
      assertThat(e.filePath()).isEqualTo("s3://" + LAKE + "/" + usFile);
    });
    validations.setOverride(h.account, tableId, "known");
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
    assertThat(validations.clearOverride(h.account, tableId)).isTrue();
    assertThat(visibility(validations, tableId).visible()).isFalse();

    // The file is back and the upstream commits again: the clean capture makes it visible.
    UnityDeltaUpstream.appendAndUpload(delta, "silver/trades", "EU", 3L);
    ReconcileReport again = h.reconcile(overlay);
    assertThat(again.warnings()).isEmpty();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
  }

  @Test
  void aDeltaFeatureThatCannotBeServedHidesTheTableNamingFeatureAndCommit() {
    DeltaLogWriter log = new DeltaLogWriter(upstream.s3(), LAKE);
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    log.commitSchema("odd/elsewhere", 0, columns);
    String outside = "s3://" + LAKE + "/other/part-1.parquet";
    putCommit("odd/elsewhere", 1, "{\"add\":{\"path\":\"" + outside + "\",\"partitionValues\":{},"
        + "\"size\":10,\"modificationTime\":1,\"dataChange\":true,"
        + "\"stats\":\"{\\\"numRecords\\\":1}\"}}\n");
    upstream.unity().addTable("main", "odd", "elsewhere", "EXTERNAL", "DELTA",
        "s3://" + LAKE + "/odd/elsewhere", columns);
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "odd", catalog, "odd");
    TableValidations validations = new TableValidations(h.repos);

    ReconcileReport first = h.reconcile(overlay);
    String commit1 = "s3://" + LAKE + "/odd/elsewhere/_delta_log/" + String.format("%020d.json", 1);
    assertThat(first.warnings()).anySatisfy(w -> assertThat(w)
        .contains("odd.elsewhere refused").contains("data files outside the table location"));
    String tableId = h.relations(catalog).get("odd.elsewhere").id();
    assertThat(visibility(validations, tableId)).isEqualTo(new Visibility.Failed(1));
    assertThat(validations.errors(h.account, tableId, PageRequest.first()).items())
        .singleElement().satisfies(e -> {
          assertThat(e.filePath()).isEqualTo(commit1);
          assertThat(e.message()).contains("data files outside the table location");
        });
    // the same version again: nothing new, still hidden
    h.reconcile(overlay);
    assertThat(visibility(validations, tableId)).isEqualTo(new Visibility.Failed(1));

    // the upstream removes the file: a clean capture, visible again
    putCommit("odd/elsewhere", 2, "{\"remove\":{\"path\":\"" + outside + "\","
        + "\"deletionTimestamp\":2,\"dataChange\":true}}\n");
    ReconcileReport fixed = h.reconcile(overlay);
    assertThat(fixed.warnings()).isEmpty();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
    TableMetadata clean = UnityDeltaUpstream.metadata(new Captures(h.repos).read(h.account, tableId).orElseThrow());
    assertThat(clean.properties()).doesNotContainKey(DeltaRefusal.FEATURE);
    assertThat(clean.currentSnapshot().summary()).containsEntry(DeltaVersionCapture.DELTA_VERSION,
        "2");
  }

  /**
   * Delta Sharing: the version the share serves is captured (not the newest in the log), read
   * with the directory-access credentials the share vends; a table offered with url access only
   * is refused by name and stays uncaptured.
   */
  @Test
  void aDeltaSharingTableIsCapturedAtTheServedVersionAndUrlOnlyIsRefusedByName()
      throws Exception {
    KernelTableWriter delta = upstream.createOrders(scratch, "shared/orders");
    long served = UnityDeltaUpstream.append(delta, "shared/orders", "EU", 1L);
    UnityDeltaUpstream.appendAndUpload(delta, "shared/orders", "US", 2L);
    String schema = delta.snapshot("shared/orders").getSchema().toJson();
    try (DeltaSharingFixture sharing = DeltaSharingFixture.start()) {
      sharing.vend(new DeltaSharingFixture.Keys(upstream.objects().accessKeyId(),
          upstream.objects().secretAccessKey(), "session"));
      sharing.put("partners", "feeds", "orders", new DeltaSharingFixture.Table("t-orders",
          "s3://" + LAKE + "/shared/orders", List.of("dir"), served, schema, true,
          List.of("region")));
      sharing.put("partners", "feeds", "links", new DeltaSharingFixture.Table("t-links",
          "s3://" + LAKE + "/shared/orders", List.of("url"), served, schema, false,
          List.of("region")));
      String catalog = UnityDeltaUpstream.catalog(h, warehouse);
      String integration = h.sharingIntegration("sharing", sharing, upstream.objects());
      String overlay = h.overlay("feeds", integration, catalog,
          List.of(List.of("partners", "feeds")));

      ReconcileReport report = h.reconcile(overlay);
      assertThat(report.warnings()).singleElement().satisfies(w -> assertThat(w)
          .contains("partners.feeds.links").contains("UNSUPPORTED"));
      String tableId = h.relations(catalog).get("partners.feeds.orders").id();
      TableMetadata captured =
          UnityDeltaUpstream.metadata(new Captures(h.repos).read(h.account, tableId).orElseThrow());
      assertThat(captured.currentSnapshot().summary())
          .containsEntry(DeltaVersionCapture.DELTA_VERSION, "" + served);
      assertThat(UnityDeltaUpstream.dataFiles(captured, captured.currentSnapshot()))
          .containsExactly("s3://" + LAKE + "/shared/orders/region=EU=1");
      TableValidations validations = new TableValidations(h.repos);
      assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
      String links = h.relations(catalog).get("partners.feeds.links").id();
      assertThat(new Captures(h.repos).read(h.account, links)).isEmpty();
      assertThat(visibility(validations, links)).isEqualTo(Visibility.PENDING);
    }
  }

  /**
   * Issue 28, retention of a Delta table's captured history: without a retention only the current
   * capture's snapshot is kept (and the metadata log is empty); with one, snapshots and
   * metadata-log entries within it are kept; a shorter retention, read at the next capture, drops
   * what it no longer covers; the current snapshot is never dropped. On both stores.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void retentionPrunesCapturedHistoryButNeverTheCurrentSnapshot(String kind) throws Exception {
    UnityDelta table = unityDelta(kind, "kept");
    KernelTableWriter delta = table.delta();
    String path = table.path();
    String catalog = table.catalog();
    String overlay = table.overlay();
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get(table.namespace() + ".orders").id();
    Captures captures = new Captures(h.repos);

    // no retention: the current capture only
    long v2 = appendUs(delta, path, 2L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    TableMetadata second = served(captures.read(h.account, tableId).orElseThrow());
    assertThat(versions(second)).containsExactly(v2);
    assertThat(second.previousFiles()).isEmpty();
    assertThat(UnityDeltaUpstream.dataFiles(second, second.currentSnapshot())).hasSize(2);

    // a retention of an hour keeps what it covers
    retain(overlay, "PT1H");
    long v3 = appendUs(delta, path, 3L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    TableMetadata third = served(captures.read(h.account, tableId).orElseThrow());
    assertThat(versions(third)).containsExactly(v2, v3);
    assertThat(third.previousFiles()).extracting(TableMetadata.MetadataLogEntry::file)
        .containsExactly(second.metadataFileLocation());

    // shortened: read at the next capture, it drops everything older but the current snapshot
    retain(overlay, "PT1S");
    Thread.sleep(1_500);
    long v4 = appendUs(delta, path, 4L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    TableMetadata fourth = served(captures.read(h.account, tableId).orElseThrow());
    assertThat(versions(fourth)).containsExactly(v4);
    assertThat(fourth.previousFiles()).isEmpty();
    assertThat(UnityDeltaUpstream.dataFiles(fourth, fourth.currentSnapshot())).hasSize(4);
  }

  /**
   * Issue 28: captured history expires while nothing changes upstream. A change-free round
   * commits no write while nothing expired; once the retention expired part of the history, the
   * next round prunes it without a new upstream commit (the capture republished at the same Delta
   * commit, still validated visible, nothing else published), and the round after writes nothing.
   * On both stores.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void expiredHistoryIsPrunedWithoutANewUpstreamCommit(String kind) throws Exception {
    UnityDelta table = unityDelta(kind, "expiring");
    KernelTableWriter delta = table.delta();
    String namespace = table.namespace();
    String path = table.path();
    String catalog = table.catalog();
    String overlay = table.overlay();
    retain(overlay, "PT1H");
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get(namespace + ".orders").id();
    long v2 = appendUs(delta, path, 2L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    Captures captures = new Captures(h.repos);
    assertThat(versions(served(captures.read(h.account, tableId).orElseThrow()))).hasSize(2)
        .endsWith(v2);
    Captures.Capture before = captures.read(h.account, tableId).orElseThrow();
    assertThat(before.pointer().historySinceMillis()).isNotNull();

    long writes = store.stats().committedWrites();
    h.reconcile(overlay); // nothing changed upstream, nothing expired
    assertThat(store.stats().committedWrites()).isEqualTo(writes);

    retain(overlay, "PT1S");
    Thread.sleep(1_500);
    ReconcileReport pruning = h.reconcile(overlay); // still no upstream commit
    assertThat(pruning.warnings()).isEmpty();
    assertThat(pruning.count(ReconcileCount.CAPTURED)).isEqualTo(1);
    assertThat(pruning.count(ReconcileCount.CREATED) + pruning.count(ReconcileCount.UPDATED)
        + pruning.count(ReconcileCount.RETIRED)).isZero();
    Captures.Capture pruned = captures.read(h.account, tableId).orElseThrow();
    assertThat(pruned.pointer().upstreamMetadataLocation())
        .isEqualTo(before.pointer().upstreamMetadataLocation());
    assertThat(pruned.pointer().captureGeneration())
        .isEqualTo(before.pointer().captureGeneration() + 1);
    assertThat(pruned.pointer().historySinceMillis()).isNull();
    TableMetadata kept = served(pruned);
    assertThat(versions(kept)).containsExactly(v2);
    assertThat(kept.previousFiles()).isEmpty();
    assertThat(UnityDeltaUpstream.dataFiles(kept, kept.currentSnapshot())).hasSize(2);
    assertThat(visibility(new TableValidations(h.repos), tableId)).isEqualTo(Visibility.VISIBLE);

    writes = store.stats().committedWrites();
    h.reconcile(overlay); // nothing left to expire
    assertThat(store.stats().committedWrites()).isEqualTo(writes);
  }

  /**
   * A Delta table {@code orders} (one EU row) in namespace {@code name + kind} of the Unity
   * fixture, and an Overlay {@code name} selecting that namespace into a new Catalog, on a fresh
   * store of {@code kind}; nothing reconciled yet.
   */
  private record UnityDelta(KernelTableWriter delta, String namespace, String path,
      String catalog, String overlay) {}

  private UnityDelta unityDelta(String kind, String name) throws Exception {
    store.close();
    store = ReconcileHarness.openStore(kind, scratch);
    h = new ReconcileHarness(store, Clock.systemUTC());
    String namespace = name + kind;
    String path = namespace + "/orders";
    KernelTableWriter delta = upstream.createOrders(scratch, path);
    UnityDeltaUpstream.appendAndUpload(delta, path, "EU", 1L);
    upstream.serveOrders(namespace, "orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, name, catalog, namespace);
    return new UnityDelta(delta, namespace, path, catalog, overlay);
  }

  private static long appendUs(KernelTableWriter delta, String path, long id) {
    return UnityDeltaUpstream.appendAndUpload(delta, path, "US", id);
  }

  /** Sets the Overlay's retention (a demand change: no configuration generation). */
  private void retain(String overlay, String retention) {
    h.overlays.update(h.account, overlay, ExpectedGeneration.any(), new OverlayPatch(null, null,
        null, null, null, null, Optional.of(retention), null));
  }

  /** The Delta versions of the captured snapshots, oldest first. */
  private static List<Long> versions(TableMetadata metadata) {
    return metadata.snapshots().stream()
        .map(s -> Long.parseLong(s.summary().get(DeltaVersionCapture.DELTA_VERSION))).toList();
  }

  /** A capture as served: at its metadata file, which holds exactly its bytes. */
  private static TableMetadata served(Captures.Capture capture) {
    assertThat(capture.pointer().metadataFile()).isNotNull();
    TableMetadata read = TableMetadataParser.read(new HadoopFileIO(new Configuration()),
        capture.pointer().metadataFile());
    assertThat(TableMetadataParser.toJson(read)).isEqualTo(TableMetadataParser.toJson(
        TableMetadataParser.fromJson(capture.pointer().metadataFile(),
            new String(capture.metadataJson(), StandardCharsets.UTF_8))));
    return read;
  }

  /**
   * Issue 26, incremental validation: a capture that extends a clean one checks only the files it
   * added (a file of the earlier version lost meanwhile goes unnoticed, as it would in a check of
   * the change), while a revalidation checks them all; and a time-travel snapshot whose file the
   * upstream vacuumed fails validation, naming the snapshot's Delta version.
   */
  @Test
  void validationChecksTheAddedFilesAndTimeTravelSnapshotsWhoseFilesAreGone() throws Exception {
    KernelTableWriter delta = upstream.createOrders(scratch, "inc/orders");
    UnityDeltaUpstream.appendAndUpload(delta, "inc/orders", "EU", 1L);
    upstream.serveOrders("inc", "orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "inc", catalog, "inc");
    retain(overlay, "P1D");
    TableValidations validations = new TableValidations(h.repos);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("inc.orders").id();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);

    // the EU file is lost (here and in the local copy, so no upload brings it back)
    String euKey = upstream.s3()
        .listObjectsV2(b -> b.bucket(LAKE).prefix("inc/orders/region=EU/"))
        .contents().get(0).key();
    upstream.s3().deleteObject(b -> b.bucket(LAKE).key(euKey));
    Files.delete(scratch.resolve(euKey));
    UnityDeltaUpstream.appendAndUpload(delta, "inc/orders", "US", 2L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
    // a revalidation checks every file
    assertThat(h.services.revalidation().revalidateTable(h.account, catalog, tableId).status()
        .errorCount()).isEqualTo(1);
    assertThat(validations.errors(h.account, tableId, PageRequest.first()).items())
        .singleElement().satisfies(e -> assertThat(e.filePath())
            .isEqualTo("s3://" + LAKE + "/" + euKey));

    // the upstream removes the lost file: the current snapshot is whole again, but the earlier
    // snapshots still name it, so time travel to them would miss rows: validation fails
    long v3 = delta.removeFiles("inc/orders", p -> p.contains("region=EU"));
    delta.uploadTable("inc/orders");
    assertThat(h.reconcile(overlay).warnings()).singleElement()
        .satisfies(w -> assertThat(w).contains("inc.orders").contains("1 validation error"));
    assertThat(visibility(validations, tableId)).isEqualTo(new Visibility.Failed(1));
    assertThat(validations.errors(h.account, tableId, PageRequest.first()).items())
        .singleElement().satisfies(e -> {
          assertThat(e.filePath()).isEqualTo("s3://" + LAKE + "/" + euKey);
          assertThat(e.message()).contains("time-travel snapshot").contains("Delta version 1)");
        });
    // without retention the next capture keeps only the current snapshot: visible again
    h.overlays.update(h.account, overlay, ExpectedGeneration.any(), new OverlayPatch(null, null,
        null, null, null, null, Optional.empty(), null));
    UnityDeltaUpstream.appendAndUpload(delta, "inc/orders", "US", 3L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(visibility(validations, tableId)).isEqualTo(Visibility.VISIBLE);
    assertThat(v3).isGreaterThan(1);
  }

  private static void putCommit(String path, long version, String body) {
    String key = path + "/_delta_log/" + String.format("%020d", version) + ".json";
    upstream.s3().putObject(b -> b.bucket(LAKE).key(key),
        software.amazon.awssdk.core.sync.RequestBody.fromString(body));
  }

  private Visibility visibility(TableValidations validations, String tableId) {
    return store.read(tx -> validations.visibility(tx, h.account,
        h.repos.tables(h.account).get(tx, tableId).orElseThrow()));
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).count();
    }
  }
}
