package io.icegate.overlay.store.validation;

import java.util.Objects;

/**
 * One error record of a validation (issue 10: one per bad file, or one for the table when the
 * upstream vends no usable credentials).
 *
 * @param tableId the icegate id of the managed Table
 * @param displayPath the Table's path in its Catalog: namespace segments and name joined with dots
 * @param tableFormat the table format, e.g. {@code ICEBERG}
 * @param filePath the data or delete file's location; {@code null} for an error about the whole
 *     table (nothing vended)
 * @param message what is wrong, for a person; never carries a secret. Stored at most {@link
 *     #MAX_TEXT_CHARS} characters (longer text is cut), like {@code filePath}
 */
public record ValidationError(
    String tableId, String displayPath, String tableFormat, String filePath, String message) {
  /** Longest stored file path or message: keeps a record far below the 100 kB value limit. */
  public static final int MAX_TEXT_CHARS = 8_000;

  public ValidationError {
    Objects.requireNonNull(tableId, "tableId");
    Objects.requireNonNull(displayPath, "displayPath");
    Objects.requireNonNull(tableFormat, "tableFormat");
    Objects.requireNonNull(message, "message");
    filePath = cut(filePath);
    message = cut(message);
  }

  private static String cut(String text) {
    return text == null || text.length() <= MAX_TEXT_CHARS
        ? text : text.substring(0, MAX_TEXT_CHARS - 1) + "…";
  }
}
