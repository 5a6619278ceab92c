package io.icegate.storage.sqlite;

import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteConnection.Health;
import io.icegate.storage.sqlite.SqliteConnection.Role;
import io.icegate.storage.sqlite.SqliteErrorClassifier.Phase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link KvEngine} on one SQLite file: table {@code kv(k BLOB PRIMARY KEY, v BLOB NOT NULL)
 * WITHOUT ROWID}, WAL journal, {@code synchronous=FULL}.
 *
 * <p>Read-write transactions run on the single writer connection, one at a time (a fair lock in
 * front of {@code BEGIN IMMEDIATE}), so they are serializable and never conflict. Read-only
 * transactions run on a pool of reader connections started with a deferred {@code BEGIN}: WAL gives
 * each a consistent snapshot from its first read while the writer keeps committing.
 *
 * <p>Waiting longer than {@link SqliteSettings#busyTimeout()} for the writer, for a reader
 * connection or for SQLite's file lock fails with a retryable {@link TransactionConflictException}.
 * Errors are mapped by {@link SqliteErrorClassifier}.
 *
 * <p>One process per file: SQLite's locks would keep a second process correct, but it would queue
 * behind this one's writer for whole transactions and see busy errors.
 *
 * <p>Thread-safe. A transaction stays on the thread that began it (the writer lock is owned by that
 * thread), as {@link io.icegate.core.store.KvStore} requires.
 */
public final class SqliteEngine implements KvEngine {

  private static final Logger LOG = LoggerFactory.getLogger(SqliteEngine.class);

  private final String url;
  private final String description;
  private final SqliteSettings settings;
  private final ReentrantLock writerLock = new ReentrantLock(true);
  private final ReaderPool readers;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Guarded by {@link #writerLock}; null after a failure broke it, reopened on next use. */
  private SqliteConnection writer;

  private SqliteEngine(Path file, SqliteSettings settings) {
    this.url = "jdbc:sqlite:" + file;
    this.description = "sqlite:" + file;
    this.settings = settings;
    this.readers = new ReaderPool(() -> openConnection(Role.READER), settings.readerConnections(),
        description);
  }

  /**
   * Opens the store in {@code file}, creating the file, its parent directories and the table when
   * missing. The path is made absolute so that {@link #describe()} names it unambiguously.
   *
   * @throws KvStoreFailureException the directories or file cannot be created or opened, or the
   *     file is not a SQLite database
   */
  public static SqliteEngine open(Path file, SqliteSettings settings) {
    Path absolute = file.toAbsolutePath().normalize();
    SqliteEngine engine = new SqliteEngine(absolute, settings);
    try {
      Path parent = absolute.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new KvStoreFailureException(engine.description + ": cannot create its directory", e);
    }
    try {
      // The writer creates the table, so it is opened before any reader prepares statements.
      engine.writer = engine.openConnection(Role.WRITER);
    } catch (SQLException e) {
      throw SqliteErrorClassifier.classify(e, Phase.OPEN, engine.description);
    }
    return engine;
  }

  /**
   * Begins a transaction: read-write ones wait for the single writer, read-only ones for a reader
   * connection.
   *
   * @throws TransactionConflictException the wait exceeded the busy timeout (retryable)
   * @throws KvStoreFailureException the engine is closed, the calling thread already runs a
   *     read-write transaction (it would wait for itself), or SQLite failed
   */
  @Override
  public EngineTransaction begin(AccessMode mode) {
    checkNotClosed();
    return mode == AccessMode.READ_WRITE ? beginWrite() : beginRead();
  }

  /** {@code sqlite:} followed by the absolute path of the file. */
  @Override
  public String describe() {
    return description;
  }

  /**
   * Closes every connection. A write transaction still running gets up to the busy timeout to
   * finish; reader connections in use are closed when their transactions end.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    readers.close();
    boolean locked = false;
    try {
      locked = writerLock.tryLock(settings.busyTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      LOG.warn("{}: closing while a write transaction is still running", description);
    }
    try {
      if (writer != null) {
        writer.close();
        writer = null;
      }
    } finally {
      if (locked) {
        writerLock.unlock();
      }
    }
  }

  @Override
  public String toString() {
    return "SqliteEngine[" + description + "]";
  }

  /**
   * The value of pragma {@code name} as seen by a connection of the given kind, e.g. {@code
   * journal_mode}; for tests and diagnostics. Borrows the connection like a transaction does.
   */
  String pragma(AccessMode mode, String name) {
    try (SqliteTransaction tx = (SqliteTransaction) begin(mode)) {
      return tx.pragma(name);
    }
  }

  private EngineTransaction beginWrite() {
    if (writerLock.isHeldByCurrentThread()) {
      throw new KvStoreFailureException(description
          + ": a read-write transaction was started inside another one on the same thread; "
          + "the single SQLite writer would wait for itself");
    }
    long timeoutMillis = settings.busyTimeout().toMillis();
    try {
      if (!writerLock.tryLock(timeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new TransactionConflictException(
            description + ": the writer stayed busy for " + timeoutMillis + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvStoreFailureException(description + ": interrupted waiting for the writer", e);
    }
    try {
      checkNotClosed();
      if (writer == null) {
        writer = openConnection(Role.WRITER);
      }
      writer.begin();
      return new SqliteTransaction(writer, AccessMode.READ_WRITE, description, this::releaseWriter);
    } catch (SQLException e) {
      writerLock.unlock();
      throw SqliteErrorClassifier.classify(e, Phase.BEGIN, description);
    } catch (RuntimeException e) {
      writerLock.unlock();
      throw e;
    }
  }

  private EngineTransaction beginRead() {
    SqliteConnection connection;
    try {
      connection = readers.acquire(settings.busyTimeout());
    } catch (SQLException e) {
      throw SqliteErrorClassifier.classify(e, Phase.OPEN, description);
    }
    try {
      connection.begin();
    } catch (SQLException e) {
      readers.release(connection, Health.BROKEN);
      throw SqliteErrorClassifier.classify(e, Phase.BEGIN, description);
    }
    return new SqliteTransaction(connection, AccessMode.READ_ONLY, description, readers::release);
  }

  private void releaseWriter(SqliteConnection connection, Health health) {
    try {
      if (health == Health.BROKEN || closed.get()) {
        connection.close();
        writer = null;
      }
    } finally {
      writerLock.unlock();
    }
  }

  private SqliteConnection openConnection(Role role) throws SQLException {
    return SqliteConnection.open(url, settings, role);
  }

  private void checkNotClosed() {
    if (closed.get()) {
      throw new KvStoreFailureException(description + " is closed");
    }
  }
}
