package io.icegate.core.error;

import io.icegate.core.model.ResourceKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed failure services throw: a stable {@link ErrorCode} plus a message built from its
 * template, and, where one applies, the kind of resource the code is about (so the Iceberg layer
 * can tell "no such namespace" from "no such table"). Messages never carry secrets.
 */
public class IcegateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final transient ResourceKind subject;
  private final List<String> details;

  /** An error about a resource of kind {@code subject}; {@code args} fill the code's template. */
  public IcegateException(ErrorCode code, ResourceKind subject, Object... args) {
    this(code, subject, code.format(args), null);
  }

  /** An error with an explicit (secret-free) message, e.g. when replaying a recorded answer. */
  public IcegateException(ErrorCode code, ResourceKind subject, String message, Throwable cause) {
    this(code, subject, message, cause, List.of());
  }

  /**
   * An error with an explicit (secret-free) message and itemized details, e.g. every conflict a
   * reconcile preflight found; the admin problem+json body lists them.
   */
  public IcegateException(ErrorCode code, ResourceKind subject, String message, Throwable cause,
      List<String> details) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.subject = subject;
    this.details = List.copyOf(details);
  }

  /** Itemized details (secret-free), in order; empty for most errors. */
  public List<String> details() {
    return details;
  }

  /** A shortcut for {@link ErrorCode#INVALID_ARGUMENT}. */
  public static IcegateException invalidArgument(String what) {
    return new IcegateException(ErrorCode.INVALID_ARGUMENT, null, what);
  }

  /** The stable code; tests and the HTTP layers switch on it, never on the message. */
  public ErrorCode code() {
    return code;
  }

  /** The kind of resource the error is about, when there is one. */
  public Optional<ResourceKind> subject() {
    return Optional.ofNullable(subject);
  }

  /** The HTTP status of {@link #code()}. */
  public int httpStatus() {
    return code.httpStatus();
  }
}
