package io.icegate.gateway.vending;

import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One ask for storage credentials of a table.
 *
 * @param catalog the Catalog (its storage settings decide how native tables vend)
 * @param identifier the table's identifier in the Catalog
 * @param table the table's record, or {@code null} for a staged create (nothing stored yet, and
 *     always a native table)
 * @param location the table's base location, e.g. {@code s3://bucket/warehouse/ns/t}, as its
 *     metadata names it (the prefix the credentials are for)
 * @param access what the credentials may do there
 */
public record CredentialRequest(
    Resource<Catalog> catalog,
    TableIdentifier identifier,
    Resource<Table> table,
    String location,
    StorageAccess access) {

  public CredentialRequest {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(identifier, "identifier");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(access, "access");
  }

  /** Whether the table is managed (captured from an upstream through a CatalogOverlay). */
  public boolean managed() {
    return table != null && table.spec().managed();
  }
}
