package io.icegate.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.ReadMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Driver-specific behaviour of {@link SqliteEngine}: pragmas, key order, locking, errors. */
class SqliteEngineTest {

  @TempDir Path dir;

  private SqliteEngine engine;

  @AfterEach
  void closeEngine() {
    if (engine != null) {
      engine.close();
    }
  }

  private SqliteEngine open(SqliteSettings settings) {
    engine = SqliteEngine.open(dir.resolve("store.db"), settings);
    return engine;
  }

  private static byte[] bytes(int... values) {
    byte[] result = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      result[i] = (byte) values[i];
    }
    return result;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void writerAndReaderConnectionsRunWalWithFullSync() {
    SqliteEngine e = open(SqliteSettings.DEFAULT.withBusyTimeout(Duration.ofMillis(1234)));
    for (AccessMode mode : AccessMode.values()) {
      assertThat(e.pragma(mode, "journal_mode")).as(mode.name()).isEqualTo("wal");
      assertThat(e.pragma(mode, "synchronous")).as(mode.name()).isEqualTo("2"); // FULL
      assertThat(e.pragma(mode, "busy_timeout")).as(mode.name()).isEqualTo("1234");
    }
    assertThat(e.pragma(AccessMode.READ_ONLY, "query_only")).isEqualTo("1");
    assertThat(e.pragma(AccessMode.READ_WRITE, "query_only")).isEqualTo("0");
    // the writer's cache and checkpoint interval (issue 8's bench), readers keep SQLite's
    assertThat(e.pragma(AccessMode.READ_WRITE, "cache_size")).isEqualTo("-65536");
    assertThat(e.pragma(AccessMode.READ_WRITE, "wal_autocheckpoint")).isEqualTo("10000");
    assertThat(e.pragma(AccessMode.READ_ONLY, "cache_size")).isEqualTo("-2000");
  }

