package io.icegate.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.core.auth.ApiTokens;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.durability.CleanupStep;
import java.time.Duration;
import java.util.Optional;

/**
 * Bearer-token authentication over {@link ApiTokens}, with recent answers (including "unknown")
 * cached by token digest for a short time, so a busy client costs one store read per token per
 * {@code ttl} instead of one per request. A revoked token therefore keeps working for at most
 * {@code ttl} on the routes this authenticator guards, in every process sharing the store (the
 * gateway passes {@link #REVOCATION_BOUND}). Expiry is checked on every request, cached or not. Deleting an account in this process evicts its tokens' answers at once ({@link
 * #accountCleanup}); a gateway process that did not run the deletion (shared FoundationDB store)
 * keeps answering from its cache for at most {@code ttl}.
 */
public final class CachingAuthenticator implements Authenticator {
  private final ApiTokens tokens;
  /**
   * The cache lifetime the gateway uses, and so the bound on how long a revoked token still works
   * on the Iceberg routes of any gateway process (issue 31; the admin routes read the store on
   * every request). One store read per busy token per 2 s is cheap.
   */
  public static final Duration REVOCATION_BOUND = Duration.ofSeconds(2);

  private final Cache<String, Optional<TokenGrant>> recent;

  /**
   * @param ttl how long an answer is reused
   * @param maxEntries tokens remembered at most
   */
  public CachingAuthenticator(ApiTokens tokens, Duration ttl, long maxEntries) {
    this.tokens = tokens;
    this.recent = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).build();
  }

  /**
   * @throws io.icegate.core.error.IcegateException TOKEN_EXPIRED (never cached: an expired
   *     token's every request reads the store)
   */
  @Override
  public Optional<Principal> authenticate(String token) {
    Optional<TokenGrant> grant = recent.get(ApiTokens.digest(token), digest -> tokens.resolve(token));
    grant.ifPresent(g -> ApiTokens.requireUnexpired(g, tokens.now()));
    return grant.map(g -> new Principal(g.accountId(), g.role(), g.serverAdmin()));
  }

  /**
   * A cleanup step of account deletion that forgets every cached principal of the deleted account
   * and removes no keys. It runs after the account record delete committed, so a later lookup
   * goes to {@link ApiTokens#resolve}, which refuses the account's tokens. A lookup that read the
   * token before the fence and lands in the cache after this eviction can live for {@code ttl}.
   */
  public CleanupStep accountCleanup() {
    return (tx, accountId, maxKeys) -> {
      recent.asMap().values().removeIf(
          p -> p.isPresent() && !p.get().serverAdmin() && p.get().accountId().equals(accountId));
      return 0;
    };
  }
}
