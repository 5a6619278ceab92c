package io.icegate.core.account;

import io.icegate.core.auth.ApiTokens;
import io.icegate.core.auth.TokenEntry;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.AccountDeletionReport;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.durability.RequestFingerprint;
import io.icegate.core.model.Account;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.ReadConsistency;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Accounts and their API tokens. Authorisation (server admin, account admin) is the HTTP layer's;
 * this service enforces the resource rules.
 */
public final class AccountService {
  private final Repositories repositories;
  private final IdempotentCreates creates;
  private final ApiTokens tokens;
  private final AccountDeletion deletion;
  private final Duration maxTokenLifetime;

  public AccountService(Repositories repositories, IdempotentCreates creates, ApiTokens tokens,
      AccountDeletion deletion) {
    this(repositories, creates, tokens, deletion, null);
  }

  /** @param maxTokenLifetime the longest lifetime of an issued token, or null for none */
  public AccountService(Repositories repositories, IdempotentCreates creates, ApiTokens tokens,
      AccountDeletion deletion, Duration maxTokenLifetime) {
    this.maxTokenLifetime = maxTokenLifetime;
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.creates = Objects.requireNonNull(creates, "creates");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.deletion = Objects.requireNonNull(deletion, "deletion");
  }

  /**
   * Creates account {@code name}.
   *
   * @throws io.icegate.core.error.IcegateException ALREADY_EXISTS, INVALID_ARGUMENT, the
   *     idempotency codes
   */
  public IdempotentResult<Account> create(Account spec, CreateRequest request) {
    ResourceRepository<Account> accounts = repositories.accounts();
    if (request.idempotencyKey() == null) {
      return new IdempotentResult<>(accounts.create(spec, request.onConflict()), false);
    }
    return creates.create(accounts, request.idempotencyKey(),
        RequestFingerprint.of(Map.of("spec", spec, "onConflict", request.onConflict())), spec,
        request.onConflict());
  }

  /** @throws io.icegate.core.error.IcegateException NOT_FOUND */
  public Resource<Account> get(String accountId) {
    return repositories.store().read(tx -> repositories.accounts().require(tx, accountId));
  }

  /** One page of accounts in name order. */
  public Page<Resource<Account>> list(PageRequest page) {
    return repositories.accounts().list(Listing.of(NameScope.ACCOUNT_WIDE), page,
        ReadConsistency.EVENTUAL_ALLOWED);
  }

  /** Deletes the account and everything in it (fence, record, resumable cleanup). */
  public AccountDeletionReport delete(String accountId, ExpectedGeneration expected) {
    return deletion.delete(accountId, expected);
  }

  /** As {@link #issueToken(String, String, TokenRole, boolean, Instant)}: no expiry, not server admin. */
  public IssuedToken issueToken(String accountId, String name, TokenRole role) {
    return issueToken(accountId, name, role, false, null);
  }

  /**
   * Issues a token with {@code role} in account {@code accountId}; only its digest is stored.
   * Whether the caller may issue a server-admin token is the HTTP layer's rule.
   *
   * @param serverAdmin whether the token acts in every account (role admin)
   * @param expiresAt from when it is refused, or null (never, or the server's maximum lifetime
   *     when one is set); must be in the future and within that maximum
   * @return the token, to be shown once
   * @throws io.icegate.core.error.IcegateException NOT_FOUND (no account), FENCED, INVALID_ARGUMENT
   */
  public IssuedToken issueToken(String accountId, String name, TokenRole role,
      boolean serverAdmin, Instant expiresAt) {
    Objects.requireNonNull(role, "role");
    if (name == null || name.isBlank()) {
      throw io.icegate.core.error.IcegateException.invalidArgument(
          "token name must be 1 to 255 characters");
    }
    // the rules of every name (length, no control characters, valid Unicode): the name is written
    // into audit lines, where a line break would forge an entry
    io.icegate.core.model.Names.requireName(name, "token name");
    Instant now = tokens.now();
    if (expiresAt != null && !expiresAt.isAfter(now)) {
      throw io.icegate.core.error.IcegateException.invalidArgument(
          "expiresAt must be in the future");
    }
    if (maxTokenLifetime != null) {
      Instant latest = now.plus(maxTokenLifetime);
      if (expiresAt != null && expiresAt.isAfter(latest)) {
        throw io.icegate.core.error.IcegateException.invalidArgument(
            "expiresAt must be within the server's maximum token lifetime of " + maxTokenLifetime);
      }
      expiresAt = expiresAt == null ? latest : expiresAt;
    }
    String token = ApiTokens.newToken();
    TokenGrant grant = new TokenGrant(accountId, serverAdmin ? TokenRole.ADMIN : role, serverAdmin,
        name, now, expiresAt, null);
    repositories.store().run(tx -> {
      repositories.fences().assertAbsent(tx, ResourceRef.account(accountId));
      repositories.accounts().require(tx, accountId);
      tokens.put(tx, token, grant);
      return null;
    });
    return new IssuedToken(ApiTokens.id(ApiTokens.digest(token)), grant, token);
  }

  /** One page of the account's tokens (never their secrets). @throws ... NOT_FOUND */
  public Page<TokenEntry> listTokens(String accountId, PageRequest page) {
    get(accountId);
    return tokens.list(accountId, page);
  }

  /**
   * Revokes token {@code id} of the account; never the last server-admin token.
   *
   * @param byServerAdmin whether the caller is a server admin (only they revoke server-admin tokens)
   * @throws io.icegate.core.error.IcegateException NOT_FOUND, PERMISSION_DENIED,
   *     LAST_SERVER_ADMIN_TOKEN
   */
  public TokenEntry revokeToken(String accountId, String id, boolean byServerAdmin) {
    return tokens.revoke(accountId, id, byServerAdmin);
  }

  /**
   * A newly issued token.
   *
   * @param id its public id
   * @param grant what it grants
   * @param token the secret, shown once
   */
  public record IssuedToken(String id, TokenGrant grant, String token) {
    @Override
    public String toString() {
      return "IssuedToken[" + id + ", " + grant + ", token redacted]";
    }
  }
}
