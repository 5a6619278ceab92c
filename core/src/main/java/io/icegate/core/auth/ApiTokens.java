package io.icegate.core.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Bearer tokens, stored only as their SHA-256 digest ({@link KeyLayout#TOKENS}). Tokens are 256
 * random bits, so an unsalted fast hash suffices: there is no dictionary to attack, and lookup by
 * digest is one point read.
 */
public final class ApiTokens {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KvStore store;

  public ApiTokens(KvStore store) {
    this.store = store;
  }

  /** A new random token: {@code igt_} and 43 URL-safe base64 characters. */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "igt_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Lower-case hex SHA-256 of the token's UTF-8 bytes. */
  public static String digest(String token) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Records {@code grant} for {@code token} in {@code tx} (replacing any grant of that token). */
  public void put(Transaction tx, String token, TokenGrant grant) {
    try {
      tx.set(KeyLayout.token(digest(token)), JSON.writeValueAsBytes(grant));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The grant of {@code token}, or empty when it was never issued, was revoked, or its account is
   * gone or carries a deletion fence (seed 000: a deleted account's tokens stop working with the
   * fence, since account cleanup does not reach the digest-keyed token records). Server-admin
   * grants act in every account and so survive the deletion of their home account. One read
   * transaction: up to three point reads.
   */
  public Optional<TokenGrant> resolve(String token) {
    byte[] key = KeyLayout.token(digest(token));
    return store.read(tx -> {
      byte[] value = tx.get(key);
      if (value == null) {
        return Optional.empty();
      }
      TokenGrant grant = parse(value);
      if (!grant.serverAdmin()) {
        ResourceRef account = ResourceRef.account(grant.accountId());
        if (tx.get(KeyLayout.fence(account)) != null
            || tx.get(KeyLayout.resource(account)) == null) {
          return Optional.empty();
        }
      }
      return Optional.of(grant);
    });
  }

  private static TokenGrant parse(byte[] value) {
    try {
      return JSON.readValue(value, TokenGrant.class);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable token grant", e);
    }
  }
}
