package io.icegate.core.store;

import java.util.List;

/**
 * Reads of one transaction. Reads see the transaction's own writes. Unless made through {@link
 * #snapshot()}, every key and range read is a read-conflict range: the transaction fails to commit
 * (and is retried) if another transaction committed a write into it after this one started.
 */
public interface ReadTransaction {

  /** The value under {@code key}, or {@code null} when absent. */
  byte[] get(byte[] key);

  /**
   * Key-value pairs with {@code begin <= key < end} in unsigned byte order.
   *
   * @param limit at most this many pairs; {@code 0} means no limit
   * @param direction {@link Direction#REVERSE} returns the last {@code limit} pairs, highest key
   *     first
   * @throws IllegalArgumentException when {@code limit} is negative
   */
  List<KeyValue> getRange(byte[] begin, byte[] end, int limit, Direction direction);

  /** All pairs in {@code [begin, end)}, ascending. */
  default List<KeyValue> getRange(byte[] begin, byte[] end) {
    return getRange(begin, end, 0, Direction.FORWARD);
  }

  /**
   * A view of this transaction whose reads add no read-conflict ranges (FoundationDB snapshot
   * reads). Use it only where a concurrent change must not abort the transaction, and never for a
   * check whose absence the transaction relies on.
   */
  ReadTransaction snapshot();

  /** Order of a range read. */
  enum Direction {
    FORWARD,
    REVERSE
  }
}
