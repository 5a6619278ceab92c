package io.icegate.overlay.store.validation;

/** Where a managed Table's current capture stands with validation (issue 10, "Validation"). */
public enum ValidationState {
  /** The current capture has not been validated yet (never validated, or captured again since). */
  PENDING,
  /** The current capture validated with no error. */
  VALID,
  /** The current capture validated with at least one error record. */
  FAILED
}
