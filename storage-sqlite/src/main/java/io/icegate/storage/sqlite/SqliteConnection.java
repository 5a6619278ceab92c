package io.icegate.storage.sqlite;

import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction.Direction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.sqlite.SQLiteConfig;

/**
 * One JDBC connection to the store file with its statements prepared once. Not thread-safe: a
 * connection belongs to one transaction at a time, handed out by {@link SqliteEngine}.
 *
 * <p>Transactions are started with explicit {@code BEGIN} statements while the JDBC connection
 * stays in auto-commit mode: the driver's own {@code setAutoCommit(false)} opens the next
 * transaction as soon as one ends, which would pin a reader's snapshot (and block WAL
 * checkpoints) between transactions.
 */
final class SqliteConnection implements AutoCloseable {

  /** Which transactions a connection serves. */
  enum Role {
    /** The single writer: read-write transactions, started with {@code BEGIN IMMEDIATE}. */
    WRITER("BEGIN IMMEDIATE"),
    /** Read-only transactions, started deferred so WAL pins their snapshot at the first read. */
    READER("BEGIN");

    private final String begin;

    Role(String begin) {
      this.begin = begin;
    }
  }

  /** Whether a connection handed back may serve another transaction. */
  enum Health {
    REUSABLE,
    BROKEN
  }

  /**
   * BLOB keys compare with memcmp, i.e. in unsigned byte order like FoundationDB; {@code WITHOUT
   * ROWID} stores rows in the primary-key b-tree itself, so a range read is one index walk.
   */
  static final String SCHEMA =
      "CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID";

  /**
   * The writer's page cache: 64 MiB ({@code cache_size} in KiB when negative), allocated as pages
   * are used. SQLite's 2 MB default made a large reconcile re-read the b-tree pages it had just
   * written from the OS for every batch (issue 8's bench: publication ~30% slower). Readers keep
   * the default: the OS page cache serves them, and there are several.
   */
  static final int WRITER_CACHE_KIB = 64 * 1024;

  /**
   * WAL pages after which a commit folds the WAL back into the database file: 10,000 (about 40 MB
   * with 4 KiB pages) instead of SQLite's 1,000. Each checkpoint fsyncs the database file inside
   * some writer's {@code COMMIT}; with the default, a reconcile of 3,000 tables spent about half of
   * its commit time checkpointing pages it rewrote again a few batches later (issue 8's bench).
   * Costs up to ~40 MB of WAL on disk and a longer recovery after a crash.
   */
  static final int WAL_AUTOCHECKPOINT_PAGES = 10_000;

  private static final Pattern PRAGMA_NAME = Pattern.compile("[a-z_]+");

  private final Connection connection;
  private final Role role;
  private final Statement control;
  // Transaction control prepared once: a plain Statement parses its SQL on every call, and a
  // gateway point read is BEGIN, one or a few SELECTs, COMMIT (issue 4's bench).
  private final PreparedStatement begin;
  private final PreparedStatement commit;
  private final PreparedStatement rollback;
  private final PreparedStatement get;
  private final PreparedStatement upsert;
  private final PreparedStatement delete;
  private final PreparedStatement deleteRange;
  private final PreparedStatement rangeForward;
  private final PreparedStatement rangeReverse;

  private SqliteConnection(Connection connection, Role role) throws SQLException {
    this.connection = connection;
    this.role = role;
    this.control = connection.createStatement();
    this.begin = connection.prepareStatement(role.begin);
    this.commit = connection.prepareStatement("COMMIT");
    this.rollback = connection.prepareStatement("ROLLBACK");
    this.get = connection.prepareStatement("SELECT v FROM kv WHERE k = ?");
    this.upsert =
        connection.prepareStatement(
            "INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v");
    this.delete = connection.prepareStatement("DELETE FROM kv WHERE k = ?");
    this.deleteRange = connection.prepareStatement("DELETE FROM kv WHERE k >= ? AND k < ?");
    // A negative LIMIT means no limit in SQLite, so one statement per direction serves both.
    this.rangeForward =
        connection.prepareStatement(
            "SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k ASC LIMIT ?");
    this.rangeReverse =
        connection.prepareStatement(
            "SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k DESC LIMIT ?");
  }

  /**
   * Opens a connection with the store's pragmas: WAL journal, {@code synchronous=FULL} (every
   * commit is fsynced before it returns) and the busy timeout. The writer also gets its page cache
   * and checkpoint interval ({@link #WRITER_CACHE_KIB}, {@link #WAL_AUTOCHECKPOINT_PAGES}) and
   * creates the table; readers are opened afterwards and are {@code query_only}.
   */
  static SqliteConnection open(String url, SqliteSettings settings, Role role)
      throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout((int) settings.busyTimeout().toMillis());
    // The driver would otherwise look for generated keys after every statement, BEGIN and COMMIT
    // included: the kv table has none (issue 4's bench: a tenth of a point read's CPU).
    config.setGetGeneratedKeys(false);
    Connection connection = config.createConnection(url);
    try {
      try (Statement setup = connection.createStatement()) {
        if (role == Role.WRITER) {
          setup.execute("PRAGMA cache_size = -" + WRITER_CACHE_KIB);
          setup.execute("PRAGMA wal_autocheckpoint = " + WAL_AUTOCHECKPOINT_PAGES);
          setup.execute(SCHEMA);
        } else {
          setup.execute("PRAGMA query_only = ON");
        }
      }
      return new SqliteConnection(connection, role);
    } catch (SQLException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  void begin() throws SQLException {
    begin.execute();
  }

  void commit() throws SQLException {
    commit.execute();
  }

  void rollback() throws SQLException {
    rollback.execute();
  }

  byte[] get(byte[] key) throws SQLException {
    get.setBytes(1, key);
    try (ResultSet rows = get.executeQuery()) {
      return rows.next() ? rows.getBytes(1) : null;
    }
  }

  List<KeyValue> range(byte[] begin, byte[] end, int limit, Direction direction)
      throws SQLException {
    PreparedStatement statement = direction == Direction.FORWARD ? rangeForward : rangeReverse;
    statement.setBytes(1, begin);
    statement.setBytes(2, end);
    statement.setInt(3, limit == 0 ? -1 : limit);
    List<KeyValue> result = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        result.add(new KeyValue(rows.getBytes(1), rows.getBytes(2)));
      }
    }
    return result;
  }

  void set(byte[] key, byte[] value) throws SQLException {
    upsert.setBytes(1, key);
    upsert.setBytes(2, value);
    upsert.executeUpdate();
  }

  void clear(byte[] key) throws SQLException {
    delete.setBytes(1, key);
    delete.executeUpdate();
  }

  void clearRange(byte[] begin, byte[] end) throws SQLException {
    deleteRange.setBytes(1, begin);
    deleteRange.setBytes(2, end);
    deleteRange.executeUpdate();
  }

  /**
   * The value of pragma {@code name} on this connection, e.g. {@code journal_mode}; for tests and
   * diagnostics.
   */
  String pragma(String name) throws SQLException {
    if (!PRAGMA_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a pragma name: " + name);
    }
    try (ResultSet rows = control.executeQuery("PRAGMA " + name)) {
      return rows.next() ? rows.getString(1) : null;
    }
  }

  @Override
  public void close() {
    closeQuietly(connection);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing releases native handles even when it reports an error; nothing left to do.
    }
  }
}
