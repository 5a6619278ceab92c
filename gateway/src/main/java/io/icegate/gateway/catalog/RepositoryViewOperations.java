package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.View;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.CommitUnknownResultException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseViewOperations;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewProperties;

/**
 * View operations: the same compare-and-set of the metadata location as {@link
 * RepositoryTableOperations}, for views. A managed view ({@link ManagedRelationAccess}) refreshes
 * from its stored definition and refuses every replace with 403.
 */
final class RepositoryViewOperations extends BaseViewOperations {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  /** The Overlay managing the view as last refreshed, or null for a local (or absent) view. */
  private Provenance managed;

  RepositoryViewOperations(RepositoryCatalog catalog, TableIdentifier ident) {
    this.catalog = catalog;
    this.ident = ident;
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
    Optional<Found> found = RepositoryCatalog.call(() -> catalog.repositories().store().read(
        tx -> catalog.findView(tx, ident).map(view -> new Found(view, view.spec().managed()
            ? ManagedRelationAccess.viewMetadata(tx, view, ident.toString())
            : null))));
    if (found.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchViewException("View does not exist: %s", ident);
      }
      disableRefresh();
      return;
    }
    ViewMetadata definition = found.get().definition();
    managed = found.get().view().spec().provenance();
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
    if (base != null && managed != null) {
      // Before any file is written: a managed view's location may be upstream storage. The
      // writing transaction below checks again.
      throw RepositoryErrors.toIceberg(
          ManagedRelationAccess.refusal(ResourceKind.VIEW, ident.toString(), managed));
    }
    // A new or moved view location must stay inside the warehouse; checked before any write.
    if (base == null || !metadata.location().equals(base.location())) {
      catalog.locations().requireInside("view location", metadata.location());
    }
    String metadataPath = metadata.properties().get(ViewProperties.WRITE_METADATA_LOCATION);
    if (metadataPath != null) {
      catalog.locations().requireInside(ViewProperties.WRITE_METADATA_LOCATION, metadataPath);
    }
    String newLocation = writeNewMetadataIfRequired(metadata);
    String expected = base == null ? null : currentMetadataLocation();
    try {
      catalog.repositories().store().run(tx -> {
        Optional<Resource<View>> current = catalog.findView(tx, ident);
        if (expected == null) {
          if (current.isPresent()) {
            throw new AlreadyExistsException("View already exists: %s", ident);
          }
          if (catalog.findTable(tx, ident).isPresent()) {
            throw new AlreadyExistsException("Table with same name already exists: %s", ident);
          }
          try {
            catalog.views().create(tx, new View(catalog.catalogId(),
                List.of(ident.namespace().levels()), ident.name(), newLocation, Map.of()));
          } catch (IcegateException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
              throw new NoSuchNamespaceException(
                  "Namespace does not exist: %s", ident.namespace());
            }
            throw e;
          }
          return null;
        }
        Resource<View> view = current.orElseThrow(
            () -> new NoSuchViewException("View does not exist: %s", ident));
        ManagedRelationAccess.requireLocal(view, ident.toString());
        if (!view.spec().metadataLocation().equals(expected)) {
          throw new CommitFailedException(
              "Cannot commit %s: metadata location %s has changed from %s",
              ident, view.spec().metadataLocation(), expected);
        }
        catalog.views().update(tx, view.id(), ExpectedGeneration.of(view.generation()),
            view.spec().withMetadataLocation(newLocation), ChangeKind.METADATA);
        return null;
      });
    } catch (CommitUnknownResultException e) {
      throw new CommitStateUnknownException(e);
    } catch (CommitFailedException | AlreadyExistsException | NoSuchNamespaceException
        | NoSuchViewException e) {
      io().deleteFile(newLocation);
      throw e;
    } catch (IcegateException e) {
      io().deleteFile(newLocation);
      throw RepositoryErrors.toIceberg(e);
    }
    requestRefresh();
  }
}
