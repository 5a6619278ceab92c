package io.icegate.core.credential;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;

/**
 * AES-256-GCM under the {@link MasterKey}, with caller-chosen additional authenticated data: the
 * one encryption of the CredentialStore's secrets and of the store's {@link MasterKeyCheck}. A
 * sealed value is {@code format (1) | nonce (12) | ciphertext and tag}; it opens only under the
 * same key and the same authenticated data.
 */
final class SealedBox {
  private static final byte FORMAT = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private SealedBox() {}

  /** {@code plain} sealed under {@code key} with {@code aad}. */
  static byte[] seal(MasterKey key, byte[] aad, byte[] plain) {
    try {
      byte[] nonce = new byte[NONCE_BYTES];
      RANDOM.nextBytes(nonce);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key.key(), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad);
      byte[] encrypted = cipher.doFinal(plain);
      return ByteBuffer.allocate(1 + NONCE_BYTES + encrypted.length)
          .put(FORMAT).put(nonce).put(encrypted).array();
    } catch (GeneralSecurityException e) {
      // no cause: nothing of the input may reach a message
      throw new IllegalStateException("cannot encrypt (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** Whether {@code sealed} has the layout {@link #seal} writes (a wrong key is not detected). */
  static boolean wellFormed(byte[] sealed) {
    return sealed.length > 1 + NONCE_BYTES && sealed[0] == FORMAT;
  }

  /**
   * The plaintext of {@code sealed} (of {@link #wellFormed} layout), or empty when it does not
   * open: {@code key} or {@code aad} is not the one it was sealed with (the authentication tag
   * does not verify) or the bytes were altered.
   */
  static Optional<byte[]> open(MasterKey key, byte[] aad, byte[] sealed) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key.key(),
          new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE_BYTES));
      cipher.updateAAD(aad);
      return Optional.of(cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES));
    } catch (GeneralSecurityException e) {
      return Optional.empty();
    }
  }
}
