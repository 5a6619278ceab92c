package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.begin;
import static io.icegate.core.store.ConformanceKeys.end;
import static io.icegate.core.store.ConformanceKeys.key;
import static io.icegate.core.store.ConformanceKeys.numbers;
import static io.icegate.core.store.ConformanceKeys.value;
import static io.icegate.core.store.Interleaving.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.ReadTransaction.Direction;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Conformance of what a transaction sees: its own uncommitted writes, nothing of another's until
 * that one commits, and one snapshot for all its reads; snapshot reads see the same data.
 */
interface IsolationConformance extends ConformanceFixture {

  @Test
  default void readsSeeOwnWritesBeforeCommit() {
    writeNumbers(0, 10);
    store()
        .run(
            tx -> {
              tx.set(key(2L), value("two"));
              tx.clear(key(5L));
              tx.set(key(10L), value("ten"));
              tx.clearRange(key(7L), key(9L));
              tx.set(key(8L), value("eight"));
              tx.set(key(20L), value("gone"));
              tx.clearRange(key(15L), key(25L));

              assertThat(tx.get(key(2L))).isEqualTo(value("two"));
              assertThat(tx.get(key(5L))).isNull();
              assertThat(tx.get(key(7L))).isNull();
              assertThat(tx.get(key(8L))).isEqualTo(value("eight"));
              assertThat(tx.get(key(20L))).isNull();
              assertThat(numbers(tx.getRange(begin(), end())))
                  .containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 8L, 9L, 10L);
              assertThat(numbers(tx.getRange(begin(), end(), 4, Direction.REVERSE)))
                  .containsExactly(10L, 9L, 8L, 6L);
              assertThat(numbers(tx.getRange(key(1L), key(9L), 3, Direction.FORWARD)))
                  .containsExactly(1L, 2L, 3L);
              assertThat(tx.getRange(key(2L), key(3L)).get(0).value()).isEqualTo(value("two"));
              assertThat(tx.snapshot().get(key(8L))).isEqualTo(value("eight"));
              assertThat(numbers(tx.snapshot().getRange(key(4L), key(11L))))
                  .containsExactly(4L, 6L, 8L, 9L, 10L);
              return null;
            });
    assertThat(numbers(range(begin(), end()))).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 8L, 9L, 10L);
    assertThat(get(key(2L))).isEqualTo(value("two"));
  }

  @Test
  default void writesAreInvisibleToOthersUntilCommit() throws Exception {
    CountDownLatch written = new CountDownLatch(1);
    CountDownLatch looked = new CountDownLatch(1);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<?> commit =
          writer.submit(
              () ->
                  store()
                      .run(
                          tx -> {
                            tx.set(key("pending"), value("v"));
                            written.countDown();
                            await(looked);
                            return null;
                          }));
      await(written);
      assertThat(get(key("pending"))).isNull();
      looked.countDown();
      commit.get(Interleaving.WAIT_SECONDS, SECONDS);
    } finally {
      writer.shutdownNow();
    }
    assertThat(get(key("pending"))).isEqualTo(value("v"));
  }

  @Test
  default void readOnlyTransactionSeesOneSnapshot() throws Exception {
    put(key("k"), value("old"));
    CountDownLatch firstRead = new CountDownLatch(1);
    CountDownLatch changed = new CountDownLatch(1);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<List<byte[]>> seen =
          reader.submit(
              () ->
                  store()
                      .read(
                          tx -> {
                            byte[] before = tx.get(key("k"));
                            firstRead.countDown();
                            await(changed);
                            return Arrays.asList(
                                before,
                                tx.get(key("k")),
                                String.valueOf(tx.getRange(begin(), end()).size())
                                    .getBytes(UTF_8));
                          }));
      await(firstRead);
      store()
          .run(
              tx -> {
                tx.set(key("k"), value("new"));
                tx.set(key("other"), value("x"));
                return null;
              });
      changed.countDown();
      List<byte[]> values = seen.get(Interleaving.WAIT_SECONDS, SECONDS);
      assertThat(values.get(0)).isEqualTo(value("old"));
      assertThat(values.get(1)).as("second read in the same transaction").isEqualTo(value("old"));
      assertThat(values.get(2)).as("keys in range").isEqualTo(value("1"));
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  default void snapshotViewReadsData() {
    writeNumbers(0, 5);
    store()
        .run(
            tx -> {
              assertThat(tx.snapshot().get(key(3L))).isEqualTo(Tuple.from(3L).pack());
              assertThat(numbers(tx.snapshot().getRange(key(1L), key(4L))))
                  .containsExactly(1L, 2L, 3L);
              assertThat(numbers(tx.snapshot().getRange(begin(), end(), 2, Direction.REVERSE)))
                  .containsExactly(4L, 3L);
              assertThat(tx.snapshot().snapshot().get(key(0L))).isEqualTo(Tuple.from(0L).pack());
              return null;
            });
    assertThat((byte[]) store().read(tx -> tx.snapshot().get(key(4L))))
        .isEqualTo(Tuple.from(4L).pack());
  }
}
