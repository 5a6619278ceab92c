package io.icegate.core.store;

/**
 * How fresh a listing or count must be (seed 000, "Consistent reads for cascade operations").
 *
 * <p>Both drivers are strongly consistent today, so both values return current data; the
 * difference inside a read-write transaction is that {@link #STRONG} reads add read-conflict
 * ranges (a concurrent insert into the range aborts the transaction) while {@link
 * #EVENTUAL_ALLOWED} reads are snapshot reads. Every dependency and cascade check passes {@link
 * #STRONG} explicitly, so an eventually consistent read path (a cache, a replica) can be added for
 * ordinary listings without touching those checks.
 */
public enum ReadConsistency {
  /** Current data, and inside a transaction a read-conflict range: for checks where absence matters. */
  STRONG,
  /** Data that may lag; never used where a missed row would orphan or wrongly permit something. */
  EVENTUAL_ALLOWED;

  /** The view of {@code tx} to read through at this consistency. */
  public ReadTransaction view(ReadTransaction tx) {
    return this == STRONG ? tx : tx.snapshot();
  }
}
