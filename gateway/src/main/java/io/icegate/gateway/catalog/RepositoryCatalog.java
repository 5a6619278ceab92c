package io.icegate.gateway.catalog;

import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.serve.TableSource;
import io.icegate.overlay.store.validation.TableValidations;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.view.BaseMetastoreViewCatalog;
import org.apache.iceberg.view.ViewOperations;

/**
 * An Iceberg {@code Catalog} + {@link SupportsNamespaces} + {@code ViewCatalog} over the resource
 * repositories, for one icegate Catalog of one account. iceberg-core's {@code CatalogHandlers} run
 * on it. Namespaces, tables and views are ordinary resources; a table or view is a pointer to its
 * current metadata file, moved by compare-and-set in one store transaction.
 *
 * <p>Holds no per-request state: the directory shares one per Catalog record among concurrent
 * requests ({@link CatalogDirectory}). Error messages follow iceberg-core's own catalogs, which
 * Iceberg's compatibility kit checks. Namespaces live in {@link CatalogNamespaces}; lookup, drop
 * and rename of tables and views in {@link CatalogRelations}; the commits' compare-and-set in
 * {@link MetadataPointer}; the reads of existing tables that requests serve from (one store
 * transaction each) in {@link TableReads}.
 */
public final class RepositoryCatalog extends BaseMetastoreViewCatalog implements SupportsNamespaces {
  /** Catalog property prefixes Iceberg's table and view builders read (see properties()). */
  private static final List<String> BUILDER_PREFIXES =
      List.of("table-default.", "table-override.", "view-default.", "view-override.");

  private final Repositories repositories;
  private final String accountId;
  private final String catalogId;
  private final WarehouseLocations locations;
  private final FileIO io;
  private final MetadataCache cache;
  private final String name;
  private final long generation;
  private final Runnable stale;
  private final TableValidations validations;
  private final Map<String, String> properties;
  private final TableReads tableReads;
  private final CatalogNamespaces namespaces;
  private final CatalogRelations relations;

  /**
   * @param catalog the icegate Catalog resource this adapter serves
   * @param io the Catalog's FileIO (metadata files live in its warehouse)
   */
  public RepositoryCatalog(
      Repositories repositories,
      Resource<io.icegate.core.model.Catalog> catalog,
      FileIO io,
      MetadataCache cache) {
    this(repositories, catalog, io, cache, () -> { });
  }

