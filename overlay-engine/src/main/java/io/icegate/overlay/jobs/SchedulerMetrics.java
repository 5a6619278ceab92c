package io.icegate.overlay.jobs;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one process's {@link RefreshScheduler} counts for {@code /metrics}: rounds running now,
 * rounds ended by outcome, and the time rounds that did work took. Rounds that found nothing due
 * ({@link RoundOutcome.State#IDLE}) or another holder's lease ({@link RoundOutcome.State#BUSY})
 * are counted but not timed.
 */
public final class SchedulerMetrics {
  final AtomicInteger running = new AtomicInteger();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong cancelled = new AtomicLong();
  private final AtomicLong timedRounds = new AtomicLong();
  private final AtomicLong timedNanos = new AtomicLong();

  void ended(RoundOutcome.State state, long nanos) {
    switch (state) {
      case SUCCEEDED -> succeeded.incrementAndGet();
      case FAILED -> failed.incrementAndGet();
      case CANCELLED -> cancelled.incrementAndGet();
      case IDLE, BUSY -> {
        return;
      }
    }
    timedRounds.incrementAndGet();
    timedNanos.addAndGet(nanos);
  }

  /** Rounds running in this process now. */
  public int running() {
    return running.get();
  }

  /** Rounds this process ended with every Overlay published. */
  public long succeeded() {
    return succeeded.get();
  }

  /** Rounds this process ended failed (the Integration backs off). */
  public long failed() {
    return failed.get();
  }

  /** Rounds this process cancelled (something the job depended on moved). */
  public long cancelled() {
    return cancelled.get();
  }

  /** Rounds that did work (succeeded, failed or cancelled). */
  public long timedRounds() {
    return timedRounds.get();
  }

  /** Their total duration in seconds. */
  public double timedSeconds() {
    return timedNanos.get() / 1e9;
  }
}
