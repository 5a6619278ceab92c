package io.icegate.access.unity.vending;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.unity.api.UnityApi.AwsCredentials;
import io.icegate.access.unity.api.UnityApi.TemporaryCredentials;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a Unity {@code temporary-table-credentials} response into {@link VendedStorageCredentials}
 * (seed 001 "Unity Catalog slice", seed 000 "Vended storage credentials"). Only the AWS session
 * keys and the expiry are copied; nothing from the catalog token or connection properties.
 *
 * <ul>
 *   <li>No AWS credential in the response: empty when it vended nothing at all; {@code
 *       UNSUPPORTED} when it vended only Azure or GCP material, which this provider cannot use.
 *   <li>A missing key, secret or session token, or a non-positive {@code expiration_time}:
 *       {@code INVALID_CONFIGURATION} (a bare key pair is refused, never handed out).
 *   <li>No {@code expiration_time} ({@code null}): a session Unity states no expiry for, which it
 *       answers for the static session an administrator configured ({@code s3.sessionToken.N},
 *       as for MinIO or on-premises stores): vended with no expiry, so callers fetch it again on
 *       their refresh cadence (the SPI's {@code expiresAt == null}) and clients get no {@code
 *       s3.session-token-expires-at-ms}.
 *   <li>The credential's {@code url}, when the server reports one, must cover the table location
 *       ({@link StorageLocations}), else {@code CREDENTIAL_SCOPE_INVALID}; it then is the prefix.
 *       Without one, Unity scopes table credentials to the table, so the table location is the
 *       prefix. Either is answered in {@link #keyForm}, the form the data files are named in.
 *   <li>Already expired: {@code CREDENTIAL_EXPIRED}.
 * </ul>
 */
public final class TemporaryTableCredentials {

  private TemporaryTableCredentials() {}

  public static Optional<VendedStorageCredentials> toVended(
      TemporaryCredentials response, String tableLocation, Instant now) {
    AwsCredentials aws = response.awsTempCredentials();
    if (aws == null) {
      if (response.azureUserDelegationSas() != null || response.gcpOauthToken() != null) {
        throw new CatalogAccessException(
            Code.UNSUPPORTED, "Unity vended non-AWS storage credentials; only S3 is supported");
      }
      return Optional.empty();
    }
    if (blank(aws.accessKeyId()) || blank(aws.secretAccessKey())) {
      throw new CatalogAccessException(
          Code.INVALID_CONFIGURATION, "the vended AWS credential lacks a key id or secret");
    }
    if (blank(aws.sessionToken())) {
      throw new CatalogAccessException(
          Code.INVALID_CONFIGURATION,
          "the vended AWS credential is a bare key pair, not a session (no session token)");
    }
    Long expiration = response.expirationTime();
    if (expiration != null && expiration <= 0) {
      throw new CatalogAccessException(Code.INVALID_CONFIGURATION,
          "the vended AWS credential has a non-positive expiration_time");
    }
    String location = keyForm(tableLocation);
    String prefix =
        response.url() == null || response.url().isBlank() ? location : keyForm(response.url());
    if (!StorageLocations.covers(prefix, location)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "the vended credential for " + response.url() + " does not cover table location "
              + tableLocation);
    }
    Instant expiresAt = expiration == null ? null : Instant.ofEpochMilli(expiration);
    if (expiresAt != null && !now.isBefore(expiresAt)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_EXPIRED, "the vended credential expired at " + expiresAt);
    }
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(VendedStorageCredentials.S3_ACCESS_KEY_ID, aws.accessKeyId());
    keys.put(VendedStorageCredentials.S3_SECRET_ACCESS_KEY, aws.secretAccessKey());
    keys.put(VendedStorageCredentials.S3_SESSION_TOKEN, aws.sessionToken());
    if (expiration != null) {
      keys.put(VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS, Long.toString(expiration));
    }
    return Optional.of(new VendedStorageCredentials(prefix, keys, expiresAt));
  }

  /**
   * A Unity location in the form capture names the table root and its data files in ({@link
   * DeltaLog#kernelPath}): Unity states locations as URIs and refuses a raw space, so a table at
   * key {@code t/my table} is {@code s3://b/t/my%20table} there, and so is the vended {@code url};
   * a client matches the prefix textually against {@code s3://b/t/my table/part-...}. A location
   * that is not on S3 is kept as it is (it covers no S3 data file either way).
   */
  public static String keyForm(String location) {
    try {
      return DeltaLog.kernelPath(location);
    } catch (IllegalArgumentException e) {
      return location;
    }
  }

  private static boolean blank(String value) {
    return value == null || value.isEmpty();
  }
}
