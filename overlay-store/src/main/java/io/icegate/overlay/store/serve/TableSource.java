package io.icegate.overlay.store.serve;

import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import org.apache.iceberg.TableMetadata;

/**
 * What a table's load-table answer derives from: a local table's current metadata file, a managed
 * table's captured upstream metadata, or (not captured yet) a managed table's stored definition.
 * Each is immutable under its {@link #key()}: a metadata file is never rewritten, a definition's
 * key carries its digest, and a capture's key carries its capture generation and digest. So the key
 * can name cached answers and derive ETags. A managed source's metadata is decoded by {@link
 * ManagedMetadata#tableMetadata}.
 */
public sealed interface TableSource {

  /** A string naming the immutable content this source serves; equal keys, equal content. */
  String key();

  /**
   * The source of {@code table} as stored, read in {@code tx}: for a managed table its capture
   * pointer when it has one ({@link CapturePointers}), else its definition. {@code tx} is the
   * caller's, so a server reads record, visibility, source and {@link ManagedMetadata} in one
   * transaction, and they agree.
   */
  static TableSource of(ReadTransaction tx, Resource<Table> table) {
    if (!table.spec().managed()) {
      return new MetadataFile(table.spec().metadataLocation());
    }
    return new CapturePointers().get(tx, table.accountId(), table.id())
        .<TableSource>map(pointer -> new Captured(table, pointer))
        .orElseGet(() -> new Definition(table));
  }

  /** A local table's current metadata file; its key is the location itself. */
  record MetadataFile(String location) implements TableSource {
    @Override
    public String key() {
      return location;
    }
  }

  /** A managed table's source; {@link #table()} is its record as read with the source. */
  sealed interface Managed extends TableSource {
    Resource<Table> table();
  }

  /** A managed table's stored definition (no capture yet): no snapshots. */
  record Definition(Resource<Table> table) implements Managed {
    @Override
    public String key() {
      return ManagedMetadata.servedLocation(
          table.id(), table.spec().provenance().definitionDigest());
    }
  }

  /**
   * A managed table's current capture. The key names the table, the capture generation and the
   * captured JSON's digest, so every new capture is a new key (and ETag), even one whose bytes
   * equal an earlier capture's: its capture time, served as a table property, differs.
   */
  record Captured(Resource<Table> table, CapturePointer pointer) implements Managed {
    @Override
    public String key() {
      return ManagedMetadata.capturedLocation(
          table.id(), pointer.captureGeneration(), pointer.digest());
    }
  }

  /**
   * Metadata read for a table together with the source it was read from.
   *
   * @param source what {@code metadata} derives from
   * @param metadata the metadata to serve: a definition's has no snapshots and no metadata
   *     location; a capture's has the upstream's snapshots and its upstream metadata location
   */
  record Served(TableSource source, TableMetadata metadata) {}
}
