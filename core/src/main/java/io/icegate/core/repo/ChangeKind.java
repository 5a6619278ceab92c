package io.icegate.core.repo;

/**
 * What an update changes, declared by the caller (DESIGN.md "Two generations"): every update
 * advances {@code generation}; only {@link #CONFIGURATION} also advances {@code
 * configurationGeneration}, which fences upstream work (reconciliation, capture, discovery tokens).
 */
public enum ChangeKind {
  /** Display data only (names, descriptions, pointers upstream work does not depend on). */
  METADATA,
  /** Something upstream work depends on: a URI, connection properties, credentials, a selection. */
  CONFIGURATION
}
