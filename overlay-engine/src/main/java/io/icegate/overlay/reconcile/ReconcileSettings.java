package io.icegate.overlay.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of reconciliation.
 *
 * @param concurrency upstream listings and loads in flight at once (at least 1)
 * @param batch relations or namespaces per store transaction (at least 1); with definition bytes
 *     also capped per transaction, batches stay far below the 10 MB / 5 s limits
 * @param lease how long a run blocks others without renewing (renewed by every publication)
 */
public record ReconcileSettings(int concurrency, int batch, Duration lease) {

  /** 8 concurrent upstream calls, 100 items per transaction, a 10-minute lease. */
  public static final ReconcileSettings DEFAULT =
      new ReconcileSettings(8, 100, Duration.ofMinutes(10));

  public ReconcileSettings {
    if (concurrency < 1 || batch < 1) {
      throw new IllegalArgumentException("concurrency and batch must be at least 1");
    }
    Objects.requireNonNull(lease, "lease");
  }
}
