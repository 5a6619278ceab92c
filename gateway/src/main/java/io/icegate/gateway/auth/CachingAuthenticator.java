package io.icegate.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.core.auth.ApiTokens;
import io.icegate.core.durability.CleanupStep;
import java.time.Duration;
import java.util.Optional;

/**
 * Bearer-token authentication over {@link ApiTokens}, with recent answers (including "unknown")
 * cached by token digest for a short time, so a busy client costs one store read per token per
 * {@code ttl} instead of one per request. A revoked token therefore keeps working for at most
 * {@code ttl}. Deleting an account in this process evicts its tokens' answers at once ({@link
 * #accountCleanup}); a gateway process that did not run the deletion (shared FoundationDB store)
 * keeps answering from its cache for at most {@code ttl}.
 */
public final class CachingAuthenticator implements Authenticator {
  private final ApiTokens tokens;
  private final Cache<String, Optional<Principal>> recent;

  /**
   * @param ttl how long an answer is reused
   * @param maxEntries tokens remembered at most
   */
  public CachingAuthenticator(ApiTokens tokens, Duration ttl, long maxEntries) {
    this.tokens = tokens;
    this.recent = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).build();
  }

  @Override
  public Optional<Principal> authenticate(String token) {
    return recent.get(ApiTokens.digest(token), digest -> tokens.resolve(token)
        .map(g -> new Principal(g.accountId(), g.role(), g.serverAdmin())));
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
