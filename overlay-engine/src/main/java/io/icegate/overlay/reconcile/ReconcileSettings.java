package io.icegate.overlay.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of reconciliation.
 *
 * @param concurrency upstream listings and loads in flight at once (at least 1)
 * @param batch relations or namespaces per store transaction (at least 1); with definition bytes
 *     also capped per transaction, batches stay far below the 10 MB / 5 s limits
 * @param lease how long a run's record blocks others after its last renewal (renewed by every
 *     publication and by the heartbeat of {@link ReconcileOperations}, which requires it longer
 *     than its staleness bound)
 * @param allowLocalFiles whether validation may read {@code file:} locations (the server setting
 *     {@code --allow-local-files}, off by default: it would let an upstream point the server at
 *     its own disk)
 */
public record ReconcileSettings(int concurrency, int batch, Duration lease,
    boolean allowLocalFiles) {

  /**
   * The default run lease: 60 s, six heartbeats ({@link ReconcileOperations#DEFAULT_HEARTBEAT})
   * and twice the staleness bound ({@link ReconcileOperations#DEFAULT_STALE_AFTER}), so a live run
   * survives several slow or failed renewals while a dead one frees its Overlay within a minute.
   */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /** 8 concurrent upstream calls, 100 items per transaction, {@link #DEFAULT_LEASE}, no local
   * files. */
  public static final ReconcileSettings DEFAULT = new ReconcileSettings(8, 100, DEFAULT_LEASE);

  /** Settings that read no local file. */
  public ReconcileSettings(int concurrency, int batch, Duration lease) {
    this(concurrency, batch, lease, false);
  }

  /** These settings, reading {@code file:} locations or not. */
  public ReconcileSettings withAllowLocalFiles(boolean allow) {
    return new ReconcileSettings(concurrency, batch, lease, allow);
  }

  /** Environment variable overriding {@link #concurrency} in the gateway. */
  public static final String CONCURRENCY_ENV = "ICEGATE_RECONCILE_CONCURRENCY";

  /**
   * {@link #DEFAULT} with the concurrency named by {@code value} ({@link #CONCURRENCY_ENV}), or
   * unchanged when it is {@code null} or blank.
   *
   * @throws InvalidSettingException when the value is not an integer from 1 to 256
   */
  public static ReconcileSettings withConcurrency(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT;
    }
    int concurrency;
    try {
      concurrency = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      concurrency = 0;
    }
    if (concurrency < 1 || concurrency > 256) {
      throw new InvalidSettingException(CONCURRENCY_ENV + " must be an integer from 1 to 256");
    }
    return new ReconcileSettings(concurrency, DEFAULT.batch(), DEFAULT.lease());
  }

  public ReconcileSettings {
    if (concurrency < 1 || batch < 1) {
      throw new IllegalArgumentException("concurrency and batch must be at least 1");
    }
    Objects.requireNonNull(lease, "lease");
  }

  /** A setting from the environment is out of range: an operator's mistake, reported in one line. */
  public static final class InvalidSettingException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    InvalidSettingException(String message) {
      super(message);
    }
  }
}
