package io.icegate.storage.sqlite;

import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.storage.sqlite.SqliteConnection.Health;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Connections for read-only transactions: at most {@code size} exist, opened on first need and kept
 * open. WAL lets each one read its own snapshot while the writer commits.
 */
final class ReaderPool {

  /** Opens one reader connection. */
  @FunctionalInterface
  interface Opener {
    SqliteConnection open() throws SQLException;
  }

  private final Opener opener;
  private final Semaphore permits;
  private final String store;
  // LIFO, so that a quiet store keeps reusing the same warm connection.
  private final ConcurrentLinkedDeque<SqliteConnection> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  ReaderPool(Opener opener, int size, String store) {
    this.opener = opener;
    this.permits = new Semaphore(size, true);
    this.store = store;
  }

  /**
   * A connection for one transaction; give it back with {@link #release}.
   *
   * @throws TransactionConflictException no connection became free within {@code timeout}
   * @throws SQLException a new connection could not be opened
   */
  SqliteConnection acquire(Duration timeout) throws SQLException {
    try {
      if (!permits.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new TransactionConflictException(
            store + ": no reader connection became free within " + timeout.toMillis() + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvStoreFailureException(store + ": interrupted waiting for a reader connection", e);
    }
    SqliteConnection connection = idle.pollFirst();
    if (connection != null) {
      return connection;
    }
    try {
      return opener.open();
    } catch (SQLException | RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  void release(SqliteConnection connection, Health health) {
    if (health == Health.BROKEN || closed) {
      connection.close();
    } else {
      idle.addFirst(connection);
      if (closed) {
        drain(); // close() ran between the check and the add
      }
    }
    permits.release();
  }

  /** Closes idle connections now and busy ones when they come back. */
  void close() {
    closed = true;
    drain();
  }

  private void drain() {
    for (SqliteConnection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
      c.close();
    }
  }
}
