package io.icegate.gateway.catalog;

import io.icegate.admin.VisibilityReason;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.serve.TableSource;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.Visibility;
import java.util.function.Predicate;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The reads of an existing table that requests serve from (load-table, vended loads, the
 * credentials route, table existence), each one store transaction of point reads: the Catalog
 * record (which also checks the adapter's copy is current), the name index, the table record, its
 * visibility and, for a managed table, its capture pointer and, when wanted, its captured metadata
 * (or definition). A managed table is never served from an upstream catalog; a local table's
 * metadata file is read after the transaction, through the shared {@link MetadataCache}, so no
 * object-store call holds a store transaction open.
 */
public final class TableReads {
  private final RepositoryCatalog catalog;
  private final TableValidations validations;

  TableReads(RepositoryCatalog catalog, TableValidations validations) {
    this.catalog = catalog;
    this.validations = validations;
  }

  /**
   * Table {@code ident}, which a client is about to read, and the current Catalog record, in one
   * transaction; with the metadata to serve when {@code metadataWanted} accepts the table's source
   * (decided inside the transaction, e.g. "no answer cached under its key"), else without it.
   *
   * @throws NoSuchTableException when the table does not exist
   * @throws ForbiddenException with the reason when a managed table is not query-visible (issue
   *     10, "Visibility")
   * @throws NotFoundException when the Catalog has been deleted
   */
  public TableRead readable(TableIdentifier ident, Predicate<TableSource> metadataWanted) {
    Found found = RepositoryCatalog.call(() -> catalog.repositories().store().read(tx -> {
      Resource<Catalog> current = catalog.requireCatalog(tx);
      Resource<Table> table = requireVisible(tx, ident);
      TableSource source = TableSource.of(tx, table);
      boolean wanted = metadataWanted.test(source);
      return new Found(new TableRead(current, table, source,
          wanted && source instanceof TableSource.Managed managed
              ? ManagedRelationAccess.metadata(tx, managed, ident.toString(), catalog.cache())
              : null), wanted);
    }));
    TableRead read = found.read();
    if (found.metadataWanted() && read.source() instanceof TableSource.MetadataFile file) {
      return new TableRead(read.catalog(), read.table(), file,
          catalog.cache().table(catalog.io(), file.location()));
    }
    return read;
  }

  /** What the transaction read, and whether the caller wants the metadata with it. */
  private record Found(TableRead read, boolean metadataWanted) {}

  /**
   * As {@link #readable(TableIdentifier, Predicate)} without the metadata: for existence checks
   * and ETags.
   */
  public TableSource readableSource(TableIdentifier ident) {
    return readable(ident, source -> false).source();
  }

  /**
   * What table {@code ident}'s answer derives from, one transaction; visibility is not checked (a
   * drop of a managed table is refused for being managed, whatever its validation).
   *
   * @throws NoSuchTableException when the table does not exist
   */
  TableSource stored(TableIdentifier ident) {
    return RepositoryCatalog.call(() -> catalog.read(tx -> TableSource.of(tx,
        catalog.relations().findTable(tx, ident).orElseThrow(
            () -> new NoSuchTableException("Table does not exist: %s", ident)))));
  }

  /**
   * The Catalog's record as stored now, one point read: the copy the adapter was built from may be
   * a few seconds old (the directory shares adapters), and credential vending needs the current
   * storage settings and credential generation, since a rotation deletes the previous generation's
   * secret once it is published. For a staged create, which has no table to read with it.
   *
   * @throws NotFoundException when the Catalog has been deleted
   */
  public Resource<Catalog> currentCatalog() {
    return RepositoryCatalog.call(() -> catalog.repositories().store().read(catalog::requireCatalog));
  }

  /**
   * In {@code tx}: table {@code ident}, which clients may query (a managed table only when its
   * current capture validated with no error, or with an override).
   *
   * @throws NoSuchTableException when the table does not exist
   * @throws ForbiddenException with the reason (validation pending, or how many errors and the
   *     admin route listing them) when it is not visible
   */
  private Resource<Table> requireVisible(ReadTransaction tx, TableIdentifier ident) {
    Resource<Table> table = catalog.relations().findTable(tx, ident)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", ident));
    Visibility visibility = validations.visibility(tx, table.accountId(), table);
    if (!visibility.visible()) {
      throw new ForbiddenException("Table %s is not visible: %s", ident,
          VisibilityReason.of(visibility, table));
    }
    return table;
  }
}
