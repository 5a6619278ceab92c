package io.icegate.overlay.reconcile;

/**
 * Callbacks between the phases of a run, for tests that change the world at exactly that point
 * (an Integration update between discovery and publication, a newer run, a deletion). Called on
 * the run's thread; an exception ends the run as a failure. Production uses {@link #NONE}.
 */
public interface ReconcileHook {

  /** Does nothing. */
  ReconcileHook NONE = new ReconcileHook() {};

  /** After phase 1 produced the complete inventory, before anything is read from the store. */
  default void afterDiscovery(Inventory inventory) {}

  /** After phase 2 found no conflict, before the first publication. */
  default void afterPreflight(Inventory inventory) {}

  /** After publication batch {@code batch} (0-based) committed. */
  default void afterPublishBatch(int batch) {}

  /** After phase 4 (retirement) succeeded, before capture. */
  default void afterRetirement(Inventory inventory) {}

  /** After the capture step published its batches, before validation. */
  default void afterCapture(Inventory inventory) {}
}
