package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.overlay.ManagedRelations;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.definition.TableDefinition;
import io.icegate.overlay.definition.ViewDefinition;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.view.ViewMetadata;

/**
 * How the gateway treats managed (overlay-materialized) Tables and Views (seed 000, "Catalog
 * overlay": materialized relations reject direct mutation while managed). Reads are served from the
 * stored definition, never from an upstream catalog and never from a metadata file; every write is
 * refused with {@link ErrorCode#MANAGED_BY_OVERLAY} (403) naming the Overlay.
 *
 * <p>Until capture lands a managed Table is served without snapshots and without a metadata
 * location; a managed View is served completely. Both are keyed by {@link #servedLocation}, which
 * changes with the definition's digest, so caches and ETags follow republication.
 */
final class ManagedRelationAccess {
  private static final ManagedRelations MANAGED = new ManagedRelations();

  private ManagedRelationAccess() {}

  /**
   * A string standing for a managed relation's served metadata where Iceberg expects a metadata
   * location: {@code icegate:managed/<relation id>/<definition digest>}. It names no file. The
   * last segment is the hex digest, so Iceberg's version parsing of locations finds no version
   * instead of logging a warning.
   */
  static String servedLocation(String relationId, String definitionDigest) {
    return "icegate:managed/" + relationId + "/" + definitionDigest;
  }

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
   * The table metadata served for managed table {@code table}, from its definition read in {@code
   * tx}: no snapshots, no metadata file location.
   *
   * @throws NoSuchTableException when the definition is gone (the table was retired meanwhile)
   */
  static TableMetadata tableMetadata(ReadTransaction tx, Resource<Table> table, String displayName) {
    byte[] definition = MANAGED.definition(tx, table.accountId(), ResourceKind.TABLE, table.id())
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", displayName));
    return TableDefinition.fromBytes(definition).toTableMetadata();
  }

  /**
   * The complete view metadata served for managed view {@code view}, from its definition read in
   * {@code tx}: one version holding every SQL representation, timestamped with the View's last
   * publication, and {@link #servedLocation} as its metadata location (the REST spec requires one
   * in a load-view answer).
   *
   * @throws NoSuchViewException when the definition is gone (the view was retired meanwhile)
   */
  static ViewMetadata viewMetadata(ReadTransaction tx, Resource<View> view, String displayName) {
    byte[] definition = MANAGED.definition(tx, view.accountId(), ResourceKind.VIEW, view.id())
        .orElseThrow(() -> new NoSuchViewException("View does not exist: %s", displayName));
    ViewMetadata served =
        ViewDefinition.fromBytes(definition).toViewMetadata(view.updatedAt().toEpochMilli());
    return ViewMetadata.buildFrom(served)
        .setMetadataLocation(
            servedLocation(view.id(), view.spec().provenance().definitionDigest()))
        .build();
  }
}