  @Test
  void walModeIsRecordedInTheFileAndTheTableHasNoRowid() throws Exception {
    open(SqliteSettings.DEFAULT).close();
    try (Connection plain = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("store.db"));
        Statement s = plain.createStatement()) {
      try (ResultSet rows = s.executeQuery("PRAGMA journal_mode")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo("wal");
      }
      try (ResultSet rows = s.executeQuery("SELECT sql FROM sqlite_schema WHERE name = 'kv'")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).containsIgnoringCase("WITHOUT ROWID");
      }
    }
  }

  @Test
  void keysSortAsUnsignedBytesInBothDirections() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    // Inserted in an order where signed comparison (0x80..0xff < 0x00) would differ.
    List<byte[]> sorted =
        List.of(bytes(), bytes(0x00), bytes(0x00, 0x00), bytes(0x01), bytes(0x7f),
            bytes(0x7f, 0xff), bytes(0x80), bytes(0x80, 0x00), bytes(0xfe), bytes(0xff),
            bytes(0xff, 0x00), bytes(0xff, 0xff));
    try (EngineTransaction tx = e.begin(AccessMode.READ_WRITE)) {
      for (int i = sorted.size() - 1; i >= 0; i -= 2) {
        tx.set(sorted.get(i), bytes(i));
      }
      for (int i = sorted.size() - 2; i >= 0; i -= 2) {
        tx.set(sorted.get(i), bytes(i));
      }
      tx.commit();
    }
    byte[] end = bytes(0xff, 0xff, 0xff);
    try (EngineTransaction tx = e.begin(AccessMode.READ_ONLY)) {
      List<KeyValue> forward = tx.getRange(bytes(), end, 0, Direction.FORWARD, ReadMode.SERIALIZABLE);
      assertThat(forward).extracting(KeyValue::key).containsExactlyElementsOf(sorted);

      List<KeyValue> reverse = tx.getRange(bytes(), end, 3, Direction.REVERSE, ReadMode.SNAPSHOT);
      assertThat(reverse).extracting(KeyValue::key)
          .containsExactly(bytes(0xff, 0xff), bytes(0xff, 0x00), bytes(0xff));

      List<KeyValue> highHalf =
          tx.getRange(bytes(0x80), bytes(0xff), 2, Direction.FORWARD, ReadMode.SERIALIZABLE);
      assertThat(highHalf).extracting(KeyValue::key).containsExactly(bytes(0x80), bytes(0x80, 0x00));
      tx.commit();
    }
  }

  @Test
  void emptyKeyAndEmptyValueRoundTrip() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    try (EngineTransaction tx = e.begin(AccessMode.READ_WRITE)) {
      tx.set(bytes(), bytes());
      tx.set(bytes(0x01), bytes());
      tx.commit();
    }
    try (EngineTransaction tx = e.begin(AccessMode.READ_ONLY)) {
      assertThat(tx.get(bytes(), ReadMode.SERIALIZABLE)).isEmpty();
      assertThat(tx.get(bytes(0x01), ReadMode.SERIALIZABLE)).isEmpty();
      assertThat(tx.get(bytes(0x02), ReadMode.SERIALIZABLE)).isNull();
      assertThat(tx.getRange(bytes(), bytes(0x01), 0, Direction.FORWARD, ReadMode.SERIALIZABLE))
          .containsExactly(new KeyValue(bytes(), bytes()));
    }
  }

  @Test
  void writesAreVisibleToTheirTransactionOnlyUntilCommit() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    byte[] a = utf8("a");
    try (EngineTransaction writer = e.begin(AccessMode.READ_WRITE)) {
      writer.set(a, utf8("1"));
      assertThat(writer.get(a, ReadMode.SERIALIZABLE)).isEqualTo(utf8("1"));
      try (EngineTransaction reader = e.begin(AccessMode.READ_ONLY)) {
        assertThat(reader.get(a, ReadMode.SERIALIZABLE)).isNull();
      }
      writer.clearRange(utf8("a"), utf8("b"));
      assertThat(writer.get(a, ReadMode.SERIALIZABLE)).isNull();
      writer.set(a, utf8("2"));
      writer.commit();
    }
    try (EngineTransaction reader = e.begin(AccessMode.READ_ONLY)) {
      assertThat(reader.get(a, ReadMode.SERIALIZABLE)).isEqualTo(utf8("2"));
    }
  }

  @Test
  void closingWithoutCommitRollsBack() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    try (EngineTransaction tx = e.begin(AccessMode.READ_WRITE)) {
      tx.set(utf8("k"), utf8("v"));
    }
    try (EngineTransaction tx = e.begin(AccessMode.READ_ONLY)) {
      assertThat(tx.get(utf8("k"), ReadMode.SERIALIZABLE)).isNull();
    }
  }

  @Test
  void readOnlyTransactionKeepsItsSnapshotWhileTheWriterCommits() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    byte[] a = utf8("a");
    byte[] b = utf8("b");
    try (EngineTransaction tx = e.begin(AccessMode.READ_WRITE)) {
      tx.set(a, utf8("1"));
      tx.set(b, utf8("1"));
      tx.commit();
    }
    try (EngineTransaction reader = e.begin(AccessMode.READ_ONLY)) {
      assertThat(reader.get(a, ReadMode.SERIALIZABLE)).isEqualTo(utf8("1"));
      try (EngineTransaction writer = e.begin(AccessMode.READ_WRITE)) {
        writer.set(a, utf8("2"));
        writer.set(b, utf8("2"));
        writer.commit();
      }
      assertThat(reader.get(b, ReadMode.SERIALIZABLE)).isEqualTo(utf8("1"));
      assertThat(reader.getRange(a, utf8("c"), 0, Direction.FORWARD, ReadMode.SERIALIZABLE))
          .extracting(kv -> new String(kv.value(), StandardCharsets.UTF_8))
          .containsExactly("1", "1");
      reader.commit();
    }
    try (EngineTransaction reader = e.begin(AccessMode.READ_ONLY)) {
      assertThat(reader.get(b, ReadMode.SERIALIZABLE)).isEqualTo(utf8("2"));
    }
  }

  @Test
  void readOnlyTransactionRefusesWrites() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    try (EngineTransaction tx = e.begin(AccessMode.READ_ONLY)) {
      assertThatThrownBy(() -> tx.set(utf8("k"), utf8("v")))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void anotherProcessHoldingTheWriteLockIsAConflictAfterTheBusyTimeout() throws Exception {
    SqliteEngine e = open(SqliteSettings.DEFAULT.withBusyTimeout(Duration.ofMillis(200)));
    // A second connection stands in for another process: SQLite's file lock is the same.
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("store.db"));
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      long start = System.nanoTime();
      assertThatThrownBy(() -> e.begin(AccessMode.READ_WRITE))
          .isInstanceOf(TransactionConflictException.class)
          .hasMessageContaining("sqlite:");
      assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
      // Readers are not blocked by a writer in WAL mode.
      try (EngineTransaction reader = e.begin(AccessMode.READ_ONLY)) {
        assertThat(reader.get(utf8("k"), ReadMode.SERIALIZABLE)).isNull();
      }
      s.execute("ROLLBACK");
    }
    try (EngineTransaction tx = e.begin(AccessMode.READ_WRITE)) {
      tx.set(utf8("k"), utf8("v"));
      tx.commit();
    }
  }

  @Test
  void busyWriterIsRetriedByTheStore() throws Exception {
    KvStore store =
        SqliteKvStore.open(dir.resolve("store.db"), SqliteSettings.DEFAULT.withBusyTimeout(Duration.ofMillis(100)));
    try (store;
        Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("store.db"));
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      CompletableFuture<Void> released =
          CompletableFuture.runAsync(() -> {
            try {
              Thread.sleep(350);
              s.execute("ROLLBACK");
            } catch (Exception ex) {
              throw new IllegalStateException(ex);
            }
          });
      store.run(tx -> {
        tx.set(utf8("k"), utf8("v"));
        return null;
      });
      released.get(10, TimeUnit.SECONDS);
      assertThat(store.stats().conflicts()).isGreaterThanOrEqualTo(1);
      assertThat(store.stats().committedWrites()).isEqualTo(1);
      byte[] value = store.read(tx -> tx.get(utf8("k")));
      assertThat(value).isEqualTo(utf8("v"));
    }
  }

  @Test
  void exhaustedReaderPoolIsAConflict() {
    SqliteEngine e = open(new SqliteSettings(Duration.ofMillis(100), 1));
    try (EngineTransaction first = e.begin(AccessMode.READ_ONLY)) {
      assertThatThrownBy(() -> e.begin(AccessMode.READ_ONLY))
          .isInstanceOf(TransactionConflictException.class);
      assertThat(first.get(utf8("k"), ReadMode.SERIALIZABLE)).as("the holder still reads").isNull();
    }
    try (EngineTransaction again = e.begin(AccessMode.READ_ONLY)) {
      assertThat(again.get(utf8("k"), ReadMode.SERIALIZABLE)).isNull();
    }
  }

  @Test
  void nestedWriteOnOneThreadFailsInsteadOfWaitingForItself() {
    try (KvStore store = SqliteKvStore.open(dir.resolve("store.db"))) {
      assertThatThrownBy(() -> store.run(outer -> store.run(inner -> null)))
          .isInstanceOf(KvStoreFailureException.class)
          .hasMessageContaining("same thread");
      // The writer was released: the store still writes.
      store.run(tx -> {
        tx.set(utf8("k"), utf8("v"));
        return null;
      });
    }
  }

  @Test
  void fileThatIsNotADatabaseFailsToOpen() throws Exception {
    Path file = dir.resolve("garbage.db");
    byte[] text = new byte[8192];
    java.util.Arrays.fill(text, (byte) 'x');
    Files.write(file, text);
    assertThatThrownBy(() -> SqliteKvStore.open(file))
        .isInstanceOf(KvStoreFailureException.class)
        .hasMessageStartingWith("sqlite:" + file);
  }

  @Test
  void openCreatesParentDirectoriesAndDescribesTheAbsolutePath() {
    Path file = dir.resolve("a/b/c/store.db");
    try (KvStore store = SqliteKvStore.open(file)) {
      store.run(tx -> {
        tx.set(KeySubspace.SCRATCH.pack(Tuple.from("x")), utf8("v"));
        return null;
      });
      assertThat(store.toString()).contains("sqlite:" + file.toAbsolutePath());
    }
    assertThat(Files.isRegularFile(file)).isTrue();
    try (SqliteEngine e = SqliteEngine.open(dir.resolve("rel/../store2.db"), SqliteSettings.DEFAULT)) {
      assertThat(e.describe()).isEqualTo("sqlite:" + dir.resolve("store2.db").toAbsolutePath());
    }
  }

  @Test
  void closedEngineFailsToBegin() {
    SqliteEngine e = open(SqliteSettings.DEFAULT);
    e.close();
    e.close();
    for (AccessMode mode : AccessMode.values()) {
      assertThatThrownBy(() -> e.begin(mode))
          .isInstanceOf(KvStoreFailureException.class)
          .hasMessageContaining("closed");
    }
  }
}
