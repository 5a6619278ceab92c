package io.icegate.access.aws;

import java.time.Instant;
import java.util.Objects;

/**
 * AWS credentials as the SPI carries them, independent of the AWS SDK (the SPI depends on nothing
 * but the JDK and SLF4J). {@link #toString()} shows only whether a session token is present and the
 * expiry.
 *
 * @param accessKeyId the key id
 * @param secretAccessKey the secret key
 * @param sessionToken the STS session token, or {@code null} for long-lived keys
 * @param expiration when they stop working, or {@code null} when not reported
 */
public record ResolvedAwsCredentials(
    String accessKeyId, String secretAccessKey, String sessionToken, Instant expiration) {

  public ResolvedAwsCredentials {
    if (accessKeyId == null || accessKeyId.isEmpty()) {
      throw new IllegalArgumentException("access key id is required");
    }
    if (secretAccessKey == null || secretAccessKey.isEmpty()) {
      throw new IllegalArgumentException("secret access key is required");
    }
  }

  /** Whether they are still usable at {@code now}; credentials without an expiry always are. */
  public boolean usableAt(Instant now) {
    return expiration == null || now.isBefore(expiration);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ResolvedAwsCredentials that
        && accessKeyId.equals(that.accessKeyId)
        && secretAccessKey.equals(that.secretAccessKey)
        && Objects.equals(sessionToken, that.sessionToken)
        && Objects.equals(expiration, that.expiration);
  }

  @Override
  public int hashCode() {
    return Objects.hash(accessKeyId, expiration);
  }

  @Override
  public String toString() {
    return "ResolvedAwsCredentials[session="
        + (sessionToken != null)
        + ", expiration="
        + expiration
        + "]";
  }
}
