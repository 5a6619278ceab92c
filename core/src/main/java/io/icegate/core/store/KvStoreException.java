package io.icegate.core.store;

/**
 * A storage failure, classified by {@link #kind()}. The subclasses are the closed set of outcomes a
 * caller can observe from {@link KvStore}; drivers map their native errors onto them.
 */
public abstract sealed class KvStoreException extends RuntimeException
    permits TransactionConflictException,
        TransactionTooOldException,
        CommitUnknownResultException,
        KvLimitExceededException,
        KvStoreFailureException {

  private static final long serialVersionUID = 1L;

  protected KvStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Which outcome this is. */
  public abstract FailureKind kind();

  /** The outcomes of a failed transaction. */
  public enum FailureKind {
    /** Another transaction wrote what this one read; nothing was written; retry. */
    CONFLICT(true),
    /** The transaction outlived {@link KvLimits#MAX_TRANSACTION_AGE}; nothing was written; retry. */
    TOO_OLD(true),
    /** The commit may or may not have been applied (FoundationDB 1021, 1039). */
    COMMIT_UNKNOWN_RESULT(false),
    /** A key, value or transaction exceeded {@link KvLimits}; nothing was written. */
    LIMIT_EXCEEDED(false),
    /** Any other failure; the transaction did not commit. */
    FAILURE(false);

    private final boolean retryable;

    FailureKind(boolean retryable) {
      this.retryable = retryable;
    }

    /** Whether running the same body again is safe and may succeed. */
    public boolean retryable() {
      return retryable;
    }
  }
}
