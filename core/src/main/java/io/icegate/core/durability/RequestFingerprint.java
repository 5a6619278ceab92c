package io.icegate.core.durability;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The fingerprint of a create request for idempotency: SHA-256 (hex) of its canonical JSON (object
 * members and map entries sorted by name, see {@link ModelJson}). Callers pass the request without
 * secret members, so a fingerprint never depends on, nor reveals, a secret (seed 000: secrets are
 * excluded from the fingerprint).
 */
public final class RequestFingerprint {
  private RequestFingerprint() {}

  /** The fingerprint of {@code request} (any Jackson-serializable value, e.g. a spec). */
  public static String of(Object request) {
    try {
      byte[] json = ModelJson.mapper().writeValueAsBytes(request);
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("request is not serializable", e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }
}
