package io.icegate.gateway.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.icegate.gateway.fileio.ObjectStoreUnavailableException;
import io.icegate.overlay.store.serve.TableSource;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * Parsed table and view metadata by metadata location. Metadata files are immutable (every commit
 * writes a new one), so an entry never goes stale: a table's current metadata changes only by its
 * pointer moving to another location. Shared by every catalog of the server.
 */
public final class MetadataCache {
  private final Cache<String, TableMetadata> tables;
  private final Cache<String, ViewMetadata> views;

  /** @param maxEntries entries kept per kind (least recently used are evicted) */
  public MetadataCache(long maxEntries) {
    this.tables = Caffeine.newBuilder().maximumSize(maxEntries).build();
    this.views = Caffeine.newBuilder().maximumSize(maxEntries).build();
  }

  /**
   * The table metadata at {@code location}, read through {@code io} on a miss.
   *
   * @throws ObjectStoreUnavailableException (503) when the object store refuses the read or
   *     cannot be reached
   */
  public TableMetadata table(FileIO io, String location) {
    return tables.get(location, loc -> {
      try {
        return TableMetadataParser.read(io, loc);
      } catch (RuntimeException e) {
        throw ObjectStoreUnavailableException.reading("read table metadata", loc, e);
      }
    });
  }

  /**
   * The metadata served for a managed table's source named {@code sourceKey} ({@link
   * TableSource#key()}: immutable content, like a metadata file), built by {@code build} on a
   * miss.
   */
  public TableMetadata managedTable(String sourceKey, Supplier<TableMetadata> build) {
    return tables.get(sourceKey, key -> build.get());
  }

  /**
   * The view metadata at {@code location}, read through {@code io} on a miss.
   *
   * @throws ObjectStoreUnavailableException (503) as {@link #table}
   */
  public ViewMetadata view(FileIO io, String location) {
    return views.get(location, loc -> {
      try {
        return ViewMetadataParser.read(io.newInputFile(loc));
      } catch (RuntimeException e) {
        throw ObjectStoreUnavailableException.reading("read view metadata", loc, e);
      }
    });
  }
}
