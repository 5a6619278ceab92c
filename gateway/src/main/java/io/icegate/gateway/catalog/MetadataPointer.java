package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Relation;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Transaction;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;

/**
 * The metadata-location pointer of one table or view, moved by compare-and-set in one store
 * transaction. Tables and views share it, written once over {@link Relation}: Iceberg's {@code
 * BaseMetastoreTableOperations} and {@code BaseViewOperations} are parallel but separate, so each
 * operations class keeps its Iceberg base and delegates the store part here, with the managing
 * Overlay as last refreshed.
 */
final class MetadataPointer {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  private final ResourceKind kind;
  /** The Overlay managing the relation as last refreshed, or null for a local (or absent) one. */
  private Provenance managed;

  private MetadataPointer(RepositoryCatalog catalog, TableIdentifier ident, ResourceKind kind) {
    this.catalog = catalog;
    this.ident = ident;
    this.kind = kind;
  }

  /** The pointer of table {@code ident}; a commit to a dropped table is a 409. */
  static MetadataPointer table(RepositoryCatalog catalog, TableIdentifier ident) {
    return new MetadataPointer(catalog, ident, ResourceKind.TABLE);
  }

  /** The pointer of view {@code ident}; a replace of a dropped view is a 404. */
  static MetadataPointer view(RepositoryCatalog catalog, TableIdentifier ident) {
    return new MetadataPointer(catalog, ident, ResourceKind.VIEW);
  }

  /** Records what a refresh found: the Overlay managing the relation, {@code null} when local. */
  void refreshed(Provenance managedBy) {
    managed = managedBy;
  }

  /**
   * Fails with 403 when the relation was managed when last refreshed, before any metadata file is
   * written (a managed relation's location may be upstream storage). The swap checks again in the
   * writing transaction ({@link #swap}).
   */
  void requireLocal() {
    if (managed != null) {
      throw RepositoryErrors.toIceberg(
          ManagedRelationAccess.refusal(kind, ident.toString(), managed));
    }
  }

  /**
   * In {@code tx}: creates the table or view pointing at {@code newLocation} when {@code expected}
   * is null, else moves its pointer from {@code expected} to {@code newLocation}.
   *
   * @throws CommitFailedException the pointer is not at {@code expected} (or, for a table, the
   *     table is gone)
   * @throws NoSuchViewException a view to replace is gone
   * @throws AlreadyExistsException a table or view with the identifier exists (create), managed
   *     or not
   * @throws IcegateException {@code MANAGED_BY_OVERLAY} (403) when the relation to move is managed
   * @throws NoSuchNamespaceException the namespace does not exist (create)
   */
  void swap(Transaction tx, String expected, String newLocation) {
    swap(tx, catalog.relations().repository(kind), expected, newLocation);
  }

  private <S extends Relation> void swap(Transaction tx, ResourceRepository<S> repository,
      String expected, String newLocation) {
    CatalogRelations relations = catalog.relations();
    String label = CatalogRelations.title(kind);
    Optional<Resource<S>> current = relations.find(tx, repository, ident);
    if (expected == null) {
      if (current.isPresent()) {
        throw new AlreadyExistsException("%s already exists: %s", label, ident);
      }
      ResourceKind sibling = kind.nameSibling().orElseThrow();
      if (relations.exists(tx, sibling, ident)) {
        throw new AlreadyExistsException(
            "%s with same name already exists: %s", CatalogRelations.title(sibling), ident);
      }
      try {
        repository.create(tx, repository.specType().cast(Relation.local(kind, catalog.catalogId(),
            List.of(ident.namespace().levels()), ident.name(), newLocation)));
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          throw new NoSuchNamespaceException("Namespace does not exist: %s", ident.namespace());
        }
        if (e.code() == ErrorCode.ALREADY_EXISTS) {
          throw new AlreadyExistsException("%s already exists: %s", label, ident);
        }
        throw e;
      }
      return;
    }
    Resource<S> resource = current.orElseThrow(this::gone);
    // Seed 000: a managed relation is read-only; refused here, in the writing transaction, so a
    // relation published by an Overlay after the writer's load is never written over.
    ManagedRelationAccess.requireLocal(resource, ident.toString());
    String at = resource.spec().metadataLocation();
    if (!at.equals(expected)) {
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed from %s", ident, at, expected);
    }
    repository.update(tx, resource.id(), ExpectedGeneration.of(resource.generation()),
        repository.specType().cast(resource.spec().withMetadataLocation(newLocation)),
        ChangeKind.METADATA);
  }

  /** A commit to a dropped table is a 409 (the client retries); a dropped view is a 404. */
  private RuntimeException gone() {
    return kind == ResourceKind.TABLE
        ? new CommitFailedException("Cannot commit %s: the table was dropped", ident)
        : CatalogRelations.notFound(kind, ident);
  }

  /**
   * {@link #swap} in its own store transaction. The already written {@code newLocation} is
   * deleted when the swap definitely failed, and kept when the store cannot tell whether it
   * committed (it may be the current metadata).
   *
   * @throws CommitStateUnknownException (500) when the store's commit result is unknown
   * @throws RuntimeException the Iceberg exception of a refused swap (see {@link #swap})
   */
  void commit(String expected, String newLocation, FileIO io) {
    try {
      catalog.write(tx -> {
        swap(tx, expected, newLocation);
        return null;
      });
    } catch (CommitUnknownResultException e) {
      throw new CommitStateUnknownException(e);
    } catch (CommitFailedException | AlreadyExistsException | NoSuchNamespaceException
        | NoSuchViewException e) {
      io.deleteFile(newLocation);
      throw e;
    } catch (IcegateException e) {
      io.deleteFile(newLocation);
      throw RepositoryErrors.toIceberg(e);
    }
  }
}
