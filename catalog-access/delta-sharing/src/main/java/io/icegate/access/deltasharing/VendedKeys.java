package io.icegate.access.deltasharing;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.deltasharing.protocol.TemporaryCredentials;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.storage.VendedStorageCredentials;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protocol's temporary table credentials as the SPI's vended S3 keys (and, for capture, as a
 * {@link DeltaTableSource}; with the commit file a version's log entry is read from): AWS only, complete, not
 * expired, and covering the table's location when one is stated (the credentials' own {@code
 * location} is the prefix they grant).
 */
final class VendedKeys {

  private VendedKeys() {}

  static VendedStorageCredentials of(
      String display, String tableLocation, TemporaryCredentials credentials, Instant now) {
    Map<String, String> aws = credentials.awsTempCredentials();
    if (aws == null) {
      throw new CatalogAccessException(
          Code.INVALID_CONFIGURATION,
          "the sharing server vended non-AWS credentials for "
              + display
              + "; only S3 storage is supported");
    }
    String key = aws.get("accessKeyId");
    String secret = aws.get("secretAccessKey");
    String session = aws.get("sessionToken");
    if (blank(key) || blank(secret) || blank(session) || credentials.expirationTime() == null) {
      throw new CatalogAccessException(
          Code.INVALID_CONFIGURATION,
          "the temporary credentials for "
              + display
              + " are incomplete (access key, secret, session token and expirationTime are"
              + " required)");
    }
    String prefix = credentials.location() != null ? credentials.location() : tableLocation;
    if (prefix == null) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "neither the table nor its temporary credentials state a location for " + display);
    }
    if (tableLocation != null && !StorageLocations.covers(prefix, tableLocation)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "the temporary credentials for "
              + prefix
              + " do not cover table location "
              + tableLocation);
    }
    Instant expiresAt = Instant.ofEpochMilli(credentials.expirationTime());
    if (!now.isBefore(expiresAt)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_EXPIRED, "the temporary credentials expired at " + expiresAt);
    }
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(VendedStorageCredentials.S3_ACCESS_KEY_ID, key);
    properties.put(VendedStorageCredentials.S3_SECRET_ACCESS_KEY, secret);
    properties.put(VendedStorageCredentials.S3_SESSION_TOKEN, session);
    properties.put(
        VendedStorageCredentials.S3_SESSION_TOKEN_EXPIRES_AT_MS,
        Long.toString(credentials.expirationTime()));
    return new VendedStorageCredentials(prefix, properties, expiresAt);
  }

  /**
   * Where and with what to read a shared table's log for capture (issue 26): version {@code
   * version} at {@code tableLocation}, else at the location the credentials grant.
   */
  static DeltaTableSource source(String display, String tableLocation, long version,
      TemporaryCredentials credentials, Instant now, Map<String, String> storeSettings) {
    VendedStorageCredentials vended = of(display, tableLocation, credentials, now);
    String root = tableLocation != null ? tableLocation : vended.prefix();
    return new DeltaTableSource(root.endsWith("/") ? root.substring(0, root.length() - 1) : root,
        version, vended, storeSettings);
  }

  /** The Delta log's commit file of {@code version} (20-digit zero-padded, Delta protocol). */
  static String commitFile(String location, long version) {
    String root = location.endsWith("/") ? location : location + "/";
    return root + "_delta_log/" + String.format("%020d", version) + ".json";
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
