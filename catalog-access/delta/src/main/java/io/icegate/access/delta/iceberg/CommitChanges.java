package io.icegate.access.delta.iceberg;

import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.RemoveFile;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The net change of a Delta table's files between two versions, read from the commits between them
 * only (Delta Kernel's {@link CommitRange}), never from a checkpoint or a full log replay: what a
 * capture needs to update the previous capture's snapshot at a cost that follows the change.
 *
 * <p>Per data file path, in commit order (within a commit {@code remove}s before {@code add}s: a
 * commit that replaces a file's deletion vector removes the old logical file and adds the new
 * one), the file's state before the range and after it:
 *
 * <ul>
 *   <li>{@link Change#before()}: present when the file may have been live at the start version,
 *       with the partition values and deletion vector it had there. That is so when the first
 *       action on the path is a {@code remove}, or an {@code add} with {@code dataChange=false}
 *       (the protocol: such an add restates a logical file already in the table or re-adds records
 *       removed in the same commit). An {@code add} with {@code dataChange=true} adds new records,
 *       so its logical file was not in the table.
 *   <li>{@link Change#after()}: the file's last {@code add}, when it is live at the end version.
 * </ul>
 */
final class CommitChanges {

  /**
   * A file that may have been live before the range: what is needed to find its captured entries
   * again.
   *
   * @param removed it was named by a {@code remove} (so it was live), not by a restating {@code add}
   * @param size its size, when the action states it
   */
  record Before(
      Optional<Map<String, String>> partitionValues,
      Optional<DeletionVectorDescriptor> vector,
      boolean removed,
      Optional<Long> size) {}

  /** A file live after the range, as its last {@code add} states it. */
  record After(
      FileStatus file,
      Map<String, String> partitionValues,
      Optional<String> stats,
      Optional<DeletionVectorDescriptor> vector) {}

  /** One path's change; at least one side is present. */
  record Change(String path, Optional<Before> before, Optional<After> after) {}

  private final List<Change> changes;
  private final long commits;
  private final long endVersion;
  private final long endTimestamp;
  private final Optional<Protocol> protocol;
  private final Optional<Metadata> metadata;
  private final Optional<FileStatus> startCommit;
  private final Optional<FileStatus> endCommit;

  private CommitChanges(
      List<Change> changes,
      long commits,
      long endVersion,
      long endTimestamp,
      Optional<Protocol> protocol,
      Optional<Metadata> metadata,
      Optional<FileStatus> startCommit,
      Optional<FileStatus> endCommit) {
    this.changes = changes;
    this.commits = commits;
    this.endVersion = endVersion;
    this.endTimestamp = endTimestamp;
    this.protocol = protocol;
    this.metadata = metadata;
    this.startCommit = startCommit;
    this.endCommit = endCommit;
  }

  /** These changes, with the commit files of the start and end versions as the store stated them. */
  private CommitChanges stated(Optional<FileStatus> start, Optional<FileStatus> end) {
    return new CommitChanges(
        changes, commits, endVersion, endTimestamp, protocol, metadata, start, end);
  }

  /** The changed paths, in the order they were first touched. */
  List<Change> changes() {
    return changes;
  }

  /** How many commits were read. */
  long commits() {
    return commits;
  }

  /** The last version read. */
  long endVersion() {
    return endVersion;
  }

  /**
   * The last commit's timestamp as Kernel gives it (the in-commit timestamp where the table keeps
   * them, else the commit file's modification time): what the snapshot of that version says,
   * without Kernel loading the version's log segment to say it.
   */
  long endTimestamp() {
    return endTimestamp;
  }

  /** The last protocol a commit of the range set; empty when none changed it. */
  Optional<Protocol> protocol() {
    return protocol;
  }

  /** The last metadata a commit of the range set; empty when none changed it. */
  Optional<Metadata> metadata() {
    return metadata;
  }

  /**
   * The commit file of the version the range starts after, as the store stated it while the range
   * was read; empty when it was not asked for (a listing read the range).
   */
  Optional<FileStatus> startCommit() {
    return startCommit;
  }

  /** The commit file of {@link #endVersion()} as the store stated it; empty when not asked for. */
  Optional<FileStatus> endCommit() {
    return endCommit;
  }

  /**
   * Reads commits {@code fromExclusive + 1} to {@code toInclusive}.
   *
   * @return empty when those commit files are no longer all in the log (cleaned up after a
   *     checkpoint): then only a full scan of the end version can say which files are live
   * @throws UncheckedIOException when a commit file cannot be read
   */
  static Optional<CommitChanges> read(
      Engine engine, String tablePath, long fromExclusive, long toInclusive) {
    return read(engine, tablePath, fromExclusive, Optional.of(toInclusive));
  }

  /**
   * Reads the commits after {@code fromExclusive} up to {@code toInclusive}, or up to the newest
   * when empty; the protocol and metadata they set are kept too.
   *
   * @return empty when those commit files are no longer all in the log, or there is none after
   *     {@code fromExclusive} as a listing shows; {@link #commits()} 0 (no change, {@link
   *     #endTimestamp()} 0) when the existence checks show none after it while its own commit file
   *     is still there. Where the checks answered, {@link #startCommit()} and {@link #endCommit()}
   *     say what they found
   */
  static Optional<CommitChanges> read(
      Engine engine, String tablePath, long fromExclusive, Optional<Long> toInclusive) {
    if (toInclusive.isEmpty()) {
      // where the one commit since is the newest, it is read without listing the log; where there
      // is none, the log is not read at all
      Optional<NextCommitProbe.Probe> probe = NextCommitProbe.next(engine, tablePath, fromExclusive);
      if (probe.isPresent() && probe.get().commit().isPresent()) {
        Optional<CommitChanges> read =
            readRange(probe.get().reader(engine), tablePath, fromExclusive, toInclusive);
        if (probe.get().newest()) {
          Optional<FileStatus> start = probe.get().capturedCommit();
          Optional<FileStatus> end = probe.get().commit().map(WholeFileReads.WholeFile::status);
          return read.map(r -> r.stated(start, end));
        }
      } else if (probe.isPresent() && probe.get().newest()) {
        Optional<FileStatus> kept = probe.get().capturedCommit();
        if (kept.isPresent()) {
          return Optional.of(none(fromExclusive).stated(kept, kept));
        }
      }
    }
    return readRange(engine, tablePath, fromExclusive, toInclusive);
  }

  /** No commit after {@code version}: the log's newest is the version itself. */
  private static CommitChanges none(long version) {
    return new CommitChanges(
        List.of(), 0, version, 0, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty());
  }

  private static Optional<CommitChanges> readRange(
      Engine reader, String tablePath, long fromExclusive, Optional<Long> toInclusive) {
    CommitRange range;
    try {
      CommitRangeBuilder builder =
          TableManager.loadCommitRange(tablePath, CommitBoundary.atVersion(fromExclusive + 1));
      if (toInclusive.isPresent()) {
        builder = builder.withEndBoundary(CommitBoundary.atVersion(toInclusive.get()));
      }
      range = builder.build(reader);
    } catch (RuntimeException e) {
      // Kernel refuses a range whose first commits are gone ("missing delta files"); any other
      // failure to list the log fails the full scan that follows just the same
      return Optional.empty();
    }
    Map<String, Change> byPath = new LinkedHashMap<>();
    AddFilePaths root = new AddFilePaths(tablePath);
    Protocol protocol = null;
    Metadata metadata = null;
    long endTimestamp = 0;
    try (CloseableIterator<CommitActions> commits =
        range.getCommitActions(
            reader,
            Set.of(DeltaAction.ADD, DeltaAction.REMOVE, DeltaAction.PROTOCOL, DeltaAction.METADATA))) {
      while (commits.hasNext()) {
        try (CommitActions commit = commits.next()) {
          endTimestamp = commit.getTimestamp();
          List<AddFile> adds = new ArrayList<>();
          try (CloseableIterator<ColumnarBatch> batches = commit.getActions()) {
            while (batches.hasNext()) {
              ColumnarBatch batch = batches.next();
              int addOrdinal = batch.getSchema().indexOf(DeltaAction.ADD.colName);
              int removeOrdinal = batch.getSchema().indexOf(DeltaAction.REMOVE.colName);
              int protocolOrdinal = batch.getSchema().indexOf(DeltaAction.PROTOCOL.colName);
              int metadataOrdinal = batch.getSchema().indexOf(DeltaAction.METADATA.colName);
              for (int i = 0; i < batch.getSize(); i++) {
                if (!batch.getColumnVector(protocolOrdinal).isNullAt(i)) {
                  protocol = Protocol.fromColumnVector(batch.getColumnVector(protocolOrdinal), i);
                }
                if (!batch.getColumnVector(metadataOrdinal).isNullAt(i)) {
                  metadata = Metadata.fromColumnVector(batch.getColumnVector(metadataOrdinal), i);
                }
              }
              try (CloseableIterator<Row> rows = batch.getRows()) {
                while (rows.hasNext()) {
                  Row row = rows.next();
                  if (!row.isNullAt(removeOrdinal)) {
                    removed(byPath, root, new RemoveFile(row.getStruct(removeOrdinal)));
                  }
                  if (!row.isNullAt(addOrdinal)) {
                    adds.add(new AddFile(row.getStruct(addOrdinal)));
                  }
                }
              }
            }
          }
          adds.forEach(add -> added(byPath, root, add));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e); // CommitActions.close declares Exception
    }
    return Optional.of(
        new CommitChanges(
            List.copyOf(byPath.values()),
            range.getEndVersion() - fromExclusive,
            range.getEndVersion(),
            endTimestamp,
            Optional.ofNullable(protocol),
            Optional.ofNullable(metadata),
            Optional.empty(),
            Optional.empty()));
  }

  private static void removed(Map<String, Change> byPath, AddFilePaths root, RemoveFile remove) {
    String path = root.absolute(remove.getPath());
    Change seen = byPath.get(path);
    Optional<Before> before =
        seen != null
            ? seen.before()
            : Optional.of(
                new Before(
                    remove.getPartitionValues().map(VectorUtils::<String, String>toJavaMap),
                    remove.getDeletionVector(),
                    true,
                    remove.getSize()));
    byPath.put(path, new Change(path, before, Optional.empty()));
  }

  private static void added(Map<String, Change> byPath, AddFilePaths root, AddFile add) {
    String path = root.absolute(add.getPath());
    Map<String, String> partitionValues = VectorUtils.toJavaMap(add.getPartitionValues());
    Change seen = byPath.get(path);
    Optional<Before> before =
        seen != null
            ? seen.before()
            : add.getDataChange()
                ? Optional.empty()
                : Optional.of(
                    new Before(
                        Optional.of(partitionValues),
                        add.getDeletionVector(),
                        false,
                        Optional.of(add.getSize())));
    After after =
        new After(
            FileStatus.of(path, add.getSize(), add.getModificationTime()),
            partitionValues,
            add.getStatsJson(),
            add.getDeletionVector());
    byPath.put(path, new Change(path, before, Optional.of(after)));
  }
}
