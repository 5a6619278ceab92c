package io.icegate.access.delta.iceberg;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.utils.FileStatus;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * Taking and checking {@link CommitStamp}s: a capture records its version's commit file, and the
 * next capture reads commits on top of it only while that file is still the one in the log.
 */
final class CommitStamps {

  /**
   * How long a capture waits, once its work is done, for the statement of its version's commit
   * file (sent when the capture began). Without it the capture is still published; the next one
   * loads its version in full.
   */
  static final Duration STAMP_WAIT = Duration.ofSeconds(5);

  private CommitStamps() {}

  /**
   * The stamp of {@code snapshot}'s commit file: the one the commits read already stated, else
   * stated by the store on the capture pool while the capture goes on.
   */
  static Future<Optional<CommitStamp>> of(
      Engine engine, Snapshot snapshot, Optional<CommitChanges> commitsRead) {
    long version = snapshot.getVersion();
    Optional<FileStatus> stated =
        commitsRead.filter(c -> c.endVersion() == version).flatMap(CommitChanges::endCommit);
    if (stated.isPresent()) {
      return CompletableFuture.completedFuture(Optional.of(CommitStamp.of(version, stated.get())));
    }
    if (commitsRead.isEmpty()) {
      Optional<FileStatus> loaded = loadedCommit(snapshot);
      if (loaded.isPresent()) {
        return CompletableFuture.completedFuture(Optional.of(CommitStamp.of(version, loaded.get())));
      }
    }
    String tablePath = snapshot.getPath();
    return CaptureThreads.POOL.submit(
        () ->
            NextCommitProbe.commitStatus(engine, tablePath, version)
                .map(file -> CommitStamp.of(version, file)));
  }

  /**
   * The commit file of a version Kernel loaded in full, as the listing Kernel read the log from
   * stated it: the file whose contents the snapshot shows (a status asked for afterwards may be of
   * a file written since). Empty where Kernel has none at hand (a version it holds only as a
   * checkpoint, another snapshot implementation).
   */
  static Optional<FileStatus> loadedCommit(Snapshot snapshot) {
    if (!(snapshot instanceof SnapshotImpl loaded)) {
      return Optional.empty();
    }
    try {
      FileStatus file = loaded.getLogSegment().getDeltaFileAtEndVersion();
      return Optional.ofNullable(file);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The stamp, or empty when the store did not state the file in time. */
  static Optional<CommitStamp> settled(Future<Optional<CommitStamp>> stamp) {
    return CaptureThreads.answered(stamp, STAMP_WAIT).flatMap(s -> s);
  }

  /**
   * Whether the log the commits were read from is still the one {@code state} was captured from:
   * the captured version's commit file is the one stamped. False without a stamp (a state recorded
   * before icegate kept one): only a full load can tell then.
   */
  static boolean sameLog(
      Engine engine, String tablePath, CapturedDeltaState state, CommitChanges commits) {
    return check(engine, tablePath, state, commits) == LogCheck.SAME;
  }

  /** What the captured version's commit file says of the log the commits were read from. */
  enum LogCheck {
    /** The file stamped: the log is the one captured. */
    SAME,
    /** Nothing to tell by: no stamp (recorded before icegate kept one), the file cleaned up. */
    UNKNOWN,
    /** Another file of that name: the log was written anew (a new table, a restored copy). */
    REWRITTEN
  }

  static LogCheck check(
      Engine engine, String tablePath, CapturedDeltaState state, CommitChanges commits) {
    Optional<CommitStamp> stamp = state.commit();
    long start = commits.endVersion() - commits.commits();
    if (stamp.isEmpty() || stamp.get().version() != start) {
      return LogCheck.UNKNOWN;
    }
    Optional<FileStatus> file =
        commits.startCommit().or(() -> NextCommitProbe.commitStatus(engine, tablePath, start));
    if (file.isEmpty()) {
      return LogCheck.UNKNOWN;
    }
    return stamp.get().matches(file.get()) ? LogCheck.SAME : LogCheck.REWRITTEN;
  }
}
