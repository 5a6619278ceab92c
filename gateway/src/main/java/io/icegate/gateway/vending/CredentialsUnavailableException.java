package io.icegate.gateway.vending;

import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * The credential issuer (STS, an upstream catalog) could not be reached or refused: a 503 whose
 * message is written for the client (it names the role or upstream and the issuer's error code,
 * never a credential), so the HTTP layer passes it on where other 5xx messages are hidden.
 */
public class CredentialsUnavailableException extends ServiceUnavailableException {
  public CredentialsUnavailableException(String message, Object... args) {
    super(message, args);
  }
}
