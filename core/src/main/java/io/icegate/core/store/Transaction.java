package io.icegate.core.store;

/**
 * A read-write transaction. Writes are visible to this transaction's later reads at once and to
 * others only after commit. Every write is checked against {@link KvLimits}.
 */
public interface Transaction extends ReadTransaction {

  /**
   * Sets {@code key} to {@code value}.
   *
   * @throws KvLimitExceededException the key, the value or the transaction's total writes are too
   *     large
   */
  void set(byte[] key, byte[] value);

  /** Removes {@code key} if present. */
  void clear(byte[] key);

  /** Removes every key in {@code [begin, end)}. */
  void clearRange(byte[] begin, byte[] end);
}
