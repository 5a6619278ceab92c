package io.icegate.overlay.store.validation;

/** What publishing one validation did. */
public sealed interface ValidationOutcome {

  /** The pointer now names the new validation; every older generation's records are gone. */
  record Published(ValidationStatus status) implements ValidationOutcome {}

  /**
   * Nothing was published (records written for it were removed): the Table is gone or no longer
   * managed, it was captured again, or another validation moved the pointer since it was read.
   *
   * @param reason for the report's warning
   */
  record Skipped(String reason) implements ValidationOutcome {}
}
