package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.delta.iceberg.WholeFileReads.WholeFile;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;

/**
 * The one commit after a captured version, found by asking for two commit files by name at once
 * (the next version's and the one after it) instead of listing the log. A streaming table gains
 * about one commit between two captures; listing {@code _delta_log/} for it is the dearest
 * request of an incremental capture (an object store's LIST, a few times a HEAD's cost on
 * s3proxy; Hadoop's local file system stats every log file). The first check answers on the
 * capture's thread; Kernel reads that commit while the second is still on its way. Where the
 * store reads a small file whole in one request ({@link WholeFileReads}), the first check is that
 * read, and Kernel parses the commit from memory ({@link FetchedCommitJson}): no request follows.
 * A third check, also sent at once, states the captured version's own commit file: with no commit
 * since it shows the log still ends there, and it tells whether the log is still the one captured
 * ({@link CommitStamp}).
 *
 * <p>Commit files are written once under their version's name and never out of order (each is
 * created only if absent, after the one before it), so "version {@code v + 1} exists and {@code v
 * + 2} does not" names a version the table had, whatever commits land between the two checks. Any
 * other answer (no commit since, several, a check that failed) leaves the listing to Kernel, as
 * before. Kernel still reads and validates the commit: it is given an engine whose log listing
 * is that one file ({@link #listing}).
 */
final class NextCommitProbe {

  /**
   * How long the checks sent beside the first may take once it answered: they were sent at the
   * same time, so a longer wait means a stuck request, and Kernel's listing answers instead of
   * holding the capture for the socket timeout.
   */
  static final Duration SECOND_CHECK_WAIT = Duration.ofSeconds(1);

  /**
   * The largest next commit read whole into memory (a commit of a few hundred added files; a
   * streaming append's is a few KiB). A larger one is read by Kernel as a stream, as before.
   */
  static final long INLINE_COMMIT_BYTES = 1 << 20;

  private NextCommitProbe() {}

  /**
   * The commit after a version, if there is one, and the checks that no commit follows it and of
   * the captured version's own commit file, still running.
   *
   * @param commit the commit file of the version after the captured one (with its bytes where it
   *     was read whole); empty when missing
   */
  record Probe(
      Optional<WholeFile> commit,
      Future<Optional<FileStatus>> later,
      Future<Optional<FileStatus>> captured) {

    /**
     * Whether no commit follows {@link #commit} (or the captured version, when there is none);
     * false also when the check failed (then only a listing says which is newest).
     */
    boolean newest() {
      return settled(later).map(Optional::isEmpty).orElse(false);
    }

    /**
     * The captured version's commit file as the store states it; empty when it is not in the log
     * (cleaned up after a checkpoint, or the table written anew with fewer versions) or the check
     * failed.
     */
    Optional<FileStatus> capturedCommit() {
      return settled(captured).flatMap(f -> f);
    }

    /** The engine that reads the commit range ending with {@link #commit} ({@link #listing}). */
    Engine reader(Engine engine) {
      WholeFile next = commit.orElseThrow();
      Engine listing = listing(engine, next.status());
      return next.content().isEmpty()
          ? listing
          : new ForwardingEngine(listing, listing.getFileSystemClient()) {
            private final JsonHandler json =
                new FetchedCommitJson(listing.getJsonHandler(), next.status().getPath(), next.content().get());

            @Override
            public JsonHandler getJsonHandler() {
              return json;
            }
          };
    }
  }

  /** A check's answer; empty when it failed or did not answer in {@link #SECOND_CHECK_WAIT}. */
  private static Optional<Optional<FileStatus>> settled(Future<Optional<FileStatus>> check) {
    return CaptureThreads.answered(check, SECOND_CHECK_WAIT);
  }

  /**
   * Checks for the commit files of {@code fromExclusive + 1} and {@code + 2}, and of {@code
   * fromExclusive} itself, at once, and returns when the first is known: the caller reads it while
   * the others go on.
   *
   * @return empty when the first check failed for another reason than a missing file: then only a
   *     listing says which commits there are
   */
  static Optional<Probe> next(Engine engine, String tablePath, long fromExclusive) {
    FileSystemClient files = engine.getFileSystemClient();
    try {
      // the form Kernel lists the log in, so the listing below is recognised
      String root = files.resolvePath(tablePath);
      String next = DeltaVersionCapture.commitFile(root, fromExclusive + 1);
      String after = DeltaVersionCapture.commitFile(root, fromExclusive + 2);
      String captured = DeltaVersionCapture.commitFile(root, fromExclusive);
      Future<Optional<FileStatus>> later = CaptureThreads.POOL.submit(() -> status(files, after));
      Future<Optional<FileStatus>> own = CaptureThreads.POOL.submit(() -> status(files, captured));
      try {
        Optional<WholeFile> commit =
            engine instanceof WholeFileReads whole
                ? whole.readWhole(next, INLINE_COMMIT_BYTES)
                : status(files, next).map(s -> new WholeFile(s, Optional.empty()));
        return Optional.of(new Probe(commit, later, own));
      } catch (IOException | RuntimeException e) {
        later.cancel(true);
        own.cancel(true);
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      // a refusal of any kind (file systems report some unchecked): Kernel's listing meets the
      // same store and says what is wrong
      return Optional.empty();
    }
  }

  /**
   * {@code version}'s commit file as the store states it; empty when it is missing or the store
   * refused.
   */
  static Optional<FileStatus> commitStatus(Engine engine, String tablePath, long version) {
    FileSystemClient files = engine.getFileSystemClient();
    try {
      return status(files, DeltaVersionCapture.commitFile(files.resolvePath(tablePath), version));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<FileStatus> status(FileSystemClient files, String path)
      throws IOException {
    try {
      return Optional.of(files.getFileStatus(path));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  /**
   * {@code engine}, except that a listing of the commit's directory answers with the commit alone
   * (at or after the listed name, as a listing would): what Kernel needs to read the commit range
   * that ends with it. Everything else, reading the commit included, is {@code engine}'s.
   */
  static Engine listing(Engine engine, FileStatus commit) {
    return new ForwardingEngine(engine, new ListedFiles(engine.getFileSystemClient(), commit));
  }

  private static final class ListedFiles extends ForwardingEngine.Files {
    private final FileStatus commit;

    ListedFiles(FileSystemClient files, FileStatus commit) {
      super(files);
      this.commit = commit;
    }

    @Override
    public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
      String commitPath = commit.getPath();
      String directory = commitPath.substring(0, commitPath.lastIndexOf('/') + 1);
      if (!filePath.startsWith(directory) || filePath.indexOf('/', directory.length()) >= 0) {
        return files.listFrom(filePath);
      }
      List<FileStatus> listed =
          name(commitPath).compareTo(name(filePath)) >= 0 ? List.of(commit) : List.of();
      return Utils.toCloseableIterator(listed.iterator());
    }

    private static String name(String path) {
      return path.substring(path.lastIndexOf('/') + 1);
    }
  }
}
