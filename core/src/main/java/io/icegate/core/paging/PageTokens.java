package io.icegate.core.paging;

import io.icegate.core.store.KvStore;

/**
 * Issues and checks page tokens: opaque, bound to one listing, tamper-evident. A token is the
 * position to resume from (the last key suffix returned) plus an HMAC-SHA256 over the listing's
 * binding and that position, under a key generated once and kept in the store ({@link
 * io.icegate.core.store.KeyLayout#META}), so every gateway instance accepts every other's tokens.
 * A token from another listing, an edited token or a token whose listing's filter changed fails
 * the MAC check: INVALID_PAGE_TOKEN (HTTP 400). Tokens do not expire and reveal the position (a
 * name) to whoever holds them, which is a name the holder was already shown.
 */
public final class PageTokens {

  /** Tokens under the store's key, creating the key on first use. */
  public static PageTokens load(KvStore store) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * The token for resuming {@code listing} after {@code position}.
   *
   * @param listing canonical description of the listing (kind, account, scope, filters)
   * @param position opaque resume position
   */
  public String issue(String listing, byte[] position) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * The position in {@code token}, if it was issued for {@code listing}.
   *
   * @throws io.icegate.core.error.IcegateException INVALID_PAGE_TOKEN
   */
  public byte[] resume(String listing, String token) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
