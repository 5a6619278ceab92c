package io.icegate.gateway.auth;

import io.icegate.core.auth.TokenRole;
import java.util.Objects;

/**
 * The caller of a request, resolved from its bearer token.
 *
 * @param accountId the account the token acts in
 * @param role what the token may do there
 * @param serverAdmin whether the token may also act in every other account (the bootstrap token)
 */
public record Principal(String accountId, TokenRole role, boolean serverAdmin) {
  public Principal {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(role, "role");
  }
}
