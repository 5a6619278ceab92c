package io.icegate.filecheck;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs file checks on up to {@code parallelism} daemon threads of its own, with at most twice that
 * many checks submitted and not finished, so that streaming a huge manifest never queues more than
 * a handful of entries. With parallelism 1 every check runs in the caller's thread. {@link #close}
 * waits for every submitted check and rethrows the first one that failed unexpectedly (checks
 * report problems as values; a throw here is a bug or an {@link Error}).
 */
final class FilePool implements AutoCloseable {

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final ExecutorService executor;
  private final Semaphore slots;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  FilePool(int parallelism) {
    if (parallelism == 1) {
      this.executor = null;
      this.slots = null;
      return;
    }
    int pool = POOLS.incrementAndGet();
    AtomicInteger threads = new AtomicInteger();
    this.executor =
        Executors.newFixedThreadPool(
            parallelism,
            task -> {
              Thread thread = new Thread(task, "filecheck-" + pool + "-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    this.slots = new Semaphore(parallelism * 2);
  }

  /**
   * Runs {@code check} now (parallelism 1) or on a pool thread, blocking while the pool is full.
   *
   * @throws CancellationException when the caller is interrupted while waiting
   */
  void submit(Runnable check) {
    if (executor == null) {
      check.run();
      return;
    }
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      throw new CancellationException("file validation interrupted");
    }
    executor.execute(
        () -> {
          try {
            check.run();
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          } finally {
            slots.release();
          }
        });
  }

  /** Waits for every submitted check. */
  @Override
  public void close() {
    if (executor == null) {
      return;
    }
    executor.shutdown();
    try {
      while (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
        // checks are bounded by the store's timeouts; keep waiting
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
      throw new CancellationException("file validation interrupted");
    }
    Throwable failed = failure.get();
    if (failed instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failed instanceof Error error) {
      throw error;
    }
    if (failed != null) {
      throw new IllegalStateException(failed);
    }
  }
}
