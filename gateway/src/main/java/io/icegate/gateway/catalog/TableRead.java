package io.icegate.gateway.catalog;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.overlay.store.serve.TableSource;
import java.util.Objects;
import org.apache.iceberg.TableMetadata;

/**
 * What one store transaction read for a table a client is about to read ({@link
 * TableReads#readable}): everything a load-table, a vended load or the credentials route answers
 * from, so none of them reads the store again.
 *
 * @param catalog the Catalog's record as stored now (read in the same transaction): its storage
 *     settings and credential generation, which credential vending needs current
 * @param table the table's record
 * @param source what the table's answer derives from; its key names cached answers and ETags
 * @param metadata the metadata to serve, read with {@code source} (a managed table's in the same
 *     transaction, a local table's from its metadata file); {@code null} when the read was asked
 *     for the source only
 */
public record TableRead(
    Resource<Catalog> catalog, Resource<Table> table, TableSource source, TableMetadata metadata) {

  public TableRead {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(source, "source");
  }

  /**
   * The metadata with its source.
   *
   * @throws IllegalStateException when the read was asked for the source only
   */
  public TableSource.Served served() {
    if (metadata == null) {
      throw new IllegalStateException("table " + table.id() + " was read without its metadata");
    }
    return new TableSource.Served(source, metadata);
  }
}
