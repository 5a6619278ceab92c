package io.icegate.overlay.reconcile;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * Live progress of one run: its phase and the counts so far, what an asynchronous operation shows
 * while it runs. Thread-safe (discovery loads count from several threads).
 */
public final class ReconcileProgress {

  /** The phases of a run, in order (seed 000 "Reconciliation publication"). */
  public enum Phase { STARTING, DISCOVERY, PREFLIGHT, PUBLISH, RETIRE, CAPTURE, VALIDATE, DONE }

  private volatile Phase phase = Phase.STARTING;
  private final Consumer<Phase> onEnter;
  private final AtomicLongArray counts = new AtomicLongArray(ReconcileCount.values().length);

  /** Progress nobody is told about. */
  public ReconcileProgress() {
    this(phase -> { });
  }

  /**
   * Progress that calls {@code onEnter} on the run's thread each time the run enters another
   * phase, after the phase is set (so {@link #phase} and the counts so far are what a listener
   * reads); it should be quick and must not throw.
   */
  public ReconcileProgress(Consumer<Phase> onEnter) {
    this.onEnter = Objects.requireNonNull(onEnter, "onEnter");
  }

  public Phase phase() {
    return phase;
  }

  void enter(Phase next) {
    if (phase == next) {
      return;
    }
    phase = next;
    onEnter.accept(next);
  }

  void add(ReconcileCount kind, long n) {
    counts.addAndGet(kind.ordinal(), n);
  }

  /** The counts so far. */
  public ReconcileCounts counts() {
    Map<ReconcileCount, Long> out = new EnumMap<>(ReconcileCount.class);
    for (ReconcileCount kind : ReconcileCount.values()) {
      out.put(kind, counts.get(kind.ordinal()));
    }
    return ReconcileCounts.of(out);
  }
}
