package io.icegate.core.durability;

import io.icegate.core.error.IcegateException;
import io.icegate.core.repo.OnConflict;
import java.util.Objects;

/**
 * How a create should run: its conflict mode and, optionally, an idempotency key (admin {@code
 * ?onConflict=} and {@code Idempotency-Key}).
 *
 * @param onConflict what to do when the name is taken
 * @param idempotencyKey the client's key, or {@code null}
 */
public record CreateRequest(OnConflict onConflict, String idempotencyKey) {
  public CreateRequest {
    Objects.requireNonNull(onConflict, "onConflict");
    if (idempotencyKey != null && onConflict == OnConflict.REPLACE) {
      // seed 000: replacement is state-idempotent and cannot be combined with an idempotency key.
      throw IcegateException.invalidArgument(
          "onConflict=replace cannot be combined with an Idempotency-Key");
    }
  }

  /** A plain create that fails on a taken name. */
  public static CreateRequest plain() {
    return new CreateRequest(OnConflict.ERROR, null);
  }
}
