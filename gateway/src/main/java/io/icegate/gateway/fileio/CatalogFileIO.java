package io.icegate.gateway.fileio;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;

/**
 * The {@link FileIO} of each Catalog, chosen by its warehouse scheme: {@link LocalFileIO} for
 * {@code file:} (and bare absolute paths), Iceberg's {@link S3FileIO} for {@code s3://}. An
 * S3FileIO is built from the Catalog's properties (the standard {@code s3.*} and {@code client.*}
 * keys: endpoint, path-style access, region) and kept per Catalog generation, so a changed
 * Catalog gets a fresh client. Credentials come from the server's default AWS chain until
 * per-Catalog storage keys live in the CredentialStore.
 */
public final class CatalogFileIO {
  private final FileIO localFiles;
  private final Cache<String, FileIO> s3 = Caffeine.newBuilder()
      .maximumSize(1_000)
      .<String, FileIO>removalListener((key, io, cause) -> {
        if (io != null) {
          io.close();
        }
      })
      .build();

  public CatalogFileIO() {
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
        io.initialize(new HashMap<>(catalog.spec().properties()));
        return io;
      });
    }
    throw new UnsupportedOperationException(
        "Catalog " + catalog.spec().name() + ": no FileIO for warehouse " + warehouse);
  }
}
