package io.icegate.access.delta.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/**
 * Captured Iceberg metadata read back as a table, for comparing two captures of the same Delta
 * version (an incremental one against a full one, a cached against an uncached one): their rows,
 * and per live data file what a reader plans from it.
 */
final class CapturedTables {

  private CapturedTables() {}

  /** The captured metadata as a table to read (generated files through {@code io}). */
  static BaseTable table(FileIO io, TableMetadata metadata) {
    return new BaseTable(new CaptureOperations(metadata, io, metadata.location(), 0), "captured");
  }

  static List<List<Object>> rows(FileIO io, TableMetadata metadata) {
    return IcebergRows.read(table(io, metadata), null, Expressions.alwaysTrue());
  }

  /**
   * Per live data file: partition, record count, size, bounds, null counts, and its deletes' file
   * names (they derive from the data file and the vector; the generated location differs).
   */
  static Map<String, List<Object>> liveState(FileIO io, TableMetadata metadata) {
    Map<String, List<Object>> state = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = table(io, metadata).newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile f = task.file();
        state.put(
            f.location(),
            List.of(
                f.partition().toString(),
                f.recordCount(),
                f.fileSizeInBytes(),
                sorted(f.lowerBounds()),
                sorted(f.upperBounds()),
                sorted(f.nullValueCounts()),
                task.deletes().stream()
                    .map(d -> d.location().substring(d.location().lastIndexOf('/') + 1))
                    .sorted()
                    .toList()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return state;
  }

  private static <V> Map<Integer, V> sorted(Map<Integer, V> map) {
    return map == null ? Map.of() : new TreeMap<>(map);
  }
}
