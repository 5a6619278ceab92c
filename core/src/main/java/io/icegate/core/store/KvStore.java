package io.icegate.core.store;

/**
 * The one storage abstraction of icegate: FoundationDB's data model over ordered byte keys.
 *
 * <p>Keys are compared as unsigned bytes and are built only through {@link KeyLayout} (FoundationDB
 * tuple layer), so key order is the same in every driver. Every driver enforces the limits in
 * {@link KvLimits}.
 *
 * <p>Transactions are serializable: a read-write transaction commits only if nothing it read
 * (except snapshot reads) was changed by a transaction that committed after it started.
 *
 * <p>Thread safety: a {@code KvStore} is safe for use from many threads; a {@link Transaction} is
 * confined to the thread running the function it was passed to.
 */
public interface KvStore extends AutoCloseable {

  /**
   * Runs {@code body} in a read-write transaction and commits it, retrying the whole body on
   * conflict and on "too old" with bounded exponential backoff and jitter. The body may therefore
   * run more than once and must not have side effects outside the transaction.
   *
   * <p>A commit whose outcome is unknown is surfaced as {@link CommitUnknownResultException}: the
   * caller must find out (usually from a durable record written in the same transaction) whether it
   * committed. Use {@link #run(Idempotence, TransactionBody)} with {@link Idempotence#IDEMPOTENT}
   * for bodies that are safe to apply twice.
   *
   * @return what {@code body} returned on the attempt that committed
   * @throws CommitUnknownResultException the commit may or may not have been applied
   * @throws TransactionConflictException retries were exhausted by conflicts
   * @throws TransactionTooOldException retries were exhausted by the age limit
   * @throws KvLimitExceededException a key, value or transaction exceeded {@link KvLimits}; nothing
   *     was written
   * @throws KvStoreFailureException any other storage failure; nothing is known to be written
   */
  default <T> T run(TransactionBody<T> body) {
    return run(Idempotence.NOT_IDEMPOTENT, body);
  }

  /**
   * As {@link #run(TransactionBody)}; with {@link Idempotence#IDEMPOTENT} a commit with unknown
   * result is retried like a conflict instead of being surfaced.
   */
  <T> T run(Idempotence idempotence, TransactionBody<T> body);

  /**
   * Runs {@code body} in a read-only transaction that sees one consistent snapshot of the store.
   * Retried on "too old" like {@link #run(TransactionBody)}.
   */
  <T> T read(ReadBody<T> body);

  /** Counters since this store was opened (commits, mutations, conflicts, unknown results). */
  KvStoreStats stats();

  /** Releases the store's resources. Transactions started afterwards fail. Idempotent. */
  @Override
  void close();

  /** A read-write transaction body; may run several times. */
  @FunctionalInterface
  interface TransactionBody<T> {
    T apply(Transaction tx);
  }

  /** A read-only transaction body; may run several times. */
  @FunctionalInterface
  interface ReadBody<T> {
    T apply(ReadTransaction tx);
  }
}
