package io.icegate.core.durability;

import com.apple.foundationdb.Range;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.nio.ByteBuffer;

/**
 * Dependency counters: how many resources of a kind depend on an owner (namespaces on a catalog
 * today; overlays on a catalog and an integration later), under {@link KeySubspace#COUNTERS}. A
 * dependent's create increments and its delete decrements in the same transaction; the owner's
 * delete calls {@link #assertNone} in its own transaction, so a dependent created concurrently
 * conflicts with the delete (seed 000, "Fenced dependencies and cascades"). Counters are
 * read-modify-write (the SPI has no atomic add): concurrent dependents of one owner serialize on
 * the counter key. A counter that reaches zero is removed, so no key outlives its dependents.
 */
public final class DependencyCounters {

  public DependencyCounters() {}

  /** Adds one {@code dependent}-kind dependent to {@code owner}. */
  public void increment(Transaction tx, ResourceRef owner, ResourceKind dependent) {
    long value = read(tx, owner, dependent, ReadConsistency.STRONG);
    tx.set(KeyLayout.counter(owner, dependent), encode(value + 1));
  }

  /**
   * Removes one {@code dependent}-kind dependent from {@code owner}.
   *
   * @throws IllegalStateException when the counter is already zero (a bookkeeping bug)
   */
  public void decrement(Transaction tx, ResourceRef owner, ResourceKind dependent) {
    long value = read(tx, owner, dependent, ReadConsistency.STRONG);
    if (value <= 0) {
      throw new IllegalStateException(
          "dependency counter of " + dependent.label() + "s on " + owner + " is already zero");
    }
    if (value == 1) {
      tx.clear(KeyLayout.counter(owner, dependent));
    } else {
      tx.set(KeyLayout.counter(owner, dependent), encode(value - 1));
    }
  }

  /** The number of {@code dependent}-kind dependents of {@code owner}. */
  public long read(
      ReadTransaction tx, ResourceRef owner, ResourceKind dependent, ReadConsistency consistency) {
    byte[] bytes = consistency.view(tx).get(KeyLayout.counter(owner, dependent));
    return bytes == null ? 0 : decode(bytes);
  }

  /** The number of dependents of {@code owner}, all kinds together. */
  public long total(ReadTransaction tx, ResourceRef owner, ReadConsistency consistency) {
    Range range = KeyLayout.counters(owner).range();
    long total = 0;
    for (KeyValue kv : consistency.view(tx).getRange(range.begin, range.end)) {
      total += decode(kv.value());
    }
    return total;
  }

  /**
   * Fails when anything depends on {@code owner}; reads {@link ReadConsistency#STRONG}, so a
   * dependent created concurrently conflicts with the caller's transaction.
   *
   * @throws IcegateException DEPENDENCY_EXISTS
   */
  public void assertNone(ReadTransaction tx, ResourceRef owner) {
    long total = total(tx, owner, ReadConsistency.STRONG);
    if (total > 0) {
      throw new IcegateException(
          ErrorCode.DEPENDENCY_EXISTS, owner.kind(), owner.kind().label(), owner.id(), total);
    }
  }

  /** Removes every counter of {@code owner} (its own delete). */
  public void clear(Transaction tx, ResourceRef owner) {
    Range range = KeyLayout.counters(owner).range();
    tx.clearRange(range.begin, range.end);
  }

  private static byte[] encode(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  private static long decode(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getLong();
  }
}
