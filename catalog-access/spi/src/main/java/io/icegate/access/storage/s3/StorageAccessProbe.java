package io.icegate.access.storage.s3;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.StorageLocations;
import io.icegate.access.storage.VendedStorageCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Proves that vended credentials open a table's storage, without writing: the one storage-access
 * check behind every provider's {@code CatalogClient.validateStorageAccess}. The Iceberg REST
 * provider reads the table's metadata file, the Delta Sharing provider the table's current commit
 * file ({@link #readObject}); the Unity provider lists the Delta log and reads its newest commit
 * ({@link #probe} with a read of its own).
 *
 * <p>First the credentials must cover the location ({@link StorageLocations}, else {@code
 * CREDENTIAL_SCOPE_INVALID}) and must not have expired ({@code CREDENTIAL_EXPIRED}); then the read
 * runs on an S3 client from {@link VendedS3Client}: its only credentials are the vended ones (no
 * environment, profile, instance role or catalog keys can stand in) and the caller's {@link
 * OutboundAddressPolicy} applies to every address. Endpoint, region and path-style access come
 * from the connection's persisted settings by {@link VendedS3Client}'s names.
 *
 * <p>Lives in the SPI, beside {@link VendedS3Client}, because nothing in it is particular to a
 * provider or a table format; so no provider depends on another for it.
 */
public final class StorageAccessProbe {

  /** Stop after this many bytes: enough to prove the read, bounded for huge files. */
  static final int MAX_BYTES = 1 << 20;

  private final Map<String, String> storageSettings;
  private final OutboundAddressPolicy policy;

  /**
   * @param storageSettings non-secret store settings by {@link VendedS3Client}'s names
   * @param policy checked on every resolved address of the store
   */
  public StorageAccessProbe(Map<String, String> storageSettings, OutboundAddressPolicy policy) {
    this.storageSettings = Map.copyOf(storageSettings);
    this.policy = policy;
  }

  /**
   * Reads the object at {@code location} (its first {@value #MAX_BYTES} bytes at most).
   *
   * @param location the object; {@code null} when the catalog gave none
   * @param what how messages name the object, e.g. {@code "table metadata file"}
   * @throws CatalogAccessException {@code STORAGE_ACCESS_FAILED} for no location or one that is
   *     not S3, a refused or failed read or an empty object; as {@link #probe} otherwise
   */
  public void readObject(
      String location, String what, VendedStorageCredentials credentials, Instant now) {
    if (location == null) {
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, "the catalog exposes no " + what + " for this table");
    }
    S3Location object;
    try {
      object = S3Location.parse(location);
    } catch (IllegalArgumentException e) {
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, what + " location: " + e.getMessage());
    }
    probe(
        location,
        credentials,
        now,
        "reading the " + what,
        s3 -> {
          if (readUpTo(s3, object, MAX_BYTES) == 0) {
            throw new CatalogAccessException(Code.STORAGE_ACCESS_FAILED, what + " is empty");
          }
          return null;
        });
  }

  /**
   * Checks that {@code credentials} cover {@code location} and have not expired, then runs {@code
   * read} with an S3 client holding exactly them (closed afterwards).
   *
   * @param location what the credentials must cover; {@code null} when the catalog gave none
   * @param doing what {@code read} does, for messages, e.g. {@code "reading the Delta log"}
   * @return what {@code read} returns
   * @throws CatalogAccessException {@code STORAGE_ACCESS_FAILED} for no location, {@code
   *     CREDENTIAL_SCOPE_INVALID}, {@code CREDENTIAL_EXPIRED};
   *     a {@link CatalogAccessException} anywhere in a failure's causes as itself ({@code
   *     ADDRESS_DENIED} from the policy, raised inside the SDK's resolver, or the read's own);
   *     any other failure as {@code STORAGE_ACCESS_FAILED} naming the store's status and error
   *     code, never the request
   */
  public <T> T probe(
      String location,
      VendedStorageCredentials credentials,
      Instant now,
      String doing,
      Function<S3Client, T> read) {
    if (location == null) {
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, "the catalog exposes no storage location for this table");
    }
    if (!StorageLocations.covers(credentials.prefix(), location)) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_SCOPE_INVALID,
          "the vended credential for " + credentials.prefix() + " does not cover " + location);
    }
    if (credentials.expiresAt() != null && !now.isBefore(credentials.expiresAt())) {
      throw new CatalogAccessException(
          Code.CREDENTIAL_EXPIRED, "the vended credential expired at " + credentials.expiresAt());
    }
    try (S3Client s3 = VendedS3Client.open(credentials, storageSettings, policy)) {
      return read.apply(s3);
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof CatalogAccessException access) {
          throw access;
        }
      }
      throw new CatalogAccessException(
          Code.STORAGE_ACCESS_FAILED, doing + " failed: " + VendedS3Client.describe(e), e);
    }
  }

  /**
   * Reads up to {@code limit} bytes of {@code object}. A longer object's response is aborted, not
   * drained: closing it would download the rest to reuse the connection.
   */
  private static int readUpTo(S3Client s3, S3Location object, int limit) {
    ResponseInputStream<GetObjectResponse> in =
        s3.getObject(b -> b.bucket(object.bucket()).key(object.key()));
    try (in) {
      int read = 0;
      byte[] buffer = new byte[8192];
      for (int n; read < limit && (n = in.read(buffer)) >= 0; ) {
        read += n;
      }
      if (read >= limit) {
        in.abort();
      }
      return read;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
