package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.junit.jupiter.api.Test;

/**
 * A capture with no snapshot to compare with writes its manifests while Kernel's scan goes on
 * ({@link FirstCapture}, {@link StreamedManifests}) and must leave exactly what iceberg-core's row
 * delta leaves for the same version (the full scan against an earlier capture of the table, whose
 * commits were cleaned up): the same live files, partitions, record counts, bounds and rows. Tables
 * are written by Delta Kernel's own writer, with more files than one hand-over batch.
 */
class FirstCaptureTest extends LocalLakeTest {

  static final long TS = DeltaVersionCaptureTest.TS;



  @Test
  void aFirstCaptureAppendsStreamedManifestsAndLeavesWhatTheRowDeltaLeaves() throws IOException {
    delta.create("orders", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    copies("orders", "EU", 1, 1);
    Captured earlier = capture("orders", null, "orders-row-delta");
    copies("orders", "EU", 2, 300);
    copies("orders", "US", 3, 300);
    long checkpoint = delta.checkpoint("orders");
    copies("orders", "APAC", 4, 20);
    HandWrittenCommits.deleteCommitsBefore(lake.resolve("orders"), checkpoint);

    Captured first = capture("orders", null, "orders");
    // the full scan against the earlier capture goes through iceberg-core's row delta
    Captured rowDelta = capture("orders", earlier.metadata(), "orders-row-delta");

    assertThat(first.incremental()).isFalse();
    assertThat(rowDelta.incremental()).isFalse();
    Snapshot snapshot = first.metadata().currentSnapshot();
    assertThat(snapshot.operation()).isEqualTo(DataOperations.APPEND);
    assertThat(rowDelta.metadata().currentSnapshot().operation()).isNotEqualTo(DataOperations.APPEND);
    assertThat(CapturedTables.liveState(io, first.metadata()))
        .hasSize(621)
        .isEqualTo(CapturedTables.liveState(io, rowDelta.metadata()));
    assertThat(CapturedTables.rows(io, first.metadata()))
        .hasSize(621 * 2)
        .containsExactlyInAnyOrderElementsOf(CapturedTables.rows(io, rowDelta.metadata()));
    assertThat(first.addedDataFiles().stream().map(ContentFile::location).collect(Collectors.toSet()))
        .isEqualTo(CapturedTables.liveState(io, first.metadata()).keySet());
    // the manifests were written without a snapshot id: the snapshot gave them its own
    for (ManifestFile manifest : snapshot.dataManifests(io)) {
      assertThat(manifest.snapshotId()).isEqualTo(snapshot.snapshotId());
      assertThat(manifest.hasExistingFiles()).isFalse();
    }
    // the summary counts what the row delta's counts: files, records and bytes
    long bytes = first.addedDataFiles().stream().mapToLong(ContentFile::fileSizeInBytes).sum();
    assertThat(snapshot.summary())
        .containsEntry("added-data-files", "621")
        .containsEntry("total-data-files", "621")
        .containsEntry("total-records", "1242")
        .containsEntry("added-files-size", String.valueOf(bytes))
        .containsEntry("total-files-size", String.valueOf(bytes))
        .containsEntry(DeltaVersionCapture.DELTA_VERSION, String.valueOf(delta.snapshot("orders").getVersion()));
  }

  @Test
  void aDeletionVectorAfterStreamedFilesHandsThemToTheRowDeltaAndDropsTheirManifests()
      throws IOException {
    delta.create(
        "dv",
        DeltaVersionCaptureTest.ORDERS,
        List.of("region"),
        Map.of("delta.enableDeletionVectors", "true"));
    copies("dv", "EU", 1, 10);
    // one EU file gets a vector marking its first row; then a checkpoint holds it, and later
    // commits (which Kernel's log replay lists before the checkpoint) add more than one batch
    Row eu = scanRows("dv").get(0);
    String path = InternalScanFileUtils.getAddFileStatus(eu).getPath();
    String relative = path.substring(path.indexOf("region=EU"));
    long size = InternalScanFileUtils.getAddFileStatus(eu).getSize();
    String stats =
        eu.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL)
            .getString(InternalScanFileUtils.ADD_FILE_STATS_ORDINAL);
    long v = delta.snapshot("dv").getVersion();
    HandWrittenCommits.commit(
        lake.resolve("dv"),
        v + 1,
        HandWrittenCommits.remove(relative, size, null),
        HandWrittenCommits.addWithVector(
            relative, size, stats, HandWrittenCommits.inlineVector(0)));
    delta.checkpoint("dv");
    copies("dv", "US", 2, 600);

    Captured first = capture("dv", null, "dv");

    Snapshot snapshot = first.metadata().currentSnapshot();
    assertThat(snapshot.operation()).isNotEqualTo(DataOperations.APPEND); // the row delta's
    assertThat(first.addedDataFiles()).hasSize(610);
    assertThat(CapturedTables.rows(io, first.metadata())).hasSize(610 * 2 - 1);
    assertThat(snapshot.deleteManifests(io)).hasSize(1);
    // the manifests streamed before the vector turned up were deleted: every manifest left
    // under the generated location is one the snapshot lists
    Set<String> listed =
        Stream.concat(snapshot.dataManifests(io).stream(), snapshot.deleteManifests(io).stream())
            .map(m -> Path.of(java.net.URI.create(m.path())).getFileName().toString())
            .collect(Collectors.toSet());
    assertThat(manifestsUnder(warehouse.resolve("dv"))).isEqualTo(listed);
  }

  @Test
  void aFailureOnTheWriterThreadEndsTheCaptureAndTheThread() throws IOException {
    delta.create("broken", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    copies("broken", "EU", 1, 300);
    // a file without statistics whose data file is gone: its footer cannot be read
    delta.appendWithoutStats(
        "broken",
        Map.of("region", Literal.ofString("US")),
        List.<Object[]>of(new Object[] {7L, "n7", TS, "US"}));
    try (Stream<Path> files = Files.walk(lake.resolve("broken").resolve("region=US"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.delete(file);
      }
    }

    assertThatThrownBy(() -> capture("broken", null, "broken"))
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("region=US");
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!writerThreads().isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(writerThreads()).isEmpty();
  }

  // --- helpers ---

  Captured capture(String table, TableMetadata previous, String generated) {
    return lakes.capture(table, previous, generated);
  }

  /** One commit of {@code count} files in the region, each with the rows {@code id} and {@code -id}. */
  void copies(String table, String region, long id, int count) {
    delta.appendCopies(
        table,
        Map.of("region", Literal.ofString(region)),
        List.of(
            new Object[] {id, "n" + id, TS + id, region},
            new Object[] {-id, "m" + id, TS - id, region}),
        count);
  }

  List<Row> scanRows(String table) {
    List<Row> rows = new ArrayList<>();
    delta
        .snapshot(table)
        .getScanBuilder()
        .build()
        .getScanFiles(delta.engine(), true)
        .forEachRemaining(batch -> batch.getRows().forEachRemaining(rows::add));
    return rows;
  }

  static Set<String> manifestsUnder(Path generated) throws IOException {
    try (Stream<Path> files = Files.walk(generated)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".avro") && !n.startsWith("snap-") && !n.endsWith("-deletes.avro"))
          .collect(Collectors.toSet());
    }
  }

  /** The stacks of the writer threads still alive. */
  static List<String> writerThreads() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey().getName().equals("icegate-delta-manifests") && e.getKey().isAlive())
        .map(e -> java.util.Arrays.toString(e.getValue()))
        .toList();
  }
}
