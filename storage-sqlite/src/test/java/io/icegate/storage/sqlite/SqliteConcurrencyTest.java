package io.icegate.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads on one store: writers do read-modify-write on a shared counter while adding one item
 * each, readers check in every snapshot that the counter equals the number of items. Lost updates
 * would break the final count; a torn read would break a reader's check.
 */
class SqliteConcurrencyTest {

  private static final int WRITERS = 4;
  private static final int READERS = 3;
  private static final int TRANSACTIONS_PER_WRITER = 100;

  private static final Subspace ROOT = KeySubspace.SCRATCH.get(Tuple.from("concurrency"));
  private static final byte[] COUNTER = ROOT.pack(Tuple.from("counter"));
  private static final Subspace ITEMS = ROOT.subspace(Tuple.from("item"));

  @TempDir Path dir;

  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void mixedReadersAndWritersKeepExactCounts() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (KvStore store = SqliteKvStore.open(dir.resolve("store.db"))) {
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<Integer>> writers = new ArrayList<>();
      List<Future<Integer>> readers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> write(store, writer, start)));
      }
      for (int r = 0; r < READERS; r++) {
        readers.add(pool.submit(readUntil(store, writing, start)));
      }
      start.countDown();
      for (Future<Integer> writer : writers) {
        assertThat(writer.get(90, TimeUnit.SECONDS)).isEqualTo(TRANSACTIONS_PER_WRITER);
      }
      writing.set(false);
      for (Future<Integer> reader : readers) {
        assertThat(reader.get(30, TimeUnit.SECONDS)).as("snapshots checked").isPositive();
      }

      long total = WRITERS * TRANSACTIONS_PER_WRITER;
      long[] finalState = store.read(tx -> new long[] {
          Tuple.fromBytes(tx.get(COUNTER)).getLong(0),
          tx.getRange(ITEMS.range().begin, ITEMS.range().end).size()});
      assertThat(finalState).containsExactly(total, total);
      assertThat(store.stats().committedWrites()).isEqualTo(total);
      assertThat(store.stats().conflicts()).as("SQLite serializes writers").isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  private static int write(KvStore store, int writer, CountDownLatch start) throws Exception {
    start.await();
    for (int i = 0; i < TRANSACTIONS_PER_WRITER; i++) {
      int item = i;
      store.run(tx -> {
        byte[] current = tx.get(COUNTER);
        long count = current == null ? 0 : Tuple.fromBytes(current).getLong(0);
        tx.set(COUNTER, Tuple.from(count + 1).pack());
        tx.set(ITEMS.pack(Tuple.from(writer, item)), Tuple.from(count).pack());
        return null;
      });
    }
    return TRANSACTIONS_PER_WRITER;
  }

  private static Callable<Integer> readUntil(
      KvStore store, AtomicBoolean writing, CountDownLatch start) {
    return () -> {
      start.await();
      int checks = 0;
      do {
        long[] snapshot = store.read(tx -> {
          byte[] counter = tx.get(COUNTER);
          int items = tx.getRange(ITEMS.range().begin, ITEMS.range().end).size();
          return new long[] {counter == null ? 0 : Tuple.fromBytes(counter).getLong(0), items};
        });
        assertThat(snapshot[1]).as("items in the same snapshot as the counter")
            .isEqualTo(snapshot[0]);
        checks++;
      } while (writing.get());
      return checks;
    };
  }
}
