package io.icegate.gateway.dependency;

import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Something the gateway depends on for a request (a credential issuer, an upstream catalog, the
 * object store) could not be reached or refused: Iceberg's 503 {@code ServiceUnavailableException}.
 * Its message is written for the client (it names the operation, the dependency and its error
 * code, never a credential or signature), so the HTTP layer passes it on where other 5xx messages
 * are hidden; whoever throws it has logged it once, so the HTTP layer logs nothing more.
 */
public abstract class DependencyUnavailableException extends ServiceUnavailableException {
  protected DependencyUnavailableException(String message, Object... args) {
    super(message, args);
  }
}
