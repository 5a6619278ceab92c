package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.key;
import static io.icegate.core.store.ConformanceKeys.value;
import static io.icegate.core.store.Interleaving.await;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of conflicts: a point or range read conflicts with a concurrent write into what it
 * read (and only into that), a snapshot read never does, a conflict is retried, and concurrent
 * read-modify-writes are serializable. The interleaving tests run only on drivers that report
 * conflicts (see {@link ConformanceFixture#assumeReportsConflicts()}).
 */
interface ConflictConformance extends ConformanceFixture {

  @Test
  default void snapshotReadDoesNotConflict() throws Exception {
    assumeReportsConflicts();
    put(key("watched"), value("1"));
    int attempts =
        Interleaving.readThenWrite(
            store(),
            tx -> tx.snapshot().get(key("watched")),
            (tx, read) -> tx.set(key("result"), read),
            tx -> tx.set(key("watched"), value("2")));
    assertThat(attempts).as("attempts of the transaction that read by snapshot").isEqualTo(1);
    assertThat(get(key("result"))).isEqualTo(value("1"));
  }

  @Test
  default void pointReadConflictsWithConcurrentWrite() throws Exception {
    assumeReportsConflicts();
    put(key("watched"), value("1"));
    int attempts =
        Interleaving.readThenWrite(
            store(),
            tx -> tx.get(key("watched")),
            (tx, read) -> tx.set(key("result"), read),
            tx -> tx.set(key("watched"), value("2")));
    assertThat(attempts).isEqualTo(2);
    assertThat(get(key("result"))).as("serial order: writer first").isEqualTo(value("2"));
  }

  @Test
  default void rangeReadConflictsWithConcurrentInsertIntoRange() throws Exception {
    assumeReportsConflicts();
    put(key("rows", 10L), value("a"));
    int attempts =
        Interleaving.readThenWrite(
            store(),
            tx -> tx.getRange(key("rows", 0L), key("rows", 100L)).size(),
            (tx, count) -> tx.set(key("count"), Tuple.from((long) count).pack()),
            tx -> tx.set(key("rows", 50L), value("b")));
    assertThat(attempts).isEqualTo(2);
    assertThat(Tuple.fromBytes(get(key("count"))).getLong(0))
        .as("the count equals the rows in the range: the insert is serialized before the count")
        .isEqualTo(2L);
  }

  @Test
  default void insertOutsideReadRangeDoesNotConflict() throws Exception {
    assumeReportsConflicts();
    put(key("rows", 10L), value("a"));
    int attempts =
        Interleaving.readThenWrite(
            store(),
            tx -> tx.getRange(key("rows", 0L), key("rows", 100L)).size(),
            (tx, count) -> tx.set(key("count"), Tuple.from((long) count).pack()),
            tx -> tx.set(key("rows", 100L), value("at the exclusive end")));
    assertThat(attempts).isEqualTo(1);
  }

  @Test
  default void concurrentIncrementsAreSerializable() throws Exception {
    int threads = 8;
    int increments = 50;
    long writesBefore = store().stats().committedWrites();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  await(start);
                  for (int i = 0; i < increments; i++) {
                    store()
                        .run(
                            tx -> {
                              byte[] current = tx.get(key("counter"));
                              long n = current == null ? 0 : Tuple.fromBytes(current).getLong(0);
                              tx.set(key("counter"), Tuple.from(n + 1).pack());
                              return null;
                            });
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(Interleaving.WAIT_SECONDS * 2, SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long total = Tuple.fromBytes(get(key("counter"))).getLong(0);
    assertThat(total).isEqualTo((long) threads * increments);
    assertThat(store().stats().committedWrites() - writesBefore)
        .isEqualTo((long) threads * increments);
  }

  @Test
  default void conflictThrownByBodyIsRetried() {
    AtomicInteger attempts = new AtomicInteger();
    long conflictsBefore = store().stats().conflicts();
    String result =
        store()
            .run(
                tx -> {
                  if (attempts.incrementAndGet() == 1) {
                    tx.set(key("first attempt"), value("x"));
                    throw new TransactionConflictException("injected by the test");
                  }
                  tx.set(key("second attempt"), value("y"));
                  return "done";
                });
    assertThat(result).isEqualTo("done");
    assertThat(attempts).hasValue(2);
    assertThat(get(key("first attempt"))).isNull();
    assertThat(get(key("second attempt"))).isEqualTo(value("y"));
    assertThat(store().stats().conflicts() - conflictsBefore).isEqualTo(1);
  }
}
