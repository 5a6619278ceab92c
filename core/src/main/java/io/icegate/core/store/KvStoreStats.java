package io.icegate.core.store;

/**
 * Counters of a {@link KvStore} since it was opened, for /metrics and for tests that assert "this
 * run wrote nothing".
 *
 * @param committedWrites read-write transactions that committed with at least one mutation
 * @param mutations sets, clears and range clears in those transactions
 * @param conflicts attempts that ended in a conflict (each retried or, at the last, surfaced)
 * @param tooOld attempts that outlived the transaction age limit
 * @param commitUnknown commits whose result was unknown
 */
public record KvStoreStats(
    long committedWrites, long mutations, long conflicts, long tooOld, long commitUnknown) {}
