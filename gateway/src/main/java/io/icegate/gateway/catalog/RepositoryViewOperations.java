package io.icegate.gateway.catalog;

import io.icegate.core.model.Resource;
import io.icegate.core.model.View;
import io.icegate.gateway.fileio.ObjectStoreUnavailableException;
import io.icegate.overlay.store.serve.ManagedMetadata;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewProperties;

/**
 * View operations: the same compare-and-set of the metadata location ({@link MetadataPointer}) as
 * {@link RepositoryTableOperations}, for views. A managed view ({@link ManagedRelationAccess})
 * refreshes from its stored definition and refuses every replace with 403.
 */
final class RepositoryViewOperations extends BaseViewOperations {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  private final MetadataPointer pointer;

  RepositoryViewOperations(RepositoryCatalog catalog, TableIdentifier ident) {
    this.catalog = catalog;
    this.ident = ident;
    this.pointer = MetadataPointer.view(catalog, ident);
  }

  @Override
  protected String viewName() {
    return ident.toString();
  }

  @Override
  protected FileIO io() {
    return catalog.io();
  }

  @Override
  protected void doRefresh() {
    record Found(Resource<View> view, ViewMetadata definition) {}
    Optional<Found> found = RepositoryCatalog.call(() -> catalog.read(
        tx -> catalog.relations().findView(tx, ident).map(view -> new Found(view,
            view.spec().managed() ? ManagedMetadata.viewMetadata(tx, view, ident.toString())
                : null))));
    if (found.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", ident);
      }
      disableRefresh();
      return;
    }
    ViewMetadata definition = found.get().definition();
    pointer.refreshed(found.get().view().spec().provenance());
    if (definition != null) {
      // Read in the same transaction as the record; its metadata location is the served one.
      refreshFromMetadataLocation(definition.metadataFileLocation(), null, 1,
          location -> definition);
      return;
    }
    refreshFromMetadataLocation(found.get().view().spec().metadataLocation(), null, 2,
        location -> catalog.cache().view(io(), location));
  }

  @Override
  protected void doCommit(ViewMetadata base, ViewMetadata metadata) {
    if (base != null) {
      pointer.requireLocal();
    }
    // A new or moved view location must stay inside the warehouse; checked before any write.
    if (base == null || !metadata.location().equals(base.location())) {
      catalog.locations().requireInside("view location", metadata.location());
    }
    String metadataPath = metadata.properties().get(ViewProperties.WRITE_METADATA_LOCATION);
    if (metadataPath != null) {
      catalog.locations().requireInside(ViewProperties.WRITE_METADATA_LOCATION, metadataPath);
    }
    String newLocation;
    try {
      newLocation = writeNewMetadataIfRequired(metadata);
    } catch (RuntimeException e) {
      throw ObjectStoreUnavailableException.wrapping(
          (base == null ? "create view " : "replace view ") + ident,
          metadataPath != null ? metadataPath : metadata.location() + "/metadata", e);
    }
    pointer.commit(base == null ? null : currentMetadataLocation(), newLocation, io());
    requestRefresh();
  }
}
