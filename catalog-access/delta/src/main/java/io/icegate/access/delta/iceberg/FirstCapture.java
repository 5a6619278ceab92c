package io.icegate.access.delta.iceberg;

import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * The files of a capture that has no snapshot to compare with (the table's first, or the first
 * after its snapshots were dropped): every active file is new, so each goes straight into a
 * manifest written while Kernel's scan goes on ({@link StreamedManifests}), and the snapshot
 * appends those manifests. A deletion vector needs position delete files, which only iceberg-core's
 * row delta writes into a snapshot: at the first file that has one, the manifests written so far
 * are dropped, their entries are handed to the row delta ({@link FileChanges#addedBefore}, no
 * statistics read twice) and the rest of the scan goes the row delta's way.
 */
final class FirstCapture implements Consumer<ActiveFiles.ActiveFile>, AutoCloseable {

  private final StreamedManifests streamed;
  private final FileChanges changes;
  private boolean streaming = true;

  FirstCapture(StreamedManifests streamed, FileChanges changes) {
    this.streamed = streamed;
    this.changes = changes;
  }

  @Override
  public void accept(ActiveFiles.ActiveFile file) {
    if (streaming && file.vector().isEmpty()) {
      streamed.add(file);
      return;
    }
    if (streaming) {
      streaming = false;
      changes.addedBefore(streamed.abandon());
    }
    changes.active(file);
  }

  /**
   * Commits the snapshot: an append of the streamed manifests or, after a deletion vector, the row
   * delta.
   *
   * @param version the Delta version, the snapshot summary's {@link DeltaVersionCapture#DELTA_VERSION}
   *     (the row delta has it set already)
   * @return the data files the snapshot added
   */
  List<DataFile> commit(Table table, RowDelta delta, long version) {
    if (!streaming) {
      delta.commit();
      return changes.added();
    }
    StreamedManifests.Written written = streamed.finish();
    AppendFiles append =
        table
            .newFastAppend()
            .set(DeltaVersionCapture.DELTA_VERSION, String.valueOf(version))
            .set(SnapshotSummary.ADDED_FILE_SIZE_PROP, String.valueOf(written.addedBytes()))
            // the streamed manifests carry their counts: the manifest list step reads nothing
            .scanManifestsWith(CallingThread.EXECUTOR);
    written.manifests().forEach(append::appendManifest);
    append.commit();
    return written.added();
  }

  @Override
  public void close() {
    streamed.close();
  }
}
