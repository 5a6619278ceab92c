package io.icegate.gateway.ops;

import io.icegate.overlay.store.capture.CaptureChunkCollector;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the capture chunk collector on a fixed cadence in the server (issue 10, "Cleanup":
 * unreferenced chunks are collected after a grace period). One daemon thread; a pass that fails is
 * logged and the next pass runs as planned, since the collector only deletes what it re-checks in
 * its own transaction. Closing stops the cadence and waits briefly for a running pass.
 */
public final class ChunkCollection implements AutoCloseable {
  /** How long after its latest write a blob is spared: far above any publication's duration. */
  public static final Duration GRACE = Duration.ofHours(1);

  /** Time between the end of one pass and the start of the next. */
  public static final Duration CADENCE = Duration.ofMinutes(15);

  private static final Logger LOG = LoggerFactory.getLogger(ChunkCollection.class);

  private final ScheduledExecutorService executor;

  private ChunkCollection(ScheduledExecutorService executor) {
    this.executor = executor;
  }

  /**
   * Starts collecting with {@code collector} every {@code cadence}, the first pass one cadence
   * from now (a starting server has other work first).
   *
   * @throws IllegalArgumentException when {@code cadence} is not positive
   */
  public static ChunkCollection start(CaptureChunkCollector collector, Duration cadence) {
    Objects.requireNonNull(collector, "collector");
    if (cadence.isNegative() || cadence.isZero()) {
      throw new IllegalArgumentException("cadence must be positive");
    }
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "icegate-chunk-collector");
      thread.setDaemon(true);
      return thread;
    });
    executor.scheduleWithFixedDelay(() -> pass(collector), cadence.toMillis(),
        cadence.toMillis(), TimeUnit.MILLISECONDS);
    return new ChunkCollection(executor);
  }

  private static void pass(CaptureChunkCollector collector) {
    try {
      int collected = collector.collect();
      if (collected > 0) {
        LOG.info("capture chunk collection deleted {} unreferenced blob(s)", collected);
      }
    } catch (RuntimeException e) {
      // an exception escaping would cancel every later pass of the schedule
      LOG.warn("capture chunk collection failed; the next pass runs as planned", e);
    }
  }

  /** Stops the cadence; a running pass gets up to 5 s to finish. Idempotent. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
