package io.icegate.gateway.catalog;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Transaction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;

/**
 * Table operations whose commit writes the new metadata file, then compares-and-sets the table's
 * metadata location in one store transaction. A pointer moved by someone else is a {@link
 * CommitFailedException} (409, the client retries on fresh metadata); a store commit with unknown
 * result is a {@link CommitStateUnknownException} (500), and the new file is kept because it may be
 * the table's current metadata.
 *
 * <p>A managed table ({@link ManagedRelationAccess}) refreshes from its stored definition and
 * refuses every commit with 403.
 */
final class RepositoryTableOperations extends BaseMetastoreTableOperations {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  /** The Overlay managing the table as last refreshed, or null for a local (or absent) table. */
  private Provenance managed;

  RepositoryTableOperations(RepositoryCatalog catalog, TableIdentifier ident) {
    this.catalog = catalog;
    this.ident = ident;
  }

  @Override
  protected String tableName() {
    return ident.toString();
  }

  @Override
  public FileIO io() {
    return catalog.io();
  }

  @Override
  protected void doRefresh() {
    record Found(Resource<Table> table, TableMetadata definition) {}
    Optional<Found> found = RepositoryCatalog.call(() -> catalog.repositories().store().read(
        tx -> catalog.findTable(tx, ident).map(table -> new Found(table, table.spec().managed()
            ? ManagedRelationAccess.tableMetadata(tx, table, ident.toString())
            : null))));
    if (found.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", ident);
      }
      disableRefresh();
      return;
    }
    Resource<Table> table = found.get().table();
    managed = table.spec().provenance();
    if (managed != null) {
      // The served location stands for the definition (it changes with its digest); the
      // definition was read in the same transaction as the record.
      refreshFromMetadataLocation(TableSource.of(table).key(), null, 1,
          location -> found.get().definition());
      return;
    }
    refreshFromMetadataLocation(table.spec().metadataLocation(), null, 2,
        location -> catalog.cache().table(io(), location));
  }

  /**
   * Fails with 403 when the table was managed when last refreshed, before any metadata file is
   * written (a managed table's location may be upstream storage). {@link #swap} checks again in
   * the writing transaction.
   */
  void requireLocal() {
    if (managed != null) {
      throw RepositoryErrors.toIceberg(
          ManagedRelationAccess.refusal(ResourceKind.TABLE, ident.toString(), managed));
    }
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    if (base != null) {
      requireLocal();
    }
    String newLocation = stage(base, metadata);
    try {
      catalog.repositories().store().run(tx -> {
        swap(tx, base == null ? null : base.metadataFileLocation(), newLocation);
        return null;
      });
    } catch (CommitUnknownResultException e) {
      throw new CommitStateUnknownException(e);
    } catch (CommitFailedException | AlreadyExistsException | NoSuchNamespaceException e) {
      io().deleteFile(newLocation);
      throw e;
    } catch (IcegateException e) {
      io().deleteFile(newLocation);
      throw RepositoryErrors.toIceberg(e);
    }
    requestRefresh();
  }

  /**
   * Writes {@code metadata}'s file (unless it has one, e.g. a registered table); its location. A
   * new or moved table location, and a metadata path set by property, must lie inside the
   * Catalog's warehouse; nothing is written otherwise.
   *
   * @throws org.apache.iceberg.exceptions.BadRequestException for a location outside it
   */
  String stage(TableMetadata base, TableMetadata metadata) {
    if (base == null || !metadata.location().equals(base.location())) {
      catalog.locations().requireInside("table location", metadata.location());
    }
    String metadataPath = metadata.properties().get(TableProperties.WRITE_METADATA_LOCATION);
    if (metadataPath != null && (base == null || !metadataPath.equals(
        base.properties().get(TableProperties.WRITE_METADATA_LOCATION)))) {
      catalog.locations().requireInside(TableProperties.WRITE_METADATA_LOCATION, metadataPath);
    }
    return writeNewMetadataIfRequired(base == null, metadata);
  }

  /**
   * In {@code tx}: creates the table pointing at {@code newLocation} when {@code expected} is null,
   * else moves its pointer from {@code expected} to {@code newLocation}.
   *
   * @throws CommitFailedException the pointer is not at {@code expected} (or the table is gone)
   * @throws AlreadyExistsException a table or view with the identifier exists (create), managed
   *     or not
   * @throws IcegateException {@code MANAGED_BY_OVERLAY} when the table to move is managed
   */
  void swap(Transaction tx, String expected, String newLocation) {
    Optional<Resource<Table>> current = catalog.findTable(tx, ident);
    if (expected == null) {
      if (current.isPresent()) {
        throw new AlreadyExistsException("Table already exists: %s", ident);
      }
      if (catalog.findView(tx, ident).isPresent()) {
        throw new AlreadyExistsException("View with same name already exists: %s", ident);
      }
      Table spec = new Table(catalog.catalogId(), List.of(ident.namespace().levels()),
          ident.name(), newLocation, Map.of());
      try {
        catalog.tables().create(tx, spec);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          throw new NoSuchNamespaceException("Namespace does not exist: %s", ident.namespace());
        }
        if (e.code() == ErrorCode.ALREADY_EXISTS) {
          throw new AlreadyExistsException("Table already exists: %s", ident);
        }
        throw e;
      }
      return;
    }
    if (current.isEmpty()) {
      throw new CommitFailedException("Cannot commit %s: the table was dropped", ident);
    }
    Resource<Table> table = current.get();
    ManagedRelationAccess.requireLocal(table, ident.toString());
    if (!table.spec().metadataLocation().equals(expected)) {
      throw new CommitFailedException(
          "Cannot commit %s: metadata location %s has changed from %s",
          ident, table.spec().metadataLocation(), expected);
    }
    catalog.tables().update(tx, table.id(), ExpectedGeneration.of(table.generation()),
        table.spec().withMetadataLocation(newLocation), ChangeKind.METADATA);
  }
}
