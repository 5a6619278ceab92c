package io.icegate.access.delta.iceberg;

import static io.icegate.access.delta.iceberg.HandWrittenCommits.addWithVector;
import static io.icegate.access.delta.iceberg.HandWrittenCommits.inlineVector;
import static io.icegate.access.delta.iceberg.HandWrittenCommits.remove;
import static io.icegate.access.delta.iceberg.HandWrittenCommits.storedVector;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Target;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;

/**
 * A capture from an earlier captured version reads only the commits since ({@link CommitChanges})
 * and must leave exactly what a full capture of the same version leaves: the same live data files
 * with the same partitions, record counts and bounds, the same deletes, the same rows. Tables are
 * written by Delta Kernel's own writer, checkpoints included; a log cleaned up past the earlier
 * version falls back to the full scan.
 */
class IncrementalCaptureTest extends LocalLakeTest {

  static final long TS = DeltaVersionCaptureTest.TS;

  Captured capture(String table, TableMetadata previous, String generated) {
    return lakes.capture(table, previous, generated);
  }

  Target target(String table, String generated) {
    return lakes.target(table, generated);
  }

  long append(String table, String region, long id) {
    return lakes.append(table, region, id);
  }

  @Test
  void severalCommitsWithRemovesCaptureAsAFullCaptureWould() {
    delta.create("orders", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("orders", "EU", 1);
    append("orders", "US", 2);
    append("orders", "EU", 3);
    Captured first = capture("orders", null, "orders");
    assertThat(first.incremental()).isFalse();
    assertThat(first.addedDataFiles()).hasSize(3);
    Set<String> before = livePaths(first.metadata());

    append("orders", "US", 4);
    delta.removeFiles("orders", p -> p.contains("region=EU"));
    append("orders", "EU", 5);
    delta.appendWithoutStats(
        "orders",
        Map.of("region", Literal.ofString("APAC")),
        List.<Object[]>of(new Object[] {6L, "n6", TS, "APAC"}));
    append("orders", "APAC", 7);
    AtomicBoolean one = new AtomicBoolean();
    delta.removeFiles("orders", p -> p.contains("region=APAC") && one.compareAndSet(false, true));
    Captured second = capture("orders", first.metadata(), "orders");

    assertThat(second.incremental()).isTrue();
    Captured full = capture("orders", null, "orders-full");
    assertThat(full.incremental()).isFalse();
    assertThat(liveState(second.metadata())).isEqualTo(liveState(full.metadata()));
    assertThat(rows(second.metadata()))
        .isEqualTo(rows(full.metadata()))
        .extracting(r -> r.get(0))
        .hasSize(4) // 2 and 4 (US), 5 (EU), one of 6 and 7 (APAC)
        .contains(2L, 4L, 5L);
    // what changed, for validation: the added files are exactly the new live ones
    Set<String> after = livePaths(second.metadata());
    assertThat(second.addedDataFiles().stream().map(ContentFile::location).collect(Collectors.toSet()))
        .isEqualTo(difference(after, before));
    assertThat(second.removedDataFiles()).containsAll(difference(before, after));
    // the earlier version stays readable
    assertThat(IcebergRows.read(table(second.metadata()), first.metadata().currentSnapshot().snapshotId(),
            Expressions.alwaysTrue()))
        .hasSize(3);
  }

  @Test
  void anAppendWritesOneManifestAndReusesEveryOther() {
    delta.create("grow", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    for (int i = 0; i < 5; i++) {
      append("grow", i % 2 == 0 ? "EU" : "US", i);
    }
    Captured first = capture("grow", null, "grow");
    append("grow", "EU", 10);
    Captured second = capture("grow", first.metadata(), "grow");

    assertThat(second.incremental()).isTrue();
    assertThat(second.addedDataFiles()).singleElement();
    assertThat(second.removedDataFiles()).isEmpty();
    Set<String> reused = paths(first.metadata().currentSnapshot().allManifests(io));
    assertThat(paths(second.metadata().currentSnapshot().allManifests(io)))
        .containsAll(reused)
        .hasSize(reused.size() + 1);
    // capturing the same version again reads nothing and changes nothing
    Captured again = capture("grow", second.metadata(), "grow");
    assertThat(again.metadata()).isSameAs(second.metadata());
    assertThat(again.addedDataFiles()).isEmpty();
  }

  @Test
  void aRemovalRewritesOnlyTheManifestsOfItsPartition() {
    delta.create("parts", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("parts", "EU", 1);
    Captured eu = capture("parts", null, "parts");
    append("parts", "US", 2);
    Captured us = capture("parts", eu.metadata(), "parts");
    delta.removeFiles("parts", p -> p.contains("region=US"));
    Captured removed = capture("parts", us.metadata(), "parts");

    assertThat(removed.incremental()).isTrue();
    Set<String> euManifests = paths(eu.metadata().currentSnapshot().allManifests(io));
    Set<String> usManifests =
        difference(paths(us.metadata().currentSnapshot().allManifests(io)), euManifests);
    List<ManifestFile> now = removed.metadata().currentSnapshot().allManifests(io);
    // the EU manifest's partition range cannot hold the US file: kept as it is; the US one is
    // rewritten with the file marked deleted
    assertThat(paths(now)).containsAll(euManifests).doesNotContainAnyElementsOf(usManifests);
    assertThat(now)
        .filteredOn(m -> !euManifests.contains(m.path()))
        .singleElement()
        .satisfies(m -> assertThat(m.deletedFilesCount()).isEqualTo(1))
        .satisfies(m -> assertThat(m.existingFilesCount() + m.addedFilesCount()).isZero());
    assertThat(rows(removed.metadata())).containsExactly(List.of(1L, "n1", TS + 1, "EU"));
  }

  @Test
  void aCheckpointBetweenCapturesStillReadsOnlyTheCommits() {
    delta.create("ckpt", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("ckpt", "EU", 1);
    Captured first = capture("ckpt", null, "ckpt");
    append("ckpt", "US", 2);
    delta.checkpoint("ckpt");
    delta.removeFiles("ckpt", p -> p.contains("region=EU"));
    append("ckpt", "EU", 3);
    Captured second = capture("ckpt", first.metadata(), "ckpt");

    assertThat(second.incremental()).isTrue();
    assertThat(liveState(second.metadata()))
        .isEqualTo(liveState(capture("ckpt", null, "ckpt-full").metadata()));
    assertThat(rows(second.metadata())).extracting(r -> r.get(0)).containsExactly(2L, 3L);
  }

  @Test
  void aLogCleanedUpPastThePreviousCaptureFallsBackToTheFullScan() {
    delta.create("cleaned", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("cleaned", "EU", 1);
    long captured = append("cleaned", "US", 2);
    Captured first = capture("cleaned", null, "cleaned");
    delta.removeFiles("cleaned", p -> p.contains("region=EU"));
    long checkpointed = append("cleaned", "EU", 3);
    delta.checkpoint("cleaned");
    append("cleaned", "APAC", 4);
    deleteCommitsBefore("cleaned", checkpointed);
    assertThat(captured).isLessThan(checkpointed);
    Captured second = capture("cleaned", first.metadata(), "cleaned");

    assertThat(second.incremental()).isFalse();
    assertThat(liveState(second.metadata()))
        .isEqualTo(liveState(capture("cleaned", null, "cleaned-full").metadata()));
    assertThat(rows(second.metadata())).extracting(r -> r.get(0)).containsExactly(2L, 3L, 4L);
    // a full scan after an incremental history still only adds what changed
    assertThat(second.addedDataFiles()).hasSize(2);
  }

  @Test
  void aDeletionVectorAddedOrReplacedIsIncremental() throws IOException {
    delta.create(
        "dv",
        DeltaVersionCaptureTest.ORDERS,
        List.of("region"),
        Map.of("delta.enableDeletionVectors", "true"));
    delta.append(
        "dv",
        Map.of("region", Literal.ofString("EU")),
        List.<Object[]>of(
            new Object[] {1L, "a", TS, "EU"},
            new Object[] {2L, "b", TS, "EU"},
            new Object[] {3L, "c", TS, "EU"}));
    append("dv", "US", 4);
    Captured first = capture("dv", null, "dv");
    Map<String, Row> files = new TreeMap<>();
    delta
        .snapshot("dv")
        .getScanBuilder()
        .build()
        .getScanFiles(delta.engine(), true)
        .forEachRemaining(
            batch ->
                batch
                    .getRows()
                    .forEachRemaining(
                        row -> files.put(InternalScanFileUtils.getAddFileStatus(row).getPath(), row)));
    String eu = files.keySet().stream().filter(p -> p.contains("region=EU")).findFirst().orElseThrow();
    String relative = eu.substring(eu.indexOf("region=EU"));
    long size = InternalScanFileUtils.getAddFileStatus(files.get(eu)).getSize();
    // the physical file is unchanged: a writer restates its statistics with the vector (Delta
    // writes tightBounds=false then; the values stay those of the file)
    String stats =
        files
            .get(eu)
            .getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL)
            .getString(InternalScanFileUtils.ADD_FILE_STATS_ORDINAL);
    String oneDeleted = inlineVector(1); // row 1: id 2
    // as delta-spark writes a larger one: in a deletion vector file beside the data
    String twoDeleted = storedVector(lake.resolve("dv"), 0, 1); // rows 0 and 1: ids 1 and 2

    // a DELETE marks a row: the file is removed and added again with a vector
    long v = delta.snapshot("dv").getVersion();
    commit("dv", v + 1, remove(relative, size, null), addWithVector(relative, size, stats, oneDeleted));
    Captured second = capture("dv", first.metadata(), "dv");
    assertThat(second.incremental()).isTrue();
    assertThat(second.addedDataFiles()).isEmpty(); // the same file: only a delete file is added
    assertThat(rows(second.metadata())).extracting(r -> r.get(0)).containsExactly(1L, 3L, 4L);
    assertThat(liveState(second.metadata()))
        .isEqualTo(liveState(capture("dv", null, "dv-full-1").metadata()));

    // a second DELETE on the same file replaces its vector
    commit(
        "dv",
        v + 2,
        remove(relative, size, oneDeleted),
        addWithVector(relative, size, stats, twoDeleted));
    Captured third = capture("dv", second.metadata(), "dv");
    // the old delete file is removed by its location as the FileIO recorded it, the new one added
    assertThat(third.incremental()).isTrue();
    assertThat(third.addedDataFiles()).isEmpty();
    assertThat(third.removedDataFiles()).isEmpty();
    assertThat(rows(third.metadata())).extracting(r -> r.get(0)).containsExactly(3L, 4L);
    assertThat(liveState(third.metadata()))
        .isEqualTo(liveState(capture("dv", null, "dv-full-2").metadata()));
    // time travel: each version keeps its own deletes
    assertThat(
            IcebergRows.read(
                table(third.metadata()),
                second.metadata().currentSnapshot().snapshotId(),
                Expressions.alwaysTrue()))
        .extracting(r -> r.get(0))
        .containsExactly(1L, 3L, 4L);
  }

  @Test
  void aCaptureByPathLoadsTheNewVersionFromTheCommitsAndTheRecordedProtocolAndMetadata() {
    delta.create("bypath", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("bypath", "EU", 1);
    Captured first = captureByPath("bypath", null, Optional.empty());
    // the state is returned beside the metadata, never inside it (clients would see it)
    assertThat(first.metadata().properties().keySet())
        .doesNotContainAnyElementsOf(CapturedDeltaState.LEGACY_PROPERTIES);

    append("bypath", "US", 2);
    append("bypath", "EU", 3);
    // the last commit changes the metadata: the capture must see it without the checkpoint
    delta.changeProperties("bypath", Map.of("team.owner", "sales"));
    Captured second =
        captureByPath("bypath", first.metadata(), Optional.of(first.deltaState()));
    Captured full = capture("bypath", null, "bypath-full");

    assertThat(second.incremental()).isTrue();
    assertThat(second.addedDataFiles()).hasSize(2);
    assertThat(second.deltaState().toJson()).contains("sales");
    assertThat(second.deltaState().toJson()).isEqualTo(full.deltaState().toJson());
    assertThat(CapturedDeltaState.parse(second.deltaState().toJson()).orElseThrow().toJson())
        .isEqualTo(second.deltaState().toJson());
    assertThat(second.metadata().currentSnapshot().timestampMillis())
        .isEqualTo(full.metadata().currentSnapshot().timestampMillis());
    assertThat(liveState(second.metadata())).isEqualTo(liveState(full.metadata()));
    assertThat(rows(second.metadata())).extracting(r -> r.get(0)).containsExactly(1L, 2L, 3L);
  }

  /**
   * A capture made before the Delta state left the metadata kept it in two table properties: read
   * back as the state, they let the next capture load the version from the commits alone, and that
   * capture drops them.
   */
  @Test
  void theStateOfACaptureThatKeptItInTablePropertiesIsReadOnceAndDropped() throws IOException {
    delta.create("legacy", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("legacy", "EU", 1);
    Captured first = captureByPath("legacy", null, Optional.empty());
    JsonNode state = new ObjectMapper().readTree(first.deltaState().toJson());
    TableMetadata legacy =
        TableMetadata.buildFrom(first.metadata())
            .setProperties(
                Map.of(
                    "icegate.delta.protocol", state.get("protocol").toString(),
                    "icegate.delta.metadata", state.get("metadata").toString()))
            .build();
    Optional<CapturedDeltaState> read = CapturedDeltaState.fromLegacyProperties(legacy);
    assertThat(read).isPresent();
    // the protocol and metadata; a stamp of the commit file was never kept in properties
    JsonNode legacyRead = new ObjectMapper().readTree(read.get().toJson());
    assertThat(legacyRead.get("protocol")).isEqualTo(state.get("protocol"));
    assertThat(legacyRead.get("metadata")).isEqualTo(state.get("metadata"));
    assertThat(legacyRead.has("commit")).isFalse();

    append("legacy", "US", 2);
    Captured second = captureByPath("legacy", legacy, read);
    assertThat(second.incremental()).isTrue();
    assertThat(second.addedDataFiles()).hasSize(1);
    assertThat(second.metadata().properties().keySet())
        .doesNotContainAnyElementsOf(CapturedDeltaState.LEGACY_PROPERTIES);
    assertThat(rows(second.metadata())).extracting(r -> r.get(0)).containsExactly(1L, 2L);
  }

  Captured captureByPath(
      String table, TableMetadata previous, Optional<CapturedDeltaState> previousState) {
    return DeltaVersionCapture.captureChanges(
        delta.engine(),
        delta.location(table),
        Optional.empty(),
        previous,
        previousState,
        target(table, table));
  }

  // --- helpers ---

  BaseTable table(TableMetadata metadata) {
    return CapturedTables.table(io, metadata);
  }

  List<List<Object>> rows(TableMetadata metadata) {
    return CapturedTables.rows(io, metadata);
  }

  Map<String, List<Object>> liveState(TableMetadata metadata) {
    return CapturedTables.liveState(io, metadata);
  }

  Set<String> livePaths(TableMetadata metadata) {
    return liveState(metadata).keySet();
  }

  /** What a log cleanup after a checkpoint leaves: the commits before it are gone. */
  void deleteCommitsBefore(String table, long version) {
    HandWrittenCommits.deleteCommitsBefore(lake.resolve(table), version);
  }

  void commit(String table, long version, String... actions) throws IOException {
    HandWrittenCommits.commit(lake.resolve(table), version, actions);
  }

  static Set<String> paths(List<ManifestFile> manifests) {
    return manifests.stream().map(ManifestFile::path).collect(Collectors.toSet());
  }

  static Set<String> difference(Set<String> a, Set<String> b) {
    return a.stream().filter(x -> !b.contains(x)).collect(Collectors.toSet());
  }
}
