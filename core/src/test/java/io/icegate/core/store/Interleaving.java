package io.icegate.core.store;

import static java.util.concurrent.TimeUnit.SECONDS;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/** Two transactions of one store, interleaved with latches, for {@link KvStoreConformanceTest}. */
final class Interleaving {

  /** How long one side waits for the other before the test fails. */
  static final long WAIT_SECONDS = 20;

  private Interleaving() {}

  /**
   * Runs transaction T1 in another thread: {@code t1Read}, then (on its first attempt only) a pause
   * during which T2 = {@code t2} commits from the calling thread, then {@code t1Write} with what T1
   * read. Returns how many times T1's body ran: 2 when T2's write conflicted with T1's read.
   */
  static <R> int readThenWrite(
      KvStore store,
      Function<Transaction, R> t1Read,
      BiConsumer<Transaction, R> t1Write,
      Consumer<Transaction> t2)
      throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    CountDownLatch t1HasRead = new CountDownLatch(1);
    CountDownLatch t2Committed = new CountDownLatch(1);
    ExecutorService t1Thread = Executors.newSingleThreadExecutor();
    try {
      Future<?> t1 =
          t1Thread.submit(
              () ->
                  store.run(
                      tx -> {
                        R read = t1Read.apply(tx);
                        if (attempts.incrementAndGet() == 1) {
                          t1HasRead.countDown();
                          await(t2Committed);
                        }
                        t1Write.accept(tx, read);
                        return null;
                      }));
      await(t1HasRead);
      store.run(
          tx -> {
            t2.accept(tx);
            return null;
          });
      t2Committed.countDown();
      t1.get(WAIT_SECONDS, SECONDS);
    } finally {
      t1Thread.shutdownNow();
    }
    return attempts.get();
  }

  /** Waits for {@code latch}, failing the test after {@link #WAIT_SECONDS}. */
  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(WAIT_SECONDS, SECONDS)) {
        throw new AssertionError("timed out waiting for the other transaction");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
