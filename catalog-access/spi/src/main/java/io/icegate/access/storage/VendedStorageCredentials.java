package io.icegate.access.storage;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Short-lived object-store credentials a catalog vended for one table: process-local runtime
 * material, never persisted or logged (seed 000 "Vended storage credentials").
 *
 * @param prefix the storage prefix they were issued for (see {@link StorageLocations})
 * @param properties storage credential properties by their Iceberg names ({@link
 *     #S3_ACCESS_KEY_ID}, {@link #S3_SECRET_ACCESS_KEY}, {@link #S3_SESSION_TOKEN}, optionally
 *     {@link #S3_ENDPOINT}, {@link #S3_REGION}, {@link #S3_PATH_STYLE_ACCESS})
 * @param expiresAt when to reacquire; {@code null} means the provider reported none, and callers
 *     must treat that as "reacquire before every use" rather than "never expires"
 */
public record VendedStorageCredentials(
    String prefix, Map<String, String> properties, Instant expiresAt) {

  public static final String S3_ACCESS_KEY_ID = "s3.access-key-id";
  public static final String S3_SECRET_ACCESS_KEY = "s3.secret-access-key";
  public static final String S3_SESSION_TOKEN = "s3.session-token";
  public static final String S3_SESSION_TOKEN_EXPIRES_AT_MS = "s3.session-token-expires-at-ms";
  public static final String S3_ENDPOINT = "s3.endpoint";
  public static final String S3_REGION = "client.region";
  public static final String S3_PATH_STYLE_ACCESS = "s3.path-style-access";

  public VendedStorageCredentials {
    Objects.requireNonNull(prefix, "prefix");
    properties = Map.copyOf(properties);
  }

  @Override
  public String toString() {
    return "VendedStorageCredentials[prefix="
        + prefix
        + ", properties="
        + new java.util.TreeSet<>(properties.keySet())
        + ", expiresAt="
        + expiresAt
        + "]";
  }
}