  /**
   * As {@link #RepositoryCatalog(Repositories, Resource, FileIO, MetadataCache)}, for a {@code
   * catalog} record that may be a cached copy.
   *
   * @param stale called when a store read finds the Catalog changed or deleted since {@code
   *     catalog} was read (the owner of the copy forgets it)
   */
  RepositoryCatalog(
      Repositories repositories,
      Resource<io.icegate.core.model.Catalog> catalog,
      FileIO io,
      MetadataCache cache,
      Runnable stale) {
    this.repositories = repositories;
    this.generation = catalog.generation();
    this.stale = stale;
    this.validations = new TableValidations(repositories);
    this.accountId = catalog.accountId();
    this.catalogId = catalog.id();
    this.tableReads = new TableReads(this, validations);
    this.namespaces = new CatalogNamespaces(this, accountId, catalogId);
    this.relations = new CatalogRelations(this, namespaces, accountId, catalogId);
    String location = catalog.spec().warehouse();
    this.locations =
        new WarehouseLocations(location == null ? null : location.replaceAll("/+$", ""));
    this.io = io;
    this.cache = cache;
    this.name = catalog.spec().name();
    this.properties = builderProperties(catalog.spec().properties());
    initialize(catalog.spec().name(), new HashMap<>(catalog.spec().properties()));
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * The Catalog's {@code table-default.*}, {@code table-override.*}, {@code view-default.*} and
   * {@code view-override.*} properties. Iceberg's builders ({@code BaseMetastoreCatalog}, {@code
   * BaseMetastoreViewCatalog}) apply the defaults under the create request's properties and the
   * overrides over them, so a relation created here gets them even when the client did not apply
   * the {@code /config} defaults itself. Nothing else is exposed: iceberg-core also reads this map
   * for {@code metrics-reporter-impl}, a class name that an account admin must not be able to
   * have the server load.
   */
  @Override
  protected Map<String, String> properties() {
    return properties;
  }

  /**
   * {@code requested} table properties (null for none) with this Catalog's {@code table-default.*}
   * under them and {@code table-override.*} over them, as iceberg-core's table builder applies
   * them: for a staged create, whose metadata {@code CatalogHandlers} builds without a builder.
   */
  public Map<String, String> withTableDefaults(Map<String, String> requested) {
    Map<String, String> merged =
        new HashMap<>(PropertyUtil.propertiesWithPrefix(properties, "table-default."));
    if (requested != null) {
      merged.putAll(requested);
    }
    merged.putAll(PropertyUtil.propertiesWithPrefix(properties, "table-override."));
    return merged;
  }

  private static Map<String, String> builderProperties(Map<String, String> all) {
    Map<String, String> kept = new HashMap<>();
    all.forEach((key, value) -> {
      if (BUILDER_PREFIXES.stream().anyMatch(key::startsWith)) {
        kept.put(key, value);
      }
    });
    return Map.copyOf(kept);
  }

  /** The generation of the Catalog record this adapter was built from. */
  public long catalogGeneration() {
    return generation;
  }

  /** The Catalog's immutable id: the Iceberg REST prefix. */
  public String catalogId() {
    return catalogId;
  }

  FileIO io() {
    return io;
  }

  MetadataCache cache() {
    return cache;
  }

  WarehouseLocations locations() {
    return locations;
  }

  // ---- namespaces: CatalogNamespaces ---------------------------------------------------------

  /**
   * Creates namespace {@code ns}; in the same store transaction, its parent must exist.
   *
   * @throws NoSuchNamespaceException when its parent does not exist
   * @throws org.apache.iceberg.exceptions.AlreadyExistsException when {@code ns} exists
   */
  @Override
  public void createNamespace(Namespace ns, Map<String, String> metadata) {
    namespaces.create(ns, metadata);
  }

  @Override
  public List<Namespace> listNamespaces(Namespace parent) {
    return all(page -> listNamespaces(parent, page));
  }

  /**
   * One page of the children of {@code parent} (the root when empty), in name order; {@code null}
   * page means every child.
   *
   * @throws NoSuchNamespaceException when {@code parent} is not the root and does not exist
   */
  public Page<Namespace> listNamespaces(Namespace parent, PageRequest page) {
    return page == null ? new Page<>(listNamespaces(parent), null) : namespaces.list(parent, page);
  }

  /** A mutable copy: Iceberg's response builders NPE on immutable maps. */
  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace ns) {
    return namespaces.properties(ns);
  }

  @Override
  public boolean dropNamespace(Namespace ns) {
    return namespaces.drop(ns);
  }

  @Override
  public boolean setProperties(Namespace ns, Map<String, String> properties) {
    updateNamespaceProperties(ns, UpdateNamespacePropertiesRequest.builder()
        .updateAll(properties).build());
    return true;
  }

  @Override
  public boolean removeProperties(Namespace ns, Set<String> properties) {
    UpdateNamespacePropertiesResponse response = updateNamespaceProperties(ns,
        UpdateNamespacePropertiesRequest.builder().removeAll(properties).build());
    return !response.removed().isEmpty();
  }

  /**
   * Applies removals and updates of namespace properties in one store transaction (iceberg-core's
   * handler applies them in two).
   */
  public UpdateNamespacePropertiesResponse updateNamespaceProperties(
      Namespace ns, UpdateNamespacePropertiesRequest request) {
    return namespaces.updateProperties(ns, request);
  }

  // ---- tables and views: CatalogRelations --------------------------------------------------

  Repositories repositories() {
    return repositories;
  }

  /** Lookup, drop and rename of this Catalog's tables and views. */
  CatalogRelations relations() {
    return relations;
  }

  /** The reads of existing tables that requests serve from, each one store transaction. */
  public TableReads tableReads() {
    return tableReads;
  }

  @Override
  protected TableOperations newTableOps(TableIdentifier ident) {
    return new RepositoryTableOperations(this, ident);
  }

  @Override
  protected ViewOperations newViewOps(TableIdentifier ident) {
    return new RepositoryViewOperations(this, ident);
  }

  @Override
  protected String defaultWarehouseLocation(TableIdentifier ident) {
    return locations.defaultLocation(name(), ident);
  }

  /**
   * Registers the table whose metadata file is {@code metadataFileLocation}, which must lie inside
   * the Catalog's warehouse (checked before the file is read).
   *
   * @throws org.apache.iceberg.exceptions.BadRequestException when it lies outside
   * @throws org.apache.iceberg.exceptions.ForbiddenException when a managed table has the name:
   *     registering over it would replace it. This check only picks the answer; the create below
   *     refuses any taken name in its own transaction, so a race cannot write over it
   */
  @Override
  public org.apache.iceberg.Table registerTable(
      TableIdentifier ident, String metadataFileLocation) {
    call(() -> read(tx -> {
      relations.findTable(tx, ident)
          .ifPresent(t -> ManagedRelationAccess.requireLocal(t, ident.toString()));
      return null;
    }));
    locations.requireInside("metadata location", metadataFileLocation);
    return super.registerTable(ident, metadataFileLocation);
  }

  @Override
  public List<TableIdentifier> listTables(Namespace ns) {
    return all(page -> listTables(ns, page));
  }

  /**
   * One page of the query-visible tables of {@code ns}, filtered inside the range read ({@link
   * CatalogNamespaces#relations}); a {@code null} page means all of them.
   */
  public Page<TableIdentifier> listTables(Namespace ns, PageRequest page) {
    return listRelations(ns, page, relations.tables(),
        (tx, table) -> validations.visibility(tx, accountId, table).visible());
  }

  @Override
  public List<TableIdentifier> listViews(Namespace ns) {
    return all(page -> listViews(ns, page));
  }

  /** One page of the views of {@code ns}; a {@code null} page means all of them. */
  public Page<TableIdentifier> listViews(Namespace ns, PageRequest page) {
    return listRelations(ns, page, relations.views(), (tx, view) -> true);
  }

  private <S extends io.icegate.core.model.ResourceSpec> Page<TableIdentifier> listRelations(
      Namespace ns, PageRequest page, ResourceRepository<S> repository,
      CatalogNamespaces.Shown<S> shown) {
    return page == null
        ? new Page<>(all(p -> listRelations(ns, p, repository, shown)), null)
        : namespaces.relations(ns, page, repository, shown);
  }

  @Override
  public boolean dropTable(TableIdentifier ident, boolean purge) {
    TableMetadata last = null;
    if (purge) {
      TableSource source;
      try {
        source = tableReads.stored(ident);
      } catch (NoSuchTableException e) {
        return false;
      }
      if (source instanceof TableSource.MetadataFile file) {
        last = cache.table(io, file.location());
      }
      // else managed: refused below, before any file is read or deleted
    }
    boolean dropped = relations.drop(relations.tables(), ident);
    if (dropped && last != null) {
      // After the pointer is gone: a failed purge leaves files, never a table without files.
      CatalogUtil.dropTableData(io, last);
    }
    return dropped;
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    relations.rename(relations.tables(), from, to);
  }

  @Override
  public boolean dropView(TableIdentifier ident) {
    return relations.drop(relations.views(), ident);
  }

  @Override
  public void renameView(TableIdentifier from, TableIdentifier to) {
    relations.rename(relations.views(), from, to);
  }

  /**
   * Commits several table changes all-or-nothing: new metadata files are written first, then
   * every pointer is compared-and-set in one store transaction.
   */
  public void commitTransaction(CommitTransactionRequest request) {
    new TransactionCommit(this).commit(request);
  }

  // ---- plumbing -----------------------------------------------------------------------------

  /**
   * Runs {@code body} in a read transaction that first checks, in that same transaction, that
   * this Catalog still exists: the record this adapter was built from may be a cached copy, and a
   * deleted Catalog must answer 404 at once, whichever process deleted it.
   *
   * @throws NotFoundException when the Catalog has been deleted
   */
  <T> T read(KvStore.ReadBody<T> body) {
    return repositories.store().read(tx -> {
      requireCatalog(tx);
      return body.apply(tx);
    });
  }

  /** As {@link #read}, in a read-write transaction. */
  <T> T write(KvStore.TransactionBody<T> body) {
    return repositories.store().run(tx -> {
      requireCatalog(tx);
      return body.apply(tx);
    });
  }

  /**
   * In {@code tx}: this Catalog's record as stored now; forgets this adapter (the {@code stale}
   * callback) when it changed.
   *
   * @throws NotFoundException when the Catalog has been deleted
   */
  Resource<io.icegate.core.model.Catalog> requireCatalog(ReadTransaction tx) {
    Optional<Resource<io.icegate.core.model.Catalog>> current =
        repositories.catalogs(accountId).get(tx, catalogId);
    if (current.isEmpty() || current.get().generation() != generation) {
      // This request still runs on the copy it started with (a changed Catalog keeps its
      // warehouse, which is immutable); the next one reads the record afresh.
      stale.run();
    }
    return current.orElseThrow(
        () -> new NotFoundException("Catalog does not exist: %s", catalogId));
  }

  private interface PageCall<T> {
    Page<T> page(PageRequest request);
  }

  private static <T> List<T> all(PageCall<T> call) {
    List<T> all = new ArrayList<>();
    PageRequest page = PageRequest.first(PageRequest.MAX_PAGE_SIZE);
    while (true) {
      Page<T> result = call.page(page);
      all.addAll(result.items());
      if (result.next().isEmpty()) {
        return all;
      }
      page = page.next(result.nextPageToken());
    }
  }

  /** Runs {@code body}, translating repository and store errors to Iceberg exceptions. */
  static <T> T call(java.util.function.Supplier<T> body) {
    return RepositoryErrors.translate(body);
  }

  @Override
  public String toString() {
    return "RepositoryCatalog[" + name + " " + catalogId + "]";
  }
}
