package io.icegate.core.auth;

import java.util.Objects;

/**
 * What a token grants. Stored under the token's digest; never holds the token itself.
 *
 * @param accountId the account the token acts in
 * @param role what it may do there
 * @param serverAdmin whether it may also act in every account (the bootstrap token)
 * @param name a label for listings and audit, e.g. {@code bootstrap}
 */
public record TokenGrant(String accountId, TokenRole role, boolean serverAdmin, String name) {
  public TokenGrant {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(name, "name");
  }
}
