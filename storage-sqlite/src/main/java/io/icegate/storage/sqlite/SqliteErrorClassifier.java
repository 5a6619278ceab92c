package io.icegate.storage.sqlite;

import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import java.sql.SQLException;
import org.sqlite.SQLiteException;

/**
 * Maps SQLite errors onto the store's outcomes. Primary result codes are the low 8 bits of
 * SQLite's (extended) result code (sqlite.org "Result and Error Codes").
 *
 * <ul>
 *   <li>{@code SQLITE_BUSY} (5) and {@code SQLITE_LOCKED} (6), after the busy timeout: a retryable
 *       {@link TransactionConflictException}; nothing was written.
 *   <li>{@code SQLITE_IOERR} (10) from {@code COMMIT} of a read-write transaction: {@link
 *       CommitUnknownResultException}. In WAL mode the commit frame may already be in the log when
 *       the sync fails, and WAL recovery replays every frame up to a valid commit frame, so the
 *       transaction can reappear after a restart.
 *   <li>Everything else (I/O errors elsewhere, a full disk, corruption, not a database, a closed
 *       connection): {@link KvStoreFailureException}; the transaction did not commit.
 * </ul>
 */
final class SqliteErrorClassifier {

  /** Where the error was raised; only {@link #COMMIT} can leave the outcome unknown. */
  enum Phase {
    OPEN,
    BEGIN,
    STATEMENT,
    COMMIT
  }

  static final int SQLITE_BUSY = 5;
  static final int SQLITE_LOCKED = 6;
  static final int SQLITE_IOERR = 10;

  private SqliteErrorClassifier() {}

  /**
   * The store exception for {@code error}, raised in {@code phase} on the store described by
   * {@code store} (e.g. {@code sqlite:/data/icegate.db}). The SQL error is kept as the cause.
   */
  static KvStoreException classify(SQLException error, Phase phase, String store) {
    int primary = primaryCode(error);
    String message = store + ": " + phase.name().toLowerCase() + " failed: " + error.getMessage();
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
      return new TransactionConflictException(message, error);
    }
    if (primary == SQLITE_IOERR && phase == Phase.COMMIT) {
      return new CommitUnknownResultException(message, error);
    }
    return new KvStoreFailureException(message, error);
  }

  /** SQLite's primary result code of {@code error}, or -1 when it carries none. */
  static int primaryCode(SQLException error) {
    if (error instanceof SQLiteException sqlite && sqlite.getResultCode().code >= 0) {
      return sqlite.getResultCode().code & 0xff;
    }
    return -1;
  }
}
