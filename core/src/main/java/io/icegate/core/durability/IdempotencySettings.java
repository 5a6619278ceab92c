package io.icegate.core.durability;

import java.time.Duration;
import java.util.Objects;

/**
 * Timing of idempotent creates.
 *
 * @param lease how long a pending reservation blocks other requests with the same key; after it
 *     lapses, a retry with the same request resumes with the reserved id
 * @param receiptLifetime how long a receipt answers replays; expired receipts are ignored and
 *     swept
 */
public record IdempotencySettings(Duration lease, Duration receiptLifetime) {
  /** 30 s lease (well above a create's few transactions), 24 h receipts. */
  public static final IdempotencySettings DEFAULT =
      new IdempotencySettings(Duration.ofSeconds(30), Duration.ofHours(24));

  public IdempotencySettings {
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(receiptLifetime, "receiptLifetime");
    if (lease.isNegative() || lease.isZero() || receiptLifetime.compareTo(lease) < 0) {
      throw new IllegalArgumentException("need 0 < lease <= receiptLifetime");
    }
  }
}
