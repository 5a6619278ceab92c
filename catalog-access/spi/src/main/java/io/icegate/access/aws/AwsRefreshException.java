package io.icegate.access.aws;

/** A failed refresh, classified so the registry knows whether to try again. */
public final class AwsRefreshException extends Exception {

  /** Whether trying again can help. */
  public enum Kind {
    /** Throttling, timeouts, 5xx: keep still-valid credentials and retry later. */
    TRANSIENT,
    /** Revoked role, access denied, malformed response: cached, never retried. */
    TERMINAL
  }

  private final Kind kind;

  public AwsRefreshException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = java.util.Objects.requireNonNull(kind, "kind");
  }

  public static AwsRefreshException transientFailure(String message, Throwable cause) {
    return new AwsRefreshException(Kind.TRANSIENT, message, cause);
  }

  public static AwsRefreshException terminalFailure(String message, Throwable cause) {
    return new AwsRefreshException(Kind.TERMINAL, message, cause);
  }

  public Kind kind() {
    return kind;
  }
}
