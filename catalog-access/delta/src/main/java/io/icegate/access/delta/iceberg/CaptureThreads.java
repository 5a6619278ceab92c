package io.icegate.access.delta.iceberg;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The threads a capture hands short store requests and decoding to while its own thread goes on:
 * the second existence check of {@link NextCommitProbe}, the uploads of {@link BackgroundUploads}
 * and the previous manifest list decoded ahead ({@link #decodeManifestsAhead}). Daemon threads,
 * made as captures need them (a bounded number) and gone when idle, so an idle gateway holds
 * none.
 */
final class CaptureThreads {

  /** The most threads at once, over every capture of the process. */
  static final int MAX_THREADS = 16;

  /**
   * At most {@link #MAX_THREADS}; more work waits in line (no task waits for another, so the line
   * always drains). Idle threads end after a minute.
   */
  static final ExecutorService POOL = pool();

  private static ExecutorService pool() {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            MAX_THREADS,
            MAX_THREADS,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "icegate-delta-capture");
              thread.setDaemon(true);
              return thread;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private CaptureThreads() {}

  /**
   * Decodes the manifest list of {@code previous}'s current snapshot on a pool thread, into the
   * snapshot itself (iceberg-core keeps a snapshot's manifests once read): the commit of the next
   * capture reads that list first, and decoding it takes as long as a store request. Call {@link
   * #settled} before the snapshot is used again; a failure is left for the commit to meet.
   */
  static Future<?> decodeManifestsAhead(TableMetadata previous, FileIO io) {
    if (previous == null || previous.currentSnapshot() == null) {
      return CompletableFuture.completedFuture(null);
    }
    Snapshot snapshot = previous.currentSnapshot();
    return POOL.submit(() -> snapshot.allManifests(io));
  }

  /** Waits for {@code work}; what it threw is not reported (the work is redone where it failed). */
  static void settled(Future<?> work) {
    try {
      work.get();
    } catch (ExecutionException e) {
      // the caller reads the same list itself and meets the same failure there
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * What {@code request} answered within {@code wait}; empty when it failed, was cancelled, or was
   * stuck (then it is cancelled): the caller falls back to a slower way that meets the same store.
   */
  static <T> Optional<T> answered(Future<T> request, Duration wait) {
    try {
      return Optional.ofNullable(request.get(wait.toMillis(), TimeUnit.MILLISECONDS));
    } catch (ExecutionException | CancellationException e) {
      return Optional.empty();
    } catch (TimeoutException e) {
      request.cancel(true);
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
