package io.icegate.gateway.fileio;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import io.icegate.core.model.CatalogStorage;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;

/**
 * The {@link FileIO} of each Catalog, chosen by its warehouse scheme: {@link LocalFileIO} for
 * {@code file:} (and bare absolute paths), Iceberg's {@link S3FileIO} for {@code s3://}. An
 * S3FileIO is built from the Catalog's properties (the standard {@code s3.*} and {@code client.*}
 * keys: endpoint, path-style access, region) and its {@code storage.s3} settings, and kept per
 * Catalog generation, so a changed Catalog (or a new credential generation) gets a fresh client.
 * With {@code storage.s3.accessKeyId} and a stored secret access key (CredentialStore, under the
 * catalog id and its credential generation) the client uses those static keys; otherwise the
 * server's default AWS chain. The secret reaches only the FileIO, never a client response.
 */
public final class CatalogFileIO {
  /** Iceberg's S3FileIO setting for the Apache HTTP client's expect-continue handshake. */
  static final String EXPECT_CONTINUE = "http-client.apache.expect-continue-enabled";

  private final FileIO localFiles;
  private final Cache<String, FileIO> s3 = Caffeine.newBuilder()
      .maximumSize(1_000)
      .<String, FileIO>removalListener((key, io, cause) -> {
        if (io != null) {
          io.close();
        }
      })
      .build();

  private final StorageSecrets secrets;

  /** Resolves a catalog's storage secret access key: (catalog id, credential generation). */
  @FunctionalInterface
  public interface StorageSecrets {
    Optional<String> secretAccessKey(String catalogId, long credentialGeneration);
  }

  /** FileIOs whose S3 clients use only the server's default AWS chain. */
  public CatalogFileIO() {
    this((id, generation) -> Optional.empty());
  }

  /** FileIOs that use each catalog's storage keys from {@code secrets} when it has them. */
  public CatalogFileIO(StorageSecrets secrets) {
    this.secrets = secrets;
    LocalFileIO io = new LocalFileIO();
    io.initialize(Map.of());
    this.localFiles = io;
  }

  /**
   * The FileIO for {@code catalog}'s files.
   *
   * @throws UnsupportedOperationException for a warehouse scheme no FileIO here serves
   */
  public FileIO forCatalog(Resource<Catalog> catalog) {
    String warehouse = catalog.spec().warehouse();
    if (warehouse == null || warehouse.startsWith("file:") || warehouse.startsWith("/")) {
      return localFiles;
    }
    if (warehouse.startsWith("s3://") || warehouse.startsWith("s3a://")) {
      return s3.get(catalog.id() + '@' + catalog.generation(), key -> {
        S3FileIO io = new S3FileIO();
        // Iceberg's builders NPE on immutable maps.
        io.initialize(properties(catalog));
        return io;
      });
    }
    throw new UnsupportedOperationException(
        "Catalog " + catalog.spec().name() + ": no FileIO for warehouse " + warehouse);
  }

  private Map<String, String> properties(Resource<Catalog> catalog) {
    Map<String, String> props = new HashMap<>(catalog.spec().properties());
    // The AWS SDK sends every PutObject with "Expect: 100-continue" through Apache's client and
    // waits for the store's interim answer before the body: one more round trip per file, on the
    // critical path of every commit and capture, for bodies (metadata, manifests, manifest lists)
    // small enough to send at once. A Catalog property can still turn it back on.
    props.putIfAbsent(EXPECT_CONTINUE, "false");
    CatalogStorage storage = catalog.spec().storage();
    if (storage == null || storage.s3() == null) {
      return props;
    }
    CatalogStorage.S3 s3 = storage.s3();
    if (s3.endpoint() != null) {
      props.put("s3.endpoint", s3.endpoint());
    }
    if (s3.region() != null) {
      props.put("client.region", s3.region());
    }
    props.put("s3.path-style-access", Boolean.toString(s3.pathStyleAccess()));
    if (s3.accessKeyId() != null && s3.credentialGeneration() > 0) {
      Optional<String> secret = secrets.secretAccessKey(catalog.id(), s3.credentialGeneration());
      if (secret.isPresent()) {
        props.put("s3.access-key-id", s3.accessKeyId());
        props.put("s3.secret-access-key", secret.get());
      }
    }
    return props;
  }
}
