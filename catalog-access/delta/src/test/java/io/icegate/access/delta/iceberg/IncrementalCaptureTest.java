package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.expressions.Literal;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture from an earlier captured version reads only the commits since ({@link CommitChanges})
 * and must leave exactly what a full capture of the same version leaves: the same live data files
 * with the same partitions, record counts and bounds, the same deletes, the same rows. Tables are
 * written by Delta Kernel's own writer, checkpoints included; a log cleaned up past the earlier
 * version falls back to the full scan.
 */
class IncrementalCaptureTest {

  static final long TS = DeltaVersionCaptureTest.TS;

  @TempDir Path lake;
  @TempDir Path warehouse;
  KernelTableWriter delta;
  FileIO io;

  @BeforeEach
  void setUp() {
    delta = new KernelTableWriter(lake, null, null);
    io = new HadoopFileIO(new Configuration());
  }

  Captured capture(String table, TableMetadata previous, String generated) {
    Target target =
        new Target(
            "account/catalog/" + table,
            warehouse.resolve(generated).toUri().toString().replaceAll("/$", ""),
            io,
            io);
    return DeltaVersionCapture.captureChanges(delta.engine(), delta.snapshot(table), previous, target);
  }

  long append(String table, String region, long id) {
    return delta.append(
        table,
        Map.of("region", Literal.ofString(region)),
        List.<Object[]>of(new Object[] {id, "n" + id, TS + id, region}));
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

  // --- helpers ---

  BaseTable table(TableMetadata metadata) {
    return new BaseTable(new CaptureOperations(metadata, io, warehouse.toString(), 0), "captured");
  }

  List<List<Object>> rows(TableMetadata metadata) {
    return IcebergRows.read(table(metadata), null, Expressions.alwaysTrue());
  }

  /** Per live data file: partition, record count, bounds, null counts, and its deletes' paths. */
  Map<String, List<Object>> liveState(TableMetadata metadata) {
    Map<String, List<Object>> state = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = table(metadata).newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile f = task.file();
        state.put(
            f.location(),
            List.of(
                f.partition().toString(),
                f.recordCount(),
                f.fileSizeInBytes(),
                String.valueOf(f.lowerBounds()),
                String.valueOf(f.upperBounds()),
                String.valueOf(f.nullValueCounts()),
                task.deletes().stream().map(ContentFile::location).sorted().toList()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return state;
  }

  Set<String> livePaths(TableMetadata metadata) {
    return liveState(metadata).keySet();
  }

  /** What a log cleanup after a checkpoint leaves: the commits before it are gone. */
  void deleteCommitsBefore(String table, long version) {
    try (Stream<Path> files = Files.list(lake.resolve(table).resolve("_delta_log"))) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString().replaceFirst("^\\.", "");
        if (name.matches("\\d{20}\\.(json|crc)(\\.crc)?")
            && Long.parseLong(name.substring(0, 20)) < version) {
          Files.delete(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Set<String> paths(List<ManifestFile> manifests) {
    return manifests.stream().map(ManifestFile::path).collect(Collectors.toSet());
  }

  static Set<String> difference(Set<String> a, Set<String> b) {
    return a.stream().filter(x -> !b.contains(x)).collect(Collectors.toSet());
  }
}
