package io.icegate.overlay.validation;

import java.util.Objects;

/**
 * The outcome of one validation check.
 *
 * @param check which check
 * @param status ok, failed or skipped (skipped when an earlier check it depends on did not pass)
 * @param code a stable failure code: a catalog-access code (e.g. {@code AUTHENTICATION_FAILED},
 *     {@code CREDENTIAL_SCOPE_INVALID}) or one of this package's ({@link #NO_TABLE}, {@link
 *     #NOT_VENDED}, {@link #VENDING_UNSUPPORTED}, {@link #NO_LOCATION});
 *     {@code null} unless failed
 * @param message what happened, for people; names and counts only, never a secret
 */
public record CheckResult(ValidationCheck check, Status status, String code, String message) {

  /** No table was found upstream, so there is nothing to vend credentials for. */
  public static final String NO_TABLE = "NO_TABLE";
  /** The table the request named to probe does not exist upstream (nor does its namespace). */
  public static final String PROBE_TABLE_NOT_FOUND = "PROBE_TABLE_NOT_FOUND";
  /** The catalog vended no storage credentials for the table (for any table asked). */
  public static final String NOT_VENDED = "NOT_VENDED";
  /** The provider does not offer credential vending at all. */
  public static final String VENDING_UNSUPPORTED = "VENDING_UNSUPPORTED";
  /** The table exposes no storage or metadata location to check the scope against. */
  public static final String NO_LOCATION = "NO_LOCATION";

  /** Check status. */
  public enum Status {
    OK,
    FAILED,
    SKIPPED;

    /** The name in the admin API ({@code ok}, {@code failed}, {@code skipped}). */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public CheckResult {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(message, "message");
    if ((status == Status.FAILED) != (code != null)) {
      throw new IllegalArgumentException("a failed check has a code, other checks have none");
    }
  }

  static CheckResult ok(ValidationCheck check, String message) {
    return new CheckResult(check, Status.OK, null, message);
  }

  static CheckResult failed(ValidationCheck check, String code, String message) {
    return new CheckResult(check, Status.FAILED, code, message);
  }

  static CheckResult skipped(ValidationCheck check, String message) {
    return new CheckResult(check, Status.SKIPPED, null, message);
  }
}
