package io.icegate.gateway.catalog;

import io.icegate.core.store.Transaction;
import io.icegate.gateway.fileio.ObjectStoreUnavailableException;
import io.icegate.overlay.store.serve.TableSource;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.BaseMetastoreTableOperations;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * Table operations whose commit writes the new metadata file, then compares-and-sets the table's
 * metadata location in one store transaction ({@link MetadataPointer}). A pointer moved by someone else is a {@link
 * CommitFailedException} (409, the client retries on fresh metadata); a store commit with unknown
 * result is a {@link CommitStateUnknownException} (500), and the new file is kept because it may be
 * the table's current metadata.
 *
 * <p>A managed table ({@link ManagedRelationAccess}) refreshes from its capture or stored
 * definition and refuses every commit with 403.
 */
final class RepositoryTableOperations extends BaseMetastoreTableOperations {
  private final RepositoryCatalog catalog;
  private final TableIdentifier ident;
  private final MetadataPointer pointer;

  /**
   * Table properties that place the table's files (metadata; data, in its current and deprecated
   * spellings): confined to the warehouse like the table location.
   */
  @SuppressWarnings("deprecation")
  static final List<String> PATH_PROPERTIES = List.of(
      TableProperties.WRITE_METADATA_LOCATION,
      TableProperties.WRITE_DATA_LOCATION,
      TableProperties.OBJECT_STORE_PATH,
      TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  RepositoryTableOperations(RepositoryCatalog catalog, TableIdentifier ident) {
    this.catalog = catalog;
    this.ident = ident;
    this.pointer = MetadataPointer.table(catalog, ident);
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
    Optional<TableSource.Served> found = RepositoryCatalog.call(() -> catalog.read(
        tx -> catalog.relations().findTable(tx, ident)
            .map(table -> ManagedRelationAccess.read(tx, table, ident.toString(),
                catalog.cache()))));
    if (found.isEmpty()) {
      if (currentMetadataLocation() != null) {
        throw new NoSuchTableException("Table does not exist: %s", ident);
      }
      disableRefresh();
      return;
    }
    TableSource source = found.get().source();
    if (source instanceof TableSource.Managed table) {
      pointer.refreshed(table.table().spec().provenance());
      // The source's key stands for the definition or capture (it changes with either); the
      // metadata was read in the same transaction as the record.
      refreshFromMetadataLocation(source.key(), null, 1, location -> found.get().metadata());
      return;
    }
    pointer.refreshed(null);
    String location = ((TableSource.MetadataFile) source).location();
    // A store that refused or could not be reached is answered at once (503, the client may
    // retry); retrying here only tripled the wait and the log lines.
    refreshFromMetadataLocation(location,
        e -> !(e instanceof NotFoundException) && !(e instanceof ObjectStoreUnavailableException),
        2, metadataLocation -> catalog.cache().table(io(), metadataLocation));
  }

  /** As {@link MetadataPointer#requireLocal}: 403 when the table was managed when refreshed. */
  void requireLocal() {
    pointer.requireLocal();
  }

  @Override
  protected void doCommit(TableMetadata base, TableMetadata metadata) {
    if (base != null) {
      requireLocal();
    }
    String newLocation = stage(base, metadata);
    pointer.commit(base == null ? null : base.metadataFileLocation(), newLocation, io());
    requestRefresh();
  }

  /**
   * Writes {@code metadata}'s file (unless it has one, e.g. a registered table); its location. A
   * new or moved table location, and every path property that places files ({@link
   * #PATH_PROPERTIES}) when set or changed, must lie inside the Catalog's warehouse; nothing is
   * written otherwise.
   *
   * @throws org.apache.iceberg.exceptions.BadRequestException for a location outside it
   * @throws ObjectStoreUnavailableException when the object store refuses the write or cannot be
   *     reached (503; nothing was published)
   */
  String stage(TableMetadata base, TableMetadata metadata) {
    if (base == null || !metadata.location().equals(base.location())) {
      catalog.locations().requireInside("table location", metadata.location());
    }
    for (String property : PATH_PROPERTIES) {
      String path = metadata.properties().get(property);
      if (path != null
          && (base == null || !path.equals(base.properties().get(property)))) {
        catalog.locations().requireInside(property, path);
      }
    }
    try {
      return writeNewMetadataIfRequired(base == null, metadata);
    } catch (RuntimeException e) {
      String directory = metadata.properties().getOrDefault(
          TableProperties.WRITE_METADATA_LOCATION, metadata.location() + "/metadata");
      throw ObjectStoreUnavailableException.wrapping(
          (base == null ? "create table " : "commit to table ") + ident, directory, e);
    }
  }

  /** In {@code tx}: the compare-and-set of {@link MetadataPointer#swap}. */
  void swap(Transaction tx, String expected, String newLocation) {
    pointer.swap(tx, expected, newLocation);
  }
}
