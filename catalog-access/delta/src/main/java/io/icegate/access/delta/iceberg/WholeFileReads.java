package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.util.Optional;

/**
 * A store that reads a small file whole, and says it is missing, in one request (an object
 * store's GET), where Kernel's file system client would ask twice (a status, then a read). An
 * incremental capture's first request is for the next commit file, which usually exists and is
 * small: read whole, it is never asked for again ({@link NextCommitProbe}).
 */
public interface WholeFileReads {

  /**
   * A file's status and, when it is at most the size asked for, its bytes.
   *
   * @param content empty when the file is larger than asked for: then it is read as any other
   */
  record WholeFile(FileStatus status, Optional<byte[]> content) {}

  /**
   * @param path as Kernel names it
   * @param maxBytes the largest file whose bytes are returned
   * @return empty when the file is missing
   * @throws IOException when the store fails or refuses the read
   */
  Optional<WholeFile> readWhole(String path, long maxBytes) throws IOException;

  /**
   * {@code engine}, reading whole files through {@code reads}: what a capture is given where its
   * store can ({@code engine}'s file system and {@code reads} must be the same store).
   */
  static Engine engine(Engine engine, WholeFileReads reads) {
    return new Reading(engine, reads);
  }

  /** An engine that is also the store's whole-file reads. */
  final class Reading extends ForwardingEngine implements WholeFileReads {
    private final WholeFileReads reads;

    private Reading(Engine engine, WholeFileReads reads) {
      super(engine, engine.getFileSystemClient());
      this.reads = reads;
    }

    @Override
    public Optional<WholeFile> readWhole(String path, long maxBytes) throws IOException {
      return reads.readWhole(path, maxBytes);
    }
  }
}
