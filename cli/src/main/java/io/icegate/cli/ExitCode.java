package io.icegate.cli;

/**
 * Process exit codes of the admin commands (documented in docs/cli.md). Scripts branch on them, so
 * they never change meaning; picocli's own usage errors already exit with {@link #USAGE}.
 */
public final class ExitCode {
  private ExitCode() {}

  public static final int OK = 0;
  /** Anything else: unreachable server, a request the server rejected as invalid (400, 422). */
  public static final int FAILED = 1;
  /** Bad flags or arguments, an ambiguous name, a secret that could not be read. */
  public static final int USAGE = 2;
  /** 404, or a name that matches nothing. */
  public static final int NOT_FOUND = 3;
  /** 409: a name taken, a dependency, an idempotency key in use. */
  public static final int CONFLICT = 4;
  /** 412 (stale or malformed If-Match) and 428 (If-Match required). */
  public static final int PRECONDITION_FAILED = 5;
  /** 5xx. */
  public static final int SERVER_ERROR = 6;
  /** 401 and 403: no token, a wrong token, or a role that may not do this. */
  public static final int NOT_AUTHORIZED = 7;
  /**
   * {@code integration validate} ran and at least one check did not pass (the report is printed);
   * the upstream is unusable as configured, which scripts must tell apart from a failed request.
   */
  public static final int VALIDATION_FAILED = 8;
  /**
   * The CLI stopped waiting for an operation (Ctrl-C); the operation itself keeps running on the
   * server. 128 + SIGINT, what shells and the JVM report for an interrupted process.
   */
  public static final int INTERRUPTED = 130;

  /** The exit code of an HTTP error status. */
  public static int ofStatus(int status) {
    if (status == 404) {
      return NOT_FOUND;
    }
    if (status == 409) {
      return CONFLICT;
    }
    if (status == 412 || status == 428) {
      return PRECONDITION_FAILED;
    }
    if (status == 401 || status == 403) {
      return NOT_AUTHORIZED;
    }
    if (status >= 500) {
      return SERVER_ERROR;
    }
    return FAILED;
  }
}
