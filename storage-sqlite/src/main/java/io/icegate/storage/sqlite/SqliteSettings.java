package io.icegate.storage.sqlite;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of a {@link SqliteEngine}.
 *
 * @param busyTimeout how long a transaction waits for the single writer (or for a free reader
 *     connection, or for SQLite's own file lock when another process holds it) before failing with
 *     a retryable {@link io.icegate.core.store.TransactionConflictException}; at least 1 ms
 * @param readerConnections the most connections kept for read-only transactions; at least 1
 */
public record SqliteSettings(Duration busyTimeout, int readerConnections) {

  /**
   * A 5 s busy timeout (FoundationDB's transaction age limit: a writer cannot legitimately hold the
   * lock longer) and 8 reader connections, enough for a 2-core host's request threads.
   */
  public static final SqliteSettings DEFAULT = new SqliteSettings(Duration.ofSeconds(5), 8);

  public SqliteSettings {
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    if (busyTimeout.toMillis() < 1 || busyTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("busyTimeout must be between 1 ms and 2^31 ms");
    }
    if (readerConnections < 1) {
      throw new IllegalArgumentException(
          "readerConnections must be at least 1, was " + readerConnections);
    }
  }

  /** A copy with another busy timeout. */
  public SqliteSettings withBusyTimeout(Duration timeout) {
    return new SqliteSettings(timeout, readerConnections);
  }
}
