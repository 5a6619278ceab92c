package io.icegate.gateway.ops;

import io.icegate.overlay.generated.GeneratedFilesCollector;
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
 * unreferenced chunks are collected after a grace period), and after it the collector of the
 * files generated for captured Delta tables (issue 26). One daemon thread; a pass that fails is
 * logged and the next pass runs as planned, since each collector only deletes what it re-checks
 * in its own transaction. Closing stops the cadence and waits briefly for a running pass.
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
    return start(collector, null, cadence);
  }

  /**
   * As {@link #start(CaptureChunkCollector, Duration)}, each pass also collecting generated files
   * with {@code generated} (none when {@code null}).
   */
  public static ChunkCollection start(CaptureChunkCollector collector,
      GeneratedFilesCollector generated, Duration cadence) {
    Objects.requireNonNull(collector, "collector");
    if (cadence.isNegative() || cadence.isZero()) {
      throw new IllegalArgumentException("cadence must be positive");
    }
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "icegate-chunk-collector");
      thread.setDaemon(true);
      return thread;
    });
    executor.scheduleWithFixedDelay(() -> pass(collector, generated), cadence.toMillis(),
        cadence.toMillis(), TimeUnit.MILLISECONDS);
    return new ChunkCollection(executor);
  }

  private static void pass(CaptureChunkCollector collector, GeneratedFilesCollector generated) {
    try {
      int collected = collector.collect();
      if (collected > 0) {
        LOG.info("capture chunk collection deleted {} unreferenced blob(s)", collected);
      }
    } catch (RuntimeException e) {
      // an exception escaping would cancel every later pass of the schedule
      LOG.warn("capture chunk collection failed; the next pass runs as planned", e);
    }
    if (generated == null) {
      return;
    }
    try {
      GeneratedFilesCollector.Result result = generated.collect();
      if (result.deleted() > 0) {
        LOG.info("generated-file collection deleted {} unreferenced file(s) of {} table(s)",
            result.deleted(), result.tables());
      }
    } catch (RuntimeException e) {
      LOG.warn("generated-file collection failed; the next pass runs as planned", e);
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
