package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.delta.kernel.utils.FileStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the capture tests share: a lake of Delta tables on local disk written by Kernel's
 * own writer, a warehouse for the generated files ({@link LocalCaptures}), and the two ways a
 * table is made and captured by path most tests need.
 */
abstract class LocalLakeTest {

  @TempDir Path lake;
  @TempDir Path warehouse;
  LocalCaptures lakes;
  KernelTableWriter delta;
  FileIO io;

  @BeforeEach
  void openLake() {
    lakes = new LocalCaptures(lake, warehouse);
    delta = lakes.delta();
    io = lakes.io();
  }

  /**
   * A table partitioned by region, created and then given {@code appends} one-file commits (odd
   * ones in US, even ones in EU, ids from 1).
   *
   * @return its newest version
   */
  long table(String table, int appends) {
    delta.create(table, DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    long version = 0;
    for (int i = 1; i <= appends; i++) {
      version = lakes.append(table, i % 2 == 0 ? "EU" : "US", i);
    }
    return version;
  }

  /** The newest version of {@code table}, captured by path with {@code with} after {@code previous}. */
  Captured captureByPath(Engine with, String table, Captured previous) {
    return DeltaVersionCapture.captureChanges(
        with,
        delta.location(table),
        Optional.empty(),
        previous == null ? null : previous.metadata(),
        previous == null ? Optional.empty() : Optional.of(previous.deltaState()),
        lakes.target(table, table));
  }

  /** A table partitioned by region with one append (id 1 in EU); its location. */
  String table(String table) {
    delta.create(table, DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append(table, "EU", 1);
    return delta.location(table);
  }

  /** The head of {@code table} as Kernel's full load gives it. */
  DeltaHeads.Head fullHead(String table) {
    var snapshot = delta.snapshot(table);
    return new DeltaHeads.Head(
        snapshot.getVersion(),
        snapshot.getSchema().toJson(),
        snapshot.getPartitionColumnNames(),
        snapshot.getTableProperties(),
        DeltaHeads.commitIdentity(snapshot));
  }

  /** Local disk's whole read ({@link WholeFileReads}): the status as Kernel states it, the bytes. */
  Optional<WholeFileReads.WholeFile> readLocalWhole(String path, long max) throws IOException {
    FileStatus status;
    try {
      status = delta.engine().getFileSystemClient().getFileStatus(path);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    return Optional.of(
        new WholeFileReads.WholeFile(
            status,
            status.getSize() > max
                ? Optional.empty()
                : Optional.of(Files.readAllBytes(Path.of(URI.create(path))))));
  }
}
