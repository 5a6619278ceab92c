package io.icegate.gateway.auth;

import java.util.Optional;

/** Resolves a bearer token to its principal. Implementations compare digests, never tokens. */
@FunctionalInterface
public interface Authenticator {

  /** The principal of {@code token}, or empty when the token is unknown or revoked. */
  Optional<Principal> authenticate(String token);
}
