package io.icegate.gateway.vending;

import io.icegate.gateway.dependency.DependencyUnavailableException;

/**
 * The credential issuer (STS, an upstream catalog) could not be reached or refused: a 503 whose
 * message names the role or upstream and the issuer's error code, never a credential.
 */
public class CredentialsUnavailableException extends DependencyUnavailableException {
  public CredentialsUnavailableException(String message, Object... args) {
    super(message, args);
  }
}
