package io.icegate.access.delta.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.RollingManifestWriter;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;

/**
 * The commits since the previous capture only added files (the common case: a streaming or batch
 * append), captured as an Iceberg append of a manifest written here. iceberg-core's row delta
 * would write the same manifest on its worker pool and wait for it by polling every 10 ms ({@link
 * CallingThread}), a poll interval more than the whole write of a small manifest; its merging
 * append takes a written manifest as it is (no snapshot id: the snapshot's is inherited) and
 * merges small manifests as the row delta does, so the table's manifest count stays bounded.
 */
final class AppendedFiles {

  private AppendedFiles() {}

  /** Whether every change is a new file without a deletion vector, live after the commits. */
  static boolean only(CommitChanges commits) {
    return !commits.changes().isEmpty()
        && commits.changes().stream()
            .allMatch(
                c ->
                    c.before().isEmpty()
                        && c.after().isPresent()
                        && c.after().get().vector().isEmpty());
  }

  /**
   * Writes the new files' manifests under {@code location} (rolled at {@code targetBytes}) and
   * commits their append on {@code table}.
   *
   * @return the data files the snapshot added
   * @throws UncheckedIOException when the manifest cannot be written
   */
  static List<DataFile> commit(
      Table table,
      DataFileEntries entries,
      CommitChanges commits,
      FileIO io,
      String location,
      long targetBytes,
      long version) {
    String prefix = location + "/" + UUID.randomUUID() + "-m";
    int[] count = {0};
    RollingManifestWriter<DataFile> writer =
        new RollingManifestWriter<>(
            () ->
                ManifestFiles.write(
                    2, entries.spec(), io.newOutputFile(prefix + count[0]++ + ".avro"), null),
            targetBytes);
    List<DataFile> added = new ArrayList<>();
    long bytes = 0;
    try (writer) {
      for (CommitChanges.Change change : commits.changes()) {
        CommitChanges.After now = change.after().orElseThrow();
        DataFile entry =
            entries.active(now.file(), entries.partition(now.partitionValues()), now.stats());
        writer.add(entry);
        added.add(entry);
        bytes += entry.fileSizeInBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing a capture's manifest failed", e);
    }
    AppendFiles append =
        table
            .newAppend()
            .set(DeltaVersionCapture.DELTA_VERSION, String.valueOf(version))
            // iceberg-core does not count the bytes of files in an appended manifest
            .set(SnapshotSummary.ADDED_FILE_SIZE_PROP, String.valueOf(bytes));
    if (commits.changes().size() <= DeltaVersionCapture.INLINE_CHANGES) {
      append.scanManifestsWith(CallingThread.EXECUTOR);
    }
    writer.toManifestFiles().forEach(append::appendManifest);
    append.commit();
    return added;
  }
}
