package io.icegate.core.durability;

/**
 * The fingerprint of a create request for idempotency: SHA-256 (hex) of its canonical JSON (object
 * members sorted by name). Callers pass the request without secret members, so a fingerprint never
 * depends on, nor reveals, a secret (seed 000: secrets are excluded from the fingerprint).
 */
public final class RequestFingerprint {
  private RequestFingerprint() {}

  /** The fingerprint of {@code request} (any Jackson-serializable value, e.g. a spec). */
  public static String of(Object request) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
