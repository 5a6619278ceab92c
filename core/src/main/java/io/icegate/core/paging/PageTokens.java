package io.icegate.core.paging;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Issues and checks page tokens: opaque, bound to one listing, tamper-evident. A token is the
 * position to resume from (the last key suffix returned) plus an HMAC-SHA256 over the listing's
 * binding and that position, under a key generated once and kept in the store ({@link
 * KeySubspace#META}), so every gateway instance accepts every other's tokens. A token from another
 * listing, an edited token or a token whose listing's filter changed fails the MAC check:
 * INVALID_PAGE_TOKEN (HTTP 400). Tokens do not expire and reveal the position (a name) to whoever
 * holds them, which is a name the holder was already shown.
 *
 * <p>Token bytes: version (1), position, first 16 bytes of the MAC; base64url without padding.
 * Thread-safe.
 */
public final class PageTokens {
  private static final byte VERSION = 1;
  private static final int KEY_BYTES = 32;
  /** Truncated MAC length: 128 bits is ample against forgery of a listing position. */
  private static final int MAC_BYTES = 16;
  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  private PageTokens(byte[] key) {
    this.key = new SecretKeySpec(key, ALGORITHM);
  }

  /**
   * Tokens under the store's key, creating the key on first use. Runs its own transaction, so call
   * it once at startup, never inside another transaction.
   */
  public static PageTokens load(KvStore store) {
    byte[] fresh = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(fresh);
    // Re-running the body after an unknown commit reads the key that did commit, so it is safe to
    // declare idempotent; concurrent first starts conflict and the loser reads the winner's key.
    byte[] key =
        store.run(
            Idempotence.IDEMPOTENT,
            tx -> {
              byte[] stored = tx.get(KeyLayout.meta(KeyLayout.META_PAGE_TOKEN_KEY));
              if (stored != null) {
                return stored;
              }
              tx.set(KeyLayout.meta(KeyLayout.META_PAGE_TOKEN_KEY), fresh);
              return fresh;
            });
    return new PageTokens(key);
  }

  /**
   * The token for resuming {@code listing} after {@code position}.
   *
   * @param listing canonical description of the listing (kind, account, scope, filters)
   * @param position opaque resume position
   */
  public String issue(String listing, byte[] position) {
    byte[] mac = mac(listing, position);
    ByteBuffer token = ByteBuffer.allocate(1 + position.length + MAC_BYTES);
    token.put(VERSION).put(position).put(mac, 0, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token.array());
  }

  /**
   * The position in {@code token}, if it was issued for {@code listing}.
   *
   * @throws IcegateException INVALID_PAGE_TOKEN
   */
  public byte[] resume(String listing, String token) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    if (bytes.length < 1 + MAC_BYTES || bytes[0] != VERSION) {
      throw invalid();
    }
    byte[] position = Arrays.copyOfRange(bytes, 1, bytes.length - MAC_BYTES);
    byte[] given = Arrays.copyOfRange(bytes, bytes.length - MAC_BYTES, bytes.length);
    byte[] expected = Arrays.copyOf(mac(listing, position), MAC_BYTES);
    if (!MessageDigest.isEqual(given, expected)) {
      throw invalid();
    }
    return position;
  }

  private byte[] mac(String listing, byte[] position) {
    byte[] binding = listing.getBytes(StandardCharsets.UTF_8);
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      // Length-prefixed, so (listing, position) pairs cannot be re-split into another pair.
      mac.update(ByteBuffer.allocate(4).putInt(binding.length).array());
      mac.update(binding);
      return mac.doFinal(position);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static IcegateException invalid() {
    return new IcegateException(ErrorCode.INVALID_PAGE_TOKEN, null);
  }

  @Override
  public String toString() {
    return "PageTokens[key=(hidden)]";
  }
}
