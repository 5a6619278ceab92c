package io.icegate.gateway.catalog;

import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import org.apache.iceberg.TableMetadata;

/**
 * What a table's load-table answer derives from: a local table's current metadata file, or a
 * managed table's stored definition. Both are immutable under their {@link #key()}: a metadata file
 * is never rewritten, and a definition's key carries its digest. So the key can name cached
 * answers and derive ETags.
 */
public sealed interface TableSource {

  /** A string naming the immutable content this source serves; equal keys, equal content. */
  String key();

  /** The source of {@code table} as stored. */
  static TableSource of(Resource<Table> table) {
    if (table.spec().managed()) {
      return new Definition(table.id(), table.spec().provenance().definitionDigest());
    }
    return new MetadataFile(table.spec().metadataLocation());
  }

  /** A local table's current metadata file; its key is the location itself. */
  record MetadataFile(String location) implements TableSource {
    @Override
    public String key() {
      return location;
    }
  }

  /** A managed table's stored definition with lowercase hex SHA-256 {@code digest}. */
  record Definition(String relationId, String digest) implements TableSource {
    @Override
    public String key() {
      return ManagedRelationAccess.servedLocation(relationId, digest);
    }
  }

  /**
   * Metadata read for a table together with the source it was read from.
   *
   * @param source what {@code metadata} derives from
   * @param metadata the metadata to serve: a managed table's has no snapshots and no metadata
   *     location
   */
  record Served(TableSource source, TableMetadata metadata) {}
}
