package io.icegate.core.store;

/**
 * Any storage failure that is neither a conflict, too old, a commit with unknown result nor a
 * limit: I/O errors, a closed store, a driver bug. The transaction did not commit.
 */
public final class KvStoreFailureException extends KvStoreException {
  private static final long serialVersionUID = 1L;

  public KvStoreFailureException(String message) {
    super(message, null);
  }

  public KvStoreFailureException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public FailureKind kind() {
    return FailureKind.FAILURE;
  }
}
