package io.icegate.core.store;

/**
 * A read of this transaction was overwritten by a transaction that committed first (FoundationDB
 * 1020 not_committed). Nothing was written. {@link KvStore#run} retries it; callers see it only
 * when retries are exhausted.
 */
public final class TransactionConflictException extends KvStoreException {
  private static final long serialVersionUID = 1L;

  public TransactionConflictException(String message) {
    super(message, null);
  }

  public TransactionConflictException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public FailureKind kind() {
    return FailureKind.CONFLICT;
  }
}
