package io.icegate.overlay.validation;

import io.icegate.access.model.CatalogObjectRef;
import java.util.List;

/**
 * The result of validating an Integration: one {@link CheckResult} per {@link ValidationCheck}, in
 * check order, and which upstream table the storage checks were run for.
 *
 * @param checks every check, each exactly once
 * @param probedTable the table the storage checks used, or {@code null} when none was reached
 * @param skippedTables tables asked for credentials and passed over before it, in the order asked
 */
public record ValidationReport(List<CheckResult> checks, CatalogObjectRef probedTable,
    List<SkippedTable> skippedTables) {

  public ValidationReport {
    checks = List.copyOf(checks);
    skippedTables = List.copyOf(skippedTables);
    if (checks.size() != ValidationCheck.values().length) {
      throw new IllegalArgumentException("a report holds one result per check");
    }
    for (int i = 0; i < checks.size(); i++) {
      if (checks.get(i).check() != ValidationCheck.values()[i]) {
        throw new IllegalArgumentException("checks must be in check order");
      }
    }
  }

  /**
   * True only when every check is ok: a skipped check (nothing to vend for, vending that could not
   * be verified) is not success (seed 000 "Vended storage credentials").
   */
  public boolean ok() {
    return checks.stream().allMatch(c -> c.status() == CheckResult.Status.OK);
  }
}
