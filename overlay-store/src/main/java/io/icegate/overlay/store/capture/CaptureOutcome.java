package io.icegate.overlay.store.capture;

/** What publishing one capture did. */
public sealed interface CaptureOutcome {

  /** The pointer now names the new capture. */
  record Captured(CapturePointer pointer) implements CaptureOutcome {}

  /** The pointer already named this upstream metadata location: nothing was written. */
  record Unchanged(CapturePointer pointer) implements CaptureOutcome {}

  /**
   * Nothing was published: another capture moved the pointer since it was read, or the Table is
   * gone or no longer this Overlay's.
   *
   * @param reason for the report's warning
   */
  record Skipped(String reason) implements CaptureOutcome {}
}
