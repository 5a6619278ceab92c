package io.icegate.core.store;

/**
 * Whether a transaction body may be applied twice. Decides what {@link KvStore#run} does with a
 * commit whose result is unknown (FoundationDB errors 1021 commit_unknown_result and 1039
 * cluster_version_changed).
 */
public enum Idempotence {
  /** Surface {@link CommitUnknownResultException}; the caller resolves the outcome. */
  NOT_IDEMPOTENT,
  /** Retry the body: applying it twice leaves the same state as applying it once. */
  IDEMPOTENT
}
