package io.icegate.cli;

/**
 * A failure the CLI reports as one line on stderr and an {@link ExitCode}. Messages never carry a
 * secret: they are built from names, ids, HTTP statuses and the server's problem {@code code} and
 * {@code detail} (which the admin API keeps free of secrets, docs/admin-api.md).
 */
public final class CliException extends RuntimeException {
  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
