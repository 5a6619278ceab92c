package io.icegate.core.durability;

import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;

/**
 * Dependency counters: how many resources of a kind depend on an owner (namespaces on a catalog
 * today; overlays on a catalog and an integration later), under {@link
 * io.icegate.core.store.KeyLayout#COUNTERS}. A dependent's create increments and its delete
 * decrements in the same transaction; the owner's delete calls {@link #assertNone} in its own
 * transaction, so a dependent created concurrently conflicts with the delete (seed 000, "Fenced
 * dependencies and cascades"). Counters are read-modify-write: concurrent dependents of one owner
 * serialize on the counter key.
 */
public final class DependencyCounters {

  public DependencyCounters() {}

  /** Adds one {@code dependent}-kind dependent to {@code owner}. */
  public void increment(Transaction tx, ResourceRef owner, ResourceKind dependent) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Removes one {@code dependent}-kind dependent from {@code owner}.
   *
   * @throws IllegalStateException when the counter is already zero (a bookkeeping bug)
   */
  public void decrement(Transaction tx, ResourceRef owner, ResourceKind dependent) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** The number of {@code dependent}-kind dependents of {@code owner}. */
  public long read(
      ReadTransaction tx, ResourceRef owner, ResourceKind dependent, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** The number of dependents of {@code owner}, all kinds together. */
  public long total(ReadTransaction tx, ResourceRef owner, ReadConsistency consistency) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Fails when anything depends on {@code owner}; reads {@link ReadConsistency#STRONG}.
   *
   * @throws io.icegate.core.error.IcegateException DEPENDENCY_EXISTS
   */
  public void assertNone(ReadTransaction tx, ResourceRef owner) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Removes every counter of {@code owner} (its own delete). */
  public void clear(Transaction tx, ResourceRef owner) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
