package io.icegate.access.client;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.model.LoadedTable;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.model.UpstreamTableMetadata;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewSqlNames;
import io.icegate.access.storage.VendedStorageCredentials;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An open session with one upstream catalog. It owns external I/O only: no persistence, no name
 * resolution, no scheduling. Every method throws {@link CatalogAccessException} with a code; none
 * returns a partial result as if it were complete. Instances are safe for concurrent use, and
 * {@link #close()} is idempotent.
 */
public interface CatalogClient extends AutoCloseable {

  /** What this client offers; stable for its lifetime. */
  CatalogCapabilities capabilities();

  /**
   * Proves reachability and authentication with a real, non-mutating catalog call (a namespace
   * listing for Iceberg REST).
   *
   * @throws CatalogAccessException {@code CONNECTION_FAILED}, {@code AUTHENTICATION_FAILED}, {@code
   *     PERMISSION_DENIED}, {@code ADDRESS_DENIED}
   */
  void validate();

  /**
   * The direct children of {@code parent}, each as its full path, in upstream order, all pages
   * read.
   *
   * @throws CatalogAccessException {@code NOT_FOUND} for a missing parent, {@code
   *     UPSTREAM_PROTOCOL_ERROR} when pagination does not terminate
   */
  List<NamespacePath> listNamespaces(NamespacePath parent);

  /**
   * Tables and views directly in {@code namespace}, names and kinds only (no metadata is loaded).
   * Views are listed only when {@link CatalogCapabilities#supportsViews()}.
   *
   * @param kinds which kinds to list; a kind the provider does not support yields nothing
   */
  List<CatalogObjectRef> listObjects(NamespacePath namespace, Set<CatalogObjectKind> kinds);

  /** Provider-neutral metadata of one table. */
  UpstreamTable loadTable(NamespacePath namespace, String name);

  /**
   * One table load giving both the provider-neutral table and, when the provider has it, the full
   * Iceberg metadata of the same response ({@link LoadedTable}), so a caller that materializes and
   * then captures a table asks the upstream once. The default loads {@link #loadTable} and offers
   * no metadata.
   *
   * @throws CatalogAccessException as {@link #loadTable}
   */
  default LoadedTable loadTableWithMetadata(NamespacePath namespace, String name) {
    return LoadedTable.withoutMetadata(loadTable(namespace, name));
  }

  /**
   * The full Iceberg state of one table as of its current metadata file (snapshots, refs,
   * schemas, specs, sort orders, snapshot log), for capture. One upstream load; the location and
   * the JSON come from the same response, so they always agree.
   *
   * @throws CatalogAccessException {@code UNSUPPORTED} when the provider has no Iceberg metadata
   *     to give (the default: Delta providers), {@code NOT_FOUND} for a missing table
   */
  default UpstreamTableMetadata loadTableMetadata(NamespacePath namespace, String name) {
    throw new CatalogAccessException(
        CatalogAccessException.Code.UNSUPPORTED,
        "this catalog exposes no Iceberg table metadata to capture");
  }

  /**
   * Where to read a Delta table's log for capture, with the credentials the upstream vends for
   * that table: one vending call each time, nothing cached.
   *
   * @throws CatalogAccessException {@code UNSUPPORTED} when the provider serves no Delta tables
   *     (the default), {@code NOT_FOUND} for a missing table, {@code CREDENTIAL_VENDING_FAILED}
   *     when the upstream vends nothing usable for it
   */
  default DeltaTableSource deltaTableSource(NamespacePath namespace, String name) {
    throw new CatalogAccessException(
        CatalogAccessException.Code.UNSUPPORTED, "this catalog serves no Delta tables to capture");
  }

  /**
   * The name the upstream gives its own catalog, as a view's default catalog names it: a view whose
   * default catalog is this name means "the catalog it lives in", which a caller materializing the
   * view elsewhere drops. It comes from the connection (Iceberg REST: the {@code warehouse}
   * property; Unity Catalog: the {@code catalog} property), so callers need not know which
   * property of which provider names it.
   *
   * @return empty when the connection names no catalog or the upstream has no views (the default)
   */
  default Optional<String> upstreamCatalogName() {
    return Optional.empty();
  }

  /**
   * How this catalog's views name other objects in their SQL ({@link ViewSqlNames}), so a caller
   * can point a materialized view's SQL at what it materialized.
   *
   * @return empty when the provider does not say (the default): its views' SQL is published as
   *     the upstream wrote it
   */
  default Optional<ViewSqlNames> viewSqlNames() {
    return Optional.empty();
  }

  /**
   * Provider-neutral metadata of one view.
   *
   * @throws CatalogAccessException {@code UNSUPPORTED} when the provider does not support views
   */
  UpstreamView loadView(NamespacePath namespace, String name);

  /**
   * Fresh table-scoped storage credentials from the catalog's vending channel; a new upstream call
   * every time, nothing cached.
   *
   * @return empty when the catalog does not vend for this table; callers must handle an absent
   *     {@link VendedStorageCredentials#expiresAt()}
   * @throws CatalogAccessException {@code CREDENTIAL_SCOPE_INVALID} when no vended credential
   *     covers the table location, {@code INVALID_CONFIGURATION} when the response is unusable
   */
  Optional<VendedStorageCredentials> vendStorageCredentials(NamespacePath namespace, String name);

  /**
   * Proves that {@code credentials} (and nothing else: no ambient, catalog or configured keys) can
   * read the table's storage, by a non-mutating read of its metadata.
   *
   * @throws CatalogAccessException {@code STORAGE_ACCESS_FAILED}, {@code CREDENTIAL_EXPIRED},
   *     {@code CREDENTIAL_SCOPE_INVALID}
   */
  void validateStorageAccess(UpstreamTable table, VendedStorageCredentials credentials);

  /** Releases the session; later calls fail with {@code CLOSED}. Closing twice is harmless. */
  @Override
  void close();
}
