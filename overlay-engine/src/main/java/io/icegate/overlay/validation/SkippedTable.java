package io.icegate.overlay.validation;

import io.icegate.access.model.CatalogObjectRef;
import java.util.Objects;

/**
 * A table validation asked for credentials and passed over, because its answer was about that
 * table only (see {@link IntegrationValidator}).
 *
 * @param table the table
 * @param code why: {@link CheckResult#NOT_VENDED} or a catalog-access code ({@code NOT_FOUND},
 *     {@code UNSUPPORTED}, {@code PERMISSION_DENIED})
 * @param message what the catalog answered, for people; never a secret
 */
public record SkippedTable(CatalogObjectRef table, String code, String message) {

  public SkippedTable {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}
