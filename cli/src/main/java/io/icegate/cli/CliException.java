package io.icegate.cli;

/**
 * A failure the CLI reports as one line on stderr and an {@link ExitCode}. Messages never carry a
 * secret: they are built from names, ids, HTTP statuses and the server's problem {@code code} and
 * {@code detail} (which the admin API keeps free of secrets, docs/admin-api.md).
 */
public final class CliException extends RuntimeException {
  private final int exitCode;
  private final String problemCode;

  public CliException(int exitCode, String message) {
    this(exitCode, message, null);
  }

  /**
   * @param problemCode the server's problem {@code code} (a name of the server's one error
   *     catalogue, docs/admin-api.md), or null when the failure is the CLI's own
   */
  public CliException(int exitCode, String message, String problemCode) {
    super(message);
    this.exitCode = exitCode;
    this.problemCode = problemCode;
  }

  public int exitCode() {
    return exitCode;
  }

  /** The server's problem code ({@code RECONCILE_IN_PROGRESS}), or empty for the CLI's own. */
  public java.util.Optional<String> problemCode() {
    return java.util.Optional.ofNullable(problemCode);
  }
}
