package io.icegate.storage.sqlite;

import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.ReadMode;
import io.icegate.storage.sqlite.SqliteConnection.Health;
import io.icegate.storage.sqlite.SqliteErrorClassifier.Phase;
import java.sql.SQLException;
import java.util.List;

/**
 * One SQL transaction on a borrowed connection. Writes go straight into the SQL transaction, which
 * is what gives the transaction's later reads its own writes.
 *
 * <p>{@link ReadMode} is ignored: SQLite holds the single write lock for the whole read-write
 * transaction, so nothing it read can change before it commits and it never reports a conflict.
 */
final class SqliteTransaction implements EngineTransaction {

  /** Takes a connection back when the transaction ends. */
  @FunctionalInterface
  interface Release {
    void release(SqliteConnection connection, Health health);
  }

  private enum State {
    OPEN,
    /** A statement failed: SQLite may have rolled back already, so no further statement may run. */
    FAILED,
    COMMITTED,
    CLOSED
  }

  private final SqliteConnection connection;
  private final AccessMode mode;
  private final String store;
  private final Release release;
  private State state = State.OPEN;

  SqliteTransaction(SqliteConnection connection, AccessMode mode, String store, Release release) {
    this.connection = connection;
    this.mode = mode;
    this.store = store;
    this.release = release;
  }

  @Override
  public byte[] get(byte[] key, ReadMode readMode) {
    checkOpen();
    try {
      return connection.get(key);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  @Override
  public List<KeyValue> getRange(
      byte[] begin, byte[] end, int limit, Direction direction, ReadMode readMode) {
    checkOpen();
    try {
      return connection.range(begin, end, limit, direction);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  @Override
  public void set(byte[] key, byte[] value) {
    checkWritable();
    try {
      connection.set(key, value);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  @Override
  public void clear(byte[] key) {
    checkWritable();
    try {
      connection.clear(key);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  @Override
  public void clearRange(byte[] begin, byte[] end) {
    checkWritable();
    try {
      connection.clearRange(begin, end);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  /**
   * Commits; for a read-write transaction it returns only after SQLite has synced the WAL
   * ({@code synchronous=FULL}).
   *
   * @throws io.icegate.core.store.CommitUnknownResultException an I/O error during the commit
   * @throws io.icegate.core.store.TransactionConflictException the database stayed busy
   * @throws KvStoreFailureException any other SQLite error
   */
  @Override
  public void commit() {
    checkOpen();
    try {
      connection.commit();
      state = State.COMMITTED;
    } catch (SQLException e) {
      throw failed(e, mode == AccessMode.READ_WRITE ? Phase.COMMIT : Phase.STATEMENT);
    }
  }

  /** The value of pragma {@code name} on this transaction's connection; see {@link SqliteEngine}. */
  String pragma(String name) {
    checkOpen();
    try {
      return connection.pragma(name);
    } catch (SQLException e) {
      throw failed(e, Phase.STATEMENT);
    }
  }

  /** Rolls back unless committed and hands the connection back; a failed rollback discards it. */
  @Override
  public void close() {
    if (state == State.CLOSED) {
      return;
    }
    Health health = Health.REUSABLE;
    if (state != State.COMMITTED) {
      try {
        connection.rollback();
      } catch (SQLException e) {
        // Usually SQLite already rolled back after the error that got us here; either way the
        // connection's transaction state is unknown, so it is not handed out again.
        health = Health.BROKEN;
      }
    }
    state = State.CLOSED;
    release.release(connection, health);
  }

  private void checkWritable() {
    if (mode != AccessMode.READ_WRITE) {
      throw new IllegalStateException("write attempted in a read-only transaction");
    }
    checkOpen();
  }

  private void checkOpen() {
    switch (state) {
      case OPEN -> { }
      case FAILED -> throw new KvStoreFailureException(
          store + ": transaction used after one of its statements failed");
      case COMMITTED, CLOSED -> throw new IllegalStateException(
          "transaction used after it " + (state == State.COMMITTED ? "committed" : "closed"));
    }
  }

  private KvStoreException failed(SQLException e, Phase phase) {
    state = State.FAILED;
    return SqliteErrorClassifier.classify(e, phase, store);
  }
}
