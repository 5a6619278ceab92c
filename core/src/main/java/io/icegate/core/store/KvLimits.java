package io.icegate.core.store;

import java.time.Duration;

/**
 * FoundationDB's limits, enforced by every driver so that what works on SQLite works on
 * FoundationDB (DESIGN.md "Storage"; FoundationDB "Known limitations").
 */
public final class KvLimits {
  /** Largest key, in bytes (FoundationDB: 10,000). */
  public static final int MAX_KEY_BYTES = 10_000;
  /** Largest value, in bytes (FoundationDB: 100,000). */
  public static final int MAX_VALUE_BYTES = 100_000;
  /**
   * Largest total of a transaction's writes, in bytes: key and value lengths of every set, key
   * lengths of every clear, both bounds of every range clear (FoundationDB: 10,000,000).
   */
  public static final int MAX_TRANSACTION_BYTES = 10_000_000;
  /** Oldest a transaction may get before it fails as "too old" (FoundationDB: 5 s). */
  public static final Duration MAX_TRANSACTION_AGE = Duration.ofSeconds(5);

  private KvLimits() {}
}
