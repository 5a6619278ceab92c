package io.icegate.overlay.store.validation;

import io.icegate.core.error.IcegateException;
import java.time.Instant;
import java.util.Objects;

/**
 * A per-table visibility override: the Table is query-visible whatever its validation says
 * (issue 10, "Visibility"), until the override is cleared or the Table goes.
 *
 * @param setAt when it was set (millisecond precision)
 * @param note an optional note from whoever set it (why), or {@code null}
 * @throws io.icegate.core.error.IcegateException INVALID_ARGUMENT for a note over {@link
 *     #MAX_NOTE_CHARS} characters
 */
public record VisibilityOverride(Instant setAt, String note) {
  /** Longest note kept. */
  public static final int MAX_NOTE_CHARS = 1_000;

  public VisibilityOverride {
    Objects.requireNonNull(setAt, "setAt");
    if (note != null && note.length() > MAX_NOTE_CHARS) {
      throw IcegateException.invalidArgument(
          "note is longer than " + MAX_NOTE_CHARS + " characters");
    }
  }
}
