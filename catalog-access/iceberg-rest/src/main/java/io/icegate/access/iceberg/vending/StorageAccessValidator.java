package io.icegate.access.iceberg.vending;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.VendedS3Client;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves that vended credentials open a table's storage: reads the table's current metadata file
 * through Iceberg's {@link S3FileIO} whose only credentials are the vended ones (a static provider:
 * no environment, profile, instance role or catalog keys can stand in). Non-mutating.
 *
 * <p>The S3 client comes from {@link VendedS3Client} (the caller's {@link OutboundAddressPolicy}
 * on every address); endpoint, region and path-style access come from the connection's persisted
 * properties ({@code s3.endpoint}, {@code client.region}, {@code s3.path-style-access}).
 */
public final class StorageAccessValidator {

  /** Stop after this many bytes: enough to prove the read, bounded for huge metadata files. */
  static final int MAX_BYTES = 1 << 20;

  private final Map<String, String> storageSettings;
  private final OutboundAddressPolicy policy;

  public StorageAccessValidator(Map<String, String> storageSettings, OutboundAddressPolicy policy) {
    this.storageSettings = Map.copyOf(storageSettings);
    this.policy = policy;
  }

  /**
   * @throws CatalogAccessException {@code CREDENTIAL_SCOPE_INVALID} when the credentials do not
   *     cover the metadata file, {@code CREDENTIAL_EXPIRED}, {@code STORAGE_ACCESS_FAILED}, {@code
   *     ADDRESS_DENIED}
   */
  public void validate(UpstreamTable table, VendedStorageCredentials credentials, Instant now) {
    String metadata = table.metadataLocation();
    if (metadata == null) {
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, "the catalog exposes no metadata location for this table");
    }
    String scheme = URI.create(metadata).getScheme();
    if (scheme == null || !scheme.toLowerCase(Locale.ROOT).startsWith("s3")) {
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, "metadata location scheme " + scheme + " is not S3");
    }
    if (!StorageLocations.covers(credentials.prefix(), metadata)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "the vended credential for " + credentials.prefix() + " does not cover " + metadata);
    }
    if (credentials.expiresAt() != null && !now.isBefore(credentials.expiresAt())) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_EXPIRED, "the vended credential expired at " + credentials.expiresAt());
    }
    try (S3Client s3 = VendedS3Client.open(credentials, storageSettings, policy);
        S3FileIO io = new S3FileIO(() -> s3)) {
      io.initialize(new HashMap<>(storageSettings));
      try (InputStream in = io.newInputFile(metadata).newStream()) {
        int read = 0;
        byte[] buffer = new byte[8192];
        for (int n; read < MAX_BYTES && (n = in.read(buffer)) >= 0; ) {
          read += n;
        }
        if (read == 0) {
          throw new CatalogAccessException(Code.STORAGE_ACCESS_FAILED, "metadata file is empty");
        }
      }
    } catch (CatalogAccessException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      CatalogAccessException denied = findCause(e);
      if (denied != null) {
        throw denied;
      }
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, "reading the table metadata file failed: " + VendedS3Client.describe(e), e);
    }
  }

  private static CatalogAccessException findCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CatalogAccessException access) {
        return access;
      }
    }
    return null;
  }
}
