package io.icegate.core.auth;

import com.apple.foundationdb.Range;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer tokens, stored only as their SHA-256 digest ({@link KeySubspace#TOKENS}). Tokens are 256
 * random bits, so an unsalted fast hash suffices: there is no dictionary to attack, and lookup by
 * digest is one point read.
 *
 * <p>A token's public {@link #id} is derived from its digest (a hash of it), so records written
 * before ids existed have one too, and the id reveals neither the token nor the digest. Listing
 * and revocation scan the whole token subspace: tokens number in the hundreds, not millions, and
 * the scan is also what makes "never the last server-admin token" serializable (see {@link
 * #revoke}).
 */
public final class ApiTokens {
  /**
   * "Last used" is rewritten only when the stored value is this much older than now, so a token
   * causes at most one write per hour and a listed value is at most this far behind.
   */
  public static final Duration LAST_USED_GRANULARITY = Duration.ofHours(1);

  private static final Logger LOG = LoggerFactory.getLogger(ApiTokens.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ObjectMapper JSON = ModelJson.mapper();
  private static final Pattern ID = Pattern.compile("[0-9a-f]{24}");

  private final KvStore store;
  private final Clock clock;

  public ApiTokens(KvStore store) {
    this(store, Clock.systemUTC());
  }

  public ApiTokens(KvStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** A new random token: {@code igt_} and 43 URL-safe base64 characters. */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "igt_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Lower-case hex SHA-256 of the token's UTF-8 bytes. */
  public static String digest(String token) {
    return sha256(token);
  }

  /** The public id of the token whose digest is {@code digest}: 24 hex characters. */
  public static String id(String digest) {
    return sha256("icegate-token-id:" + digest).substring(0, 24);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The clock expiry and "last used" are read from. */
  public Instant now() {
    return clock.instant();
  }

  /** Records {@code grant} for {@code token} in {@code tx} (replacing any grant of that token). */
  public void put(Transaction tx, String token, TokenGrant grant) {
    tx.set(KeyLayout.token(digest(token)), write(grant));
  }

  /**
   * The grant of {@code token}, or empty when it was never issued, was revoked, or its account is
   * gone or carries a deletion fence (seed 000: a deleted account's tokens stop working with the
   * fence, since account cleanup does not reach the digest-keyed token records). Server-admin
   * grants act in every account and so survive the deletion of their home account. One read
   * transaction: up to three point reads; and, at most once per {@link #LAST_USED_GRANULARITY},
   * one write of "last used" that never fails the lookup.
   *
   * @throws IcegateException TOKEN_EXPIRED
   */
  public Optional<TokenGrant> resolve(String token) {
    byte[] key = KeyLayout.token(digest(token));
    Optional<TokenGrant> found = store.read(tx -> {
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
    Instant now = now();
    if (found.isPresent()) {
      requireUnexpired(found.get(), now);
      touch(key, found.get(), now);
    }
    return found;
  }

  /** @throws IcegateException TOKEN_EXPIRED when {@code grant} is expired at {@code now} */
  public static void requireUnexpired(TokenGrant grant, Instant now) {
    if (grant.expiredAt(now)) {
      throw new IcegateException(ErrorCode.TOKEN_EXPIRED, null, grant.expiresAt().toString());
    }
  }

  /**
   * Records "last used" (to the second) when the stored value is absent or older than {@link
   * #LAST_USED_GRANULARITY}. Re-reads the record in the
   * writing transaction, so a concurrent revocation is never undone; any failure is logged and
   * ignored, since authentication must not depend on a bookkeeping write.
   */
  private void touch(byte[] key, TokenGrant seen, Instant now) {
    Instant stale = now.minus(LAST_USED_GRANULARITY);
    if (seen.lastUsedAt() != null && seen.lastUsedAt().isAfter(stale)) {
      return;
    }
    try {
      store.run(Idempotence.IDEMPOTENT, tx -> {
        byte[] value = tx.get(key);
        if (value != null) {
          TokenGrant current = parse(value);
          if (current.lastUsedAt() == null || !current.lastUsedAt().isAfter(stale)) {
            tx.set(key, write(current.usedAt(now.truncatedTo(ChronoUnit.SECONDS))));
          }
        }
        return null;
      });
    } catch (RuntimeException e) {
      LOG.debug("token last-used write skipped: {}", e.toString());
    }
  }

  /** One page of {@code accountId}'s tokens in id order (expired ones included, marked so). */
  public Page<TokenEntry> list(String accountId, PageRequest page) {
    String after = page.pageToken();
    if (after != null && !ID.matcher(after).matches()) {
      throw new IcegateException(ErrorCode.INVALID_PAGE_TOKEN, null);
    }
    List<TokenEntry> all = store.read(tx -> scan(tx)).stream()
        .filter(e -> e.grant().accountId().equals(accountId))
        .filter(e -> after == null || e.id().compareTo(after) > 0)
        .sorted(Comparator.comparing(TokenEntry::id))
        .toList();
    List<TokenEntry> items = all.subList(0, Math.min(page.pageSize(), all.size()));
    String next = all.size() > items.size() ? items.get(items.size() - 1).id() : null;
    return new Page<>(items, next);
  }

  /**
   * Revokes token {@code id} of account {@code accountId}. The scan that finds it also counts the
   * other unexpired server-admin tokens in the same transaction, so two revocations of the last
   * two server-admin tokens conflict and one of them, retried, sees it would leave none.
   *
   * @param byServerAdmin whether the caller is a server admin: only they revoke server-admin tokens
   * @return the revoked token
   * @throws IcegateException NOT_FOUND (no such token in the account), PERMISSION_DENIED,
   *     LAST_SERVER_ADMIN_TOKEN
   */
  public TokenEntry revoke(String accountId, String id, boolean byServerAdmin) {
    return store.run(Idempotence.NOT_IDEMPOTENT, tx -> {
      Instant now = now();
      List<TokenEntry> all = scan(tx);
      TokenEntry target = all.stream()
          .filter(e -> e.id().equals(id) && e.grant().accountId().equals(accountId))
          .findFirst()
          .orElseThrow(() -> new IcegateException(ErrorCode.NOT_FOUND, null, "token", id));
      if (target.grant().serverAdmin() && !byServerAdmin) {
        throw new IcegateException(ErrorCode.PERMISSION_DENIED, null, "non-server-admin",
            "revoke a server-admin token");
      }
      if (target.grant().serverAdmin() && all.stream().noneMatch(e -> e != target
          && e.grant().serverAdmin() && !e.grant().expiredAt(now))) {
        throw new IcegateException(ErrorCode.LAST_SERVER_ADMIN_TOKEN, null, id);
      }
      for (KeyValue kv : tx.getRange(range().begin, range().end)) {
        if (id(digestOf(kv.key())).equals(id)) {
          tx.clear(kv.key());
        }
      }
      return target;
    });
  }

  private static Range range() {
    return KeySubspace.TOKENS.range();
  }

  private static String digestOf(byte[] key) {
    return KeySubspace.TOKENS.unpack(key).getString(0);
  }

  private static List<TokenEntry> scan(ReadTransaction tx) {
    List<TokenEntry> out = new ArrayList<>();
    for (KeyValue kv : tx.getRange(range().begin, range().end)) {
      out.add(new TokenEntry(id(digestOf(kv.key())), parse(kv.value())));
    }
    return out;
  }

  private static byte[] write(TokenGrant grant) {
    try {
      return JSON.writeValueAsBytes(grant);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TokenGrant parse(byte[] value) {
    try {
      return JSON.readValue(value, TokenGrant.class);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable token grant", e);
    }
  }
}
