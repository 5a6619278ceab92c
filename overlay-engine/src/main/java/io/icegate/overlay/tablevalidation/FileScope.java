package io.icegate.overlay.tablevalidation;

/** Which files of a captured Delta table's current snapshot a validation checks (issue 26). */
public enum FileScope {
  /** Every data and delete file (revalidation, and whatever cannot be checked incrementally). */
  ALL,
  /**
   * Only what the capture changed, when its stored change record ({@code DeltaCaptureRecord})
   * says it extended the capture validated clean just before it; else every file.
   */
  CHANGED
}
