package io.icegate.overlay.validation;

import java.util.List;

/**
 * The result of validating an Integration: one {@link CheckResult} per {@link ValidationCheck}, in
 * check order.
 *
 * @param checks every check, each exactly once
 */
public record ValidationReport(List<CheckResult> checks) {

  public ValidationReport {
    checks = List.copyOf(checks);
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
