package io.icegate.core.store;

/**
 * A key, value or transaction exceeded {@link KvLimits} (FoundationDB 2102 key_too_large, 2103
 * value_too_large, 2101 transaction_too_large). Raised before anything is written; not retried.
 */
public final class KvLimitExceededException extends KvStoreException {
  private static final long serialVersionUID = 1L;

  private final Limit limit;

  public KvLimitExceededException(Limit limit, long actual) {
    super(limit.describe(actual), null);
    this.limit = limit;
  }

  public KvLimitExceededException(Limit limit, String message, Throwable cause) {
    super(message, cause);
    this.limit = limit;
  }

  /** Which limit was exceeded. */
  public Limit limit() {
    return limit;
  }

  @Override
  public FailureKind kind() {
    return FailureKind.LIMIT_EXCEEDED;
  }

  /** The size limits of {@link KvLimits}. */
  public enum Limit {
    KEY_SIZE("key", KvLimits.MAX_KEY_BYTES),
    VALUE_SIZE("value", KvLimits.MAX_VALUE_BYTES),
    TRANSACTION_SIZE("transaction writes", KvLimits.MAX_TRANSACTION_BYTES);

    private final String what;
    private final int maxBytes;

    Limit(String what, int maxBytes) {
      this.what = what;
      this.maxBytes = maxBytes;
    }

    /** The limit in bytes. */
    public int maxBytes() {
      return maxBytes;
    }

    String describe(long actual) {
      return what + " of " + actual + " bytes exceeds the limit of " + maxBytes + " bytes";
    }
  }
}
