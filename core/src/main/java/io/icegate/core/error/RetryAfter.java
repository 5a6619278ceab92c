package io.icegate.core.error;

import java.util.OptionalInt;

/**
 * The {@code Retry-After} hint (RFC 9110, section 10.2.3) both HTTP surfaces send with an error
 * whose cause passes by itself: contention in the store, another attempt still holding the
 * idempotency key, an upstream momentarily unreachable, or another reconcile of the same Overlay.
 * A client that honours it waits instead of hammering; one second is as long as contention or a
 * key usually lasts (the idempotency lease may last longer, and the retry then gets 409 again with
 * the same hint); an upstream or a reconcile gets five, since either rarely passes within one.
 */
public final class RetryAfter {
  /** The header's name. */
  public static final String HEADER = "Retry-After";

  private RetryAfter() {}

  /** The seconds to wait before retrying an answer with {@code code}; empty: no hint. */
  public static OptionalInt seconds(ErrorCode code) {
    return switch (code) {
      case STORE_CONTENTION, IDEMPOTENCY_IN_PROGRESS -> OptionalInt.of(1);
      case UPSTREAM_UNAVAILABLE, RECONCILE_IN_PROGRESS -> OptionalInt.of(5);
      default -> OptionalInt.empty();
    };
  }
}
