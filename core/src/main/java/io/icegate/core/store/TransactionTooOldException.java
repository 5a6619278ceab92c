package io.icegate.core.store;

/**
 * The transaction ran longer than {@link KvLimits#MAX_TRANSACTION_AGE} (FoundationDB 1007
 * transaction_too_old). Nothing was written. Retried by {@link KvStore#run}.
 */
public final class TransactionTooOldException extends KvStoreException {
  private static final long serialVersionUID = 1L;

  public TransactionTooOldException(String message) {
    super(message, null);
  }

  public TransactionTooOldException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public FailureKind kind() {
    return FailureKind.TOO_OLD;
  }
}
