package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.serve.ManagedMetadata;
import io.icegate.overlay.store.serve.TableSource;
import org.apache.iceberg.TableMetadata;

/**
 * How the gateway treats managed (overlay-materialized) Tables and Views (seed 000, "Catalog
 * overlay": materialized relations reject direct mutation while managed). Reads are served from
 * what was stored, decoded by overlay-store's read API ({@link TableSource}, {@link
 * ManagedMetadata}) and cached by source key; every write is refused with {@link
 * ErrorCode#MANAGED_BY_OVERLAY} (403) naming the Overlay.
 */
final class ManagedRelationAccess {

  private ManagedRelationAccess() {}

  /**
   * Fails when {@code relation} is managed: the refusal of a direct write, called inside the
   * transaction that would write, so a relation cannot become managed between check and write.
   *
   * @throws IcegateException {@link ErrorCode#MANAGED_BY_OVERLAY} naming the Overlay
   */
  static void requireLocal(Resource<?> relation, String displayName) {
    Provenance provenance = ManagedRelations.provenanceOf(relation);
    if (provenance != null) {
      throw refusal(relation.kind(), displayName, provenance);
    }
  }

  /** The 403 refusing a direct write of a relation that {@code provenance}'s Overlay manages. */
  static IcegateException refusal(ResourceKind kind, String displayName, Provenance provenance) {
    return new IcegateException(ErrorCode.MANAGED_BY_OVERLAY, kind, kind.label(), displayName,
        provenance.overlayId());
  }

  /**
   * The source of {@code table} read in {@code tx}, with the metadata to serve when it is managed
   * (from {@code cache} by the source's key, else read in the same transaction); a local table's
   * metadata is left {@code null}, for the caller to read from its metadata file.
   */
  static TableSource.Served read(ReadTransaction tx, Resource<Table> table, String displayName,
      MetadataCache cache) {
    TableSource source = TableSource.of(tx, table);
    return new TableSource.Served(source, source instanceof TableSource.Managed managed
        ? metadata(tx, managed, displayName, cache)
        : null);
  }

  /**
   * The metadata served for managed {@code source}, read in {@code tx}: from {@code cache} by the
   * source's key, else decoded from what is stored in that same transaction.
   */
  static TableMetadata metadata(ReadTransaction tx, TableSource.Managed source, String displayName,
      MetadataCache cache) {
    return cache.managedTable(source.key(),
        () -> ManagedMetadata.tableMetadata(tx, source, displayName));
  }
}
