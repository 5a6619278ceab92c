package io.icegate.core.durability;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;

/**
 * A rejection an idempotency receipt recorded, answered again to a retry with the same key: the
 * HTTP surface marks it as a replay, as it does a replayed success.
 */
public final class ReplayedRejection extends IcegateException {
  ReplayedRejection(ErrorCode code, ResourceKind subject, String message) {
    super(code, subject, message, null);
  }
}
