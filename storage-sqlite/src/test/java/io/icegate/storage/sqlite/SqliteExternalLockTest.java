package io.icegate.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.engine.RetryPolicy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process (here: a plain JDBC connection, as the sqlite3 shell or a backup tool would be)
 * holds the database file's write lock. A write must answer "contended" after a bounded wait, not
 * keep the caller for as long as the lock is held: each attempt already waits the busy timeout,
 * so the retry loop's elapsed bound, not its attempt count, decides when to give up.
 */
class SqliteExternalLockTest {

  private static final Subspace ROOT = KeySubspace.SCRATCH.get(Tuple.from("external-lock"));

  @TempDir Path dir;

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aWriteBehindAnExternalLockGivesUpAfterTheElapsedBound() throws Exception {
    Path file = dir.resolve("store.db");
    SqliteSettings settings = SqliteSettings.DEFAULT.withBusyTimeout(Duration.ofMillis(500));
    try (KvStore store = SqliteKvStore.open(file, settings)) {
      store.run(tx -> {
        tx.set(ROOT.pack(Tuple.from("k")), new byte[] {1});
        return null;
      });
      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement lock = other.createStatement()) {
        lock.execute("BEGIN EXCLUSIVE");

        long start = System.nanoTime();
        assertThatThrownBy(() -> store.run(tx -> {
              tx.set(ROOT.pack(Tuple.from("k")), new byte[] {2});
              return null;
            }))
            .isInstanceOf(TransactionConflictException.class);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        // 100 attempts of a 500 ms busy wait would be 50 s or more; the bound is 10 s plus the
        // attempt that was running when it passed.
        assertThat(waited)
            .isLessThan(RetryPolicy.DEFAULT_MAX_ELAPSED.plus(Duration.ofSeconds(5)));
        assertThat(value(store)).containsExactly(1);

        other.createStatement().execute("ROLLBACK");
      }
      store.run(tx -> {
        tx.set(ROOT.pack(Tuple.from("k")), new byte[] {3});
        return null;
      });
      assertThat(value(store)).containsExactly(3);
    }
  }

  private static byte[] value(KvStore store) {
    return store.read(tx -> tx.get(ROOT.pack(Tuple.from("k"))));
  }
}
