package io.icegate.core.auth;

import java.util.Objects;

/**
 * A stored token as listings show it: its public id and its grant, never the secret or its digest.
 *
 * @param id {@link ApiTokens#id}: names the token in listings, revocation and audit lines
 * @param grant what it grants
 */
public record TokenEntry(String id, TokenGrant grant) {
  public TokenEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(grant, "grant");
  }
}
