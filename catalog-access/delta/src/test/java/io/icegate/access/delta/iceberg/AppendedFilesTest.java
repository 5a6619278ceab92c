package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.expressions.Literal;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.TableMetadata;
import org.junit.jupiter.api.Test;

/**
 * Commits that only add files are captured as an Iceberg append of a manifest the capture writes
 * itself ({@link AppendedFiles}), not through the row delta: the result must be what a full
 * capture of the same version leaves (files, partitions, counts, bounds, rows, snapshot totals),
 * and a table appended to capture after capture must keep a bounded number of manifests, as the
 * row delta's merging kept it. Tables are written by Delta Kernel's own writer.
 */
class AppendedFilesTest extends LocalLakeTest {



  @Test
  void appendedFilesAreAnAppendWithTheTotalsOfAFullCapture() {
    delta.create("orders", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    for (int i = 0; i < 4; i++) {
      append("orders", i % 2 == 0 ? "EU" : "US", i);
    }
    Captured first = capture("orders", null, "orders");
    append("orders", "EU", 10);
    append("orders", "APAC", 11);
    delta.append(
        "orders",
        Map.of("region", Literal.ofString("US")),
        List.<Object[]>of(
            new Object[] {12L, "n12", DeltaVersionCaptureTest.TS + 12, "US"},
            new Object[] {13L, "n13", DeltaVersionCaptureTest.TS + 13, "US"}));

    Captured appended = capture("orders", first.metadata(), "orders");
    Captured full = capture("orders", null, "orders-full");

    assertThat(appended.incremental()).isTrue();
    assertThat(appended.addedDataFiles()).hasSize(3);
    assertThat(appended.removedDataFiles()).isEmpty();
    Snapshot snapshot = appended.metadata().currentSnapshot();
    assertThat(snapshot.operation()).isEqualTo(DataOperations.APPEND);
    assertThat(snapshot.parentId()).isEqualTo(first.metadata().currentSnapshot().snapshotId());
    Map<String, String> summary = snapshot.summary();
    assertThat(summary)
        .containsEntry(SnapshotSummary.ADDED_FILES_PROP, "3")
        .containsEntry(SnapshotSummary.ADDED_RECORDS_PROP, "4")
        .containsEntry(
            SnapshotSummary.ADDED_FILE_SIZE_PROP,
            String.valueOf(
                appended.addedDataFiles().stream().mapToLong(f -> f.fileSizeInBytes()).sum()));
    Map<String, String> fullSummary = full.metadata().currentSnapshot().summary();
    for (String total :
        List.of(
            SnapshotSummary.TOTAL_DATA_FILES_PROP,
            SnapshotSummary.TOTAL_RECORDS_PROP,
            SnapshotSummary.TOTAL_FILE_SIZE_PROP)) {
      assertThat(summary.get(total)).as(total).isEqualTo(fullSummary.get(total));
    }
    assertThat(summary.get(DeltaVersionCapture.DELTA_VERSION))
        .isEqualTo(fullSummary.get(DeltaVersionCapture.DELTA_VERSION));
    // the written manifest is listed with the snapshot's id (inherited, not rewritten)
    assertThat(snapshot.dataManifests(io))
        .filteredOn(m -> m.snapshotId() == snapshot.snapshotId())
        .singleElement()
        .satisfies(m -> assertThat(m.addedFilesCount()).isEqualTo(3));
    assertThat(CapturedTables.liveState(io, appended.metadata()))
        .hasSize(7)
        .isEqualTo(CapturedTables.liveState(io, full.metadata()));
    assertThat(CapturedTables.rows(io, appended.metadata()))
        .containsExactlyInAnyOrderElementsOf(CapturedTables.rows(io, full.metadata()));
  }

  @Test
  void captureAfterCaptureOfAppendsKeepsTheManifestCountBounded() {
    delta.create("stream", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    append("stream", "EU", 0);
    Captured captured = capture("stream", null, "stream");
    int appends = 110; // more than iceberg-core's commit.manifest.min-count-to-merge (100)
    for (int i = 1; i <= appends; i++) {
      append("stream", i % 3 == 0 ? "EU" : "US", i);
      captured = capture("stream", captured.metadata(), "stream");
      assertThat(captured.incremental()).isTrue();
    }

    TableMetadata last = captured.metadata();
    assertThat(last.currentSnapshot().dataManifests(io)).hasSizeLessThanOrEqualTo(100);
    Captured full = capture("stream", null, "stream-full");
    assertThat(CapturedTables.liveState(io, last))
        .hasSize(appends + 1)
        .isEqualTo(CapturedTables.liveState(io, full.metadata()));
  }

  private Captured capture(String table, TableMetadata previous, String generated) {
    return lakes.capture(table, previous, generated);
  }

  private void append(String table, String region, long id) {
    lakes.append(table, region, id);
  }
}
