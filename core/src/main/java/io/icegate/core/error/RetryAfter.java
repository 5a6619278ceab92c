package io.icegate.core.error;

import java.util.OptionalInt;

/**
 * The {@code Retry-After} hint (RFC 9110, section 10.2.3) both HTTP surfaces send with an error
 * whose cause passes by itself: contention in the store, or another attempt still holding the
 * idempotency key. A client that honours it waits instead of hammering; one second is as long as
 * either usually lasts (the idempotency lease may last longer, and the retry then gets 409 again
 * with the same hint).
 */
public final class RetryAfter {
  /** The header's name. */
  public static final String HEADER = "Retry-After";

  private RetryAfter() {}

  /** The seconds to wait before retrying an answer with {@code code}; empty: no hint. */
  public static OptionalInt seconds(ErrorCode code) {
    return switch (code) {
      case STORE_CONTENTION, IDEMPOTENCY_IN_PROGRESS -> OptionalInt.of(1);
      default -> OptionalInt.empty();
    };
  }
}
