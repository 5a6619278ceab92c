package io.icegate.admin.model;

/**
 * A member of an admin API body is missing or has a value the model refuses, thrown by the
 * records' own checks (an {@link IntegrationAuthentication} without its {@code clientId}). The
 * message names the member path and never quotes the value, so a secret sent in a wrong place is
 * not echoed. The server answers it as {@code INVALID_ARGUMENT}; the CLI as a usage error.
 */
public final class InvalidMemberException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidMemberException(String message) {
    super(message);
  }
}
