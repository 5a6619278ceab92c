package io.icegate.overlay.reconcile;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
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
  private final AtomicLong loaded = new AtomicLong();
  final AtomicLong created = new AtomicLong();
  final AtomicLong updated = new AtomicLong();
  final AtomicLong unchanged = new AtomicLong();
  final AtomicLong retired = new AtomicLong();
  final AtomicLong namespacesClaimed = new AtomicLong();
  final AtomicLong namespacesCreated = new AtomicLong();
  final AtomicLong namespacesPruned = new AtomicLong();
  final AtomicLong captured = new AtomicLong();
  final AtomicLong captureUnchanged = new AtomicLong();
  final AtomicLong captureFailed = new AtomicLong();
  final AtomicLong validated = new AtomicLong();
  final AtomicLong validationFailed = new AtomicLong();

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

  void loaded() {
    loaded.incrementAndGet();
  }

  /** The counts so far, by name (loaded, created, updated, unchanged, retired, namespaces*,
   * captured, captureUnchanged, captureFailed, validated, validationFailed). */
  public Map<String, Long> counts() {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("loaded", loaded.get());
    out.put("created", created.get());
    out.put("updated", updated.get());
    out.put("unchanged", unchanged.get());
    out.put("retired", retired.get());
    out.put("namespacesClaimed", namespacesClaimed.get());
    out.put("namespacesCreated", namespacesCreated.get());
    out.put("namespacesPruned", namespacesPruned.get());
    out.put("captured", captured.get());
    out.put("captureUnchanged", captureUnchanged.get());
    out.put("captureFailed", captureFailed.get());
    out.put("validated", validated.get());
    out.put("validationFailed", validationFailed.get());
    return out;
  }
}
