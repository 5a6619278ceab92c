package io.icegate.core.store;

/**
 * The commit may have been applied or not (FoundationDB 1021 commit_unknown_result, 1039
 * cluster_version_changed). Surfaced by {@link KvStore#run} unless the body is declared {@link
 * Idempotence#IDEMPOTENT}. The durability protocol (receipts, credential generations) is written
 * against this outcome: resolve it by reading a record the transaction would have written.
 */
public final class CommitUnknownResultException extends KvStoreException {
  private static final long serialVersionUID = 1L;

  public CommitUnknownResultException(String message) {
    super(message, null);
  }

  public CommitUnknownResultException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public FailureKind kind() {
    return FailureKind.COMMIT_UNKNOWN_RESULT;
  }
}
