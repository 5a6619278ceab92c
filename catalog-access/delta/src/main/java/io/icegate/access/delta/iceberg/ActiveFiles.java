package io.icegate.access.delta.iceberg;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Every active file of a Delta version, from Delta Kernel's scan (log replay from the checkpoint),
 * with what a capture needs of it. Each file's absolute path is resolved as Kernel's own {@code
 * getAddFileStatus} resolves it, but without its URI parsing for plain paths ({@link
 * AddFilePaths}); a file outside the table location is refused by name.
 */
final class ActiveFiles {

  /**
   * One active file.
   *
   * @param partitionValues the log's partition values, by physical column name
   * @param stats the log's statistics text, empty when it has none
   * @param vector the file's deletion vector, empty when it has none
   */
  record ActiveFile(
      FileStatus file,
      Map<String, String> partitionValues,
      Optional<String> stats,
      Optional<DeletionVectorDescriptor> vector) {}

  private ActiveFiles() {}

  /**
   * Hands every active file of {@code snapshot} to {@code sink}, in Kernel's order.
   *
   * @param commitFile the version's commit file, named by a refusal
   * @throws DeltaVersionCapture.UnrepresentableFeatureException for a data file outside the table
   */
  static void scan(Engine engine, Snapshot snapshot, String commitFile, Consumer<ActiveFile> sink) {
    String tablePath = snapshot.getPath();
    AddFilePaths paths = new AddFilePaths(tablePath);
    AddFileFields fields = null;
    try (CloseableIterator<FilteredColumnarBatch> batches =
        snapshot.getScanBuilder().build().getScanFiles(engine, true)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            Row row = rows.next();
            Row add = row.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL);
            if (fields == null) {
              fields = new AddFileFields(add.getSchema());
            }
            FileStatus file =
                FileStatus.of(
                    paths.absolute(add.getString(fields.path)),
                    add.getLong(fields.size),
                    add.getLong(fields.modificationTime));
            Refusals.refuseOutside(file, tablePath, commitFile);
            sink.accept(
                new ActiveFile(
                    file,
                    InternalScanFileUtils.getPartitionValues(row),
                    add.isNullAt(fields.stats)
                        ? Optional.empty()
                        : Optional.of(add.getString(fields.stats)),
                    Optional.ofNullable(
                        InternalScanFileUtils.getDeletionVectorDescriptorFromRow(row))));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where the fields of the scan's {@code add} struct are (Kernel keeps its own ordinals private). */
  private static final class AddFileFields {
    final int path;
    final int size;
    final int modificationTime;
    final int stats;

    AddFileFields(StructType add) {
      this.path = add.indexOf("path");
      this.size = add.indexOf("size");
      this.modificationTime = add.indexOf("modificationTime");
      this.stats = InternalScanFileUtils.ADD_FILE_STATS_ORDINAL;
      if (path < 0 || size < 0 || modificationTime < 0) {
        throw new IllegalStateException("Delta Kernel's scan rows have no add.path/size: " + add);
      }
    }
  }
}
