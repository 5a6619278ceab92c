package io.icegate.core.auth;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.Objects;

/**
 * What a token grants. Stored under the token's digest; never holds the token itself. The three
 * instants are optional: records written before issue 31 have none and read as "created at an
 * unknown time, never used, never expiring".
 *
 * @param accountId the account the token acts in
 * @param role what it may do there
 * @param serverAdmin whether it may also act in every account (the bootstrap token)
 * @param name a label for listings and audit, e.g. {@code bootstrap}
 * @param createdAt when it was issued, or null (older records)
 * @param expiresAt from when it is refused, or null (never)
 * @param lastUsedAt when it last authenticated, at most {@link ApiTokens#LAST_USED_GRANULARITY} behind, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenGrant(String accountId, TokenRole role, boolean serverAdmin, String name,
    Instant createdAt, Instant expiresAt, Instant lastUsedAt) {
  public TokenGrant {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(name, "name");
  }

  /** A grant with no instants (bootstrap records, tests). */
  public TokenGrant(String accountId, TokenRole role, boolean serverAdmin, String name) {
    this(accountId, role, serverAdmin, name, null, null, null);
  }

  /** Whether it is refused at {@code now}. */
  public boolean expiredAt(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt);
  }

  /** This grant, last used at {@code when}. */
  public TokenGrant usedAt(Instant when) {
    return new TokenGrant(accountId, role, serverAdmin, name, createdAt, expiresAt, when);
  }
}
