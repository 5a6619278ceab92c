package io.icegate.gateway.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive claim of one gateway process on its data dir: an OS file lock on {@code
 * DATA_DIR/icegate.lock}, held from before the store is opened until the gateway closes. Two
 * servers on one data dir would share the SQLite file and the bootstrap token file; they stay
 * consistent, but every write of one conflicts with the other's, so the second is refused at
 * start instead. The OS drops the lock when the process dies, so a crash leaves nothing to clean
 * up; the file itself stays and is reused.
 */
public final class DataDirLock implements AutoCloseable {
  static final String FILE = "icegate.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code dataDir}, creating it (owner-only, see {@link OwnerOnlyFiles}) when missing.
   *
   * @throws InUseException when another process, or another gateway in this JVM, holds it
   * @throws IOException when the lock file cannot be created or locked
   */
  public static DataDirLock acquire(Path dataDir) throws IOException {
    OwnerOnlyFiles.createDirectories(dataDir);
    Path file = dataDir.resolve(FILE);
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by another gateway in this JVM
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new InUseException("data dir " + dataDir
          + " is already in use by another icegate server (lock " + file + " is held); stop it"
          + " or choose another --data-dir");
    }
    return new DataDirLock(channel, lock);
  }

  /** The data dir is locked by another server: nothing was opened or written. */
  public static final class InUseException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    InUseException(String message) {
      super(message);
    }
  }

  /** Releases the lock. Idempotent. */
  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
      channel.close();
    } catch (IOException e) {
      // The lock dies with the channel or, at worst, with the process.
    }
  }
}
