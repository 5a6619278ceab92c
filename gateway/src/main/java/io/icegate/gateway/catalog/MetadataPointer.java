package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.io.FileIO;

/**
 * The metadata-location pointer of one table or view, moved by compare-and-set in one store
 * transaction. Tables and views share it: Iceberg's {@code BaseMetastoreTableOperations} and
 * {@code BaseViewOperations} are parallel but separate, so each operations class keeps its Iceberg
 * base and delegates the store part here.
 *
 * @param <S> {@link Table} or {@link View}
 */
final class MetadataPointer<S extends ResourceSpec> {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  private final String label;
  private final String otherLabel;
  private final ResourceRepository<S> repository;
  private final BiFunction<ReadTransaction, TableIdentifier, Optional<Resource<S>>> find;
  private final BiFunction<ReadTransaction, TableIdentifier, Optional<?>> findOther;
  private final Function<S, String> location;
  private final BiFunction<S, String, S> withLocation;
  private final Function<String, S> created;
  private final Function<TableIdentifier, RuntimeException> gone;

  private MetadataPointer(RepositoryCatalog catalog, TableIdentifier ident, String label,
      String otherLabel, ResourceRepository<S> repository,
      BiFunction<ReadTransaction, TableIdentifier, Optional<Resource<S>>> find,
      BiFunction<ReadTransaction, TableIdentifier, Optional<?>> findOther,
      Function<S, String> location, BiFunction<S, String, S> withLocation,
      Function<String, S> created, Function<TableIdentifier, RuntimeException> gone) {
    this.catalog = catalog;
    this.ident = ident;
    this.label = label;
    this.otherLabel = otherLabel;
    this.repository = repository;
    this.find = find;
    this.findOther = findOther;
    this.location = location;
    this.withLocation = withLocation;
    this.created = created;
    this.gone = gone;
  }

  /** The pointer of table {@code ident}; a commit to a dropped table is a 409. */
  static MetadataPointer<Table> table(RepositoryCatalog catalog, TableIdentifier ident) {
    return new MetadataPointer<>(catalog, ident, "Table", "View", catalog.tables(),
        catalog::findTable, catalog::findView, Table::metadataLocation,
        Table::withMetadataLocation,
        newLocation -> new Table(catalog.catalogId(), List.of(ident.namespace().levels()),
            ident.name(), newLocation, Map.of()),
        id -> new CommitFailedException("Cannot commit %s: the table was dropped", id));
  }

  /** The pointer of view {@code ident}; a replace of a dropped view is a 404. */
  static MetadataPointer<View> view(RepositoryCatalog catalog, TableIdentifier ident) {
    return new MetadataPointer<>(catalog, ident, "View", "Table", catalog.views(),
        catalog::findView, catalog::findTable, View::metadataLocation,
        View::withMetadataLocation,
        newLocation -> new View(catalog.catalogId(), List.of(ident.namespace().levels()),
            ident.name(), newLocation, Map.of()),
        id -> new NoSuchViewException("View does not exist: %s", id));
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
    Optional<Resource<S>> current = find.apply(tx, ident);
    if (expected == null) {
      if (current.isPresent()) {
        throw new AlreadyExistsException("%s already exists: %s", label, ident);
      }
      if (findOther.apply(tx, ident).isPresent()) {
        throw new AlreadyExistsException(
            "%s with same name already exists: %s", otherLabel, ident);
      }
      try {
        repository.create(tx, created.apply(newLocation));
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
    Resource<S> resource = current.orElseThrow(() -> gone.apply(ident));
    // Seed 000: a managed relation is read-only; refused here, in the writing transaction, so a
    // relation published by an Overlay after the writer's load is never written over.
    ManagedRelationAccess.requireLocal(resource, ident.toString());
    String at = location.apply(resource.spec());
    if (!at.equals(expected)) {
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed from %s", ident, at, expected);
    }
    repository.update(tx, resource.id(), ExpectedGeneration.of(resource.generation()),
        withLocation.apply(resource.spec(), newLocation), ChangeKind.METADATA);
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
