package io.icegate.overlay.store.validation;

import java.time.Instant;
import java.util.Objects;

/**
 * The validation pointer of one managed Table ({@link
 * io.icegate.core.store.KeySubspace#VALIDATIONS}): which validation generation is current and what
 * it found. Its error records live under the same generation; readers read the pointer and those
 * records in one transaction.
 *
 * @param validationGeneration 1 or more; a new publication takes a generation no other
 *     publication of the table was handed, and the pointer switch asserts the one it read
 * @param captureGeneration the capture generation ({@link
 *     io.icegate.overlay.store.capture.CapturePointer#captureGeneration()}) this validation checked
 * @param state VALID or FAILED as stored; {@link TableValidations#status} reports PENDING when
 *     the Table was captured again since
 * @param errorCount number of error records of this generation; 0 exactly when VALID
 * @param validatedAt when the pointer was published (millisecond precision)
 */
public record ValidationStatus(
    long validationGeneration,
    long captureGeneration,
    ValidationState state,
    int errorCount,
    Instant validatedAt) {

  public ValidationStatus {
    if (validationGeneration < 1) {
      throw new IllegalArgumentException("validation generation must be at least 1");
    }
    if (captureGeneration < 1) {
      throw new IllegalArgumentException("capture generation must be at least 1");
    }
    Objects.requireNonNull(state, "state");
    if (errorCount < 0) {
      throw new IllegalArgumentException("error count must not be negative");
    }
    Objects.requireNonNull(validatedAt, "validatedAt");
  }

  /** This status, reported as PENDING (the Table's capture moved past what it validated). */
  ValidationStatus pending() {
    return new ValidationStatus(validationGeneration, captureGeneration, ValidationState.PENDING,
        errorCount, validatedAt);
  }
}
