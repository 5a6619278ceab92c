package io.icegate.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.core.auth.ApiTokens;
import java.time.Duration;
import java.util.Optional;

/**
 * Bearer-token authentication over {@link ApiTokens}, with recent answers (including "unknown")
 * cached by token digest for a short time, so a busy client costs one store read per token per
 * {@code ttl} instead of one per request. A revoked token therefore keeps working for at most
 * {@code ttl}.
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
}
