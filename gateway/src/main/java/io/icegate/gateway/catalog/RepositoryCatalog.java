package io.icegate.gateway.catalog;

import io.icegate.admin.VisibilityReason;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.serve.TableSource;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.Visibility;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
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
 * Iceberg's compatibility kit checks.
 */
public final class RepositoryCatalog extends BaseMetastoreViewCatalog implements SupportsNamespaces {
  /** Catalog property prefixes Iceberg's table and view builders read (see properties()). */
  private static final List<String> BUILDER_PREFIXES =
      List.of("table-default.", "table-override.", "view-default.", "view-override.");

  private final Repositories repositories;
  private final Resource<io.icegate.core.model.Catalog> catalog;
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
    this.catalog = catalog;
    this.generation = catalog.generation();
    this.stale = stale;
    this.validations = new TableValidations(repositories);
    this.accountId = catalog.accountId();
    this.catalogId = catalog.id();
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

  // ---- namespaces ---------------------------------------------------------------------------

  private ResourceRepository<io.icegate.core.model.Namespace> namespaces() {
    return repositories.namespaces(accountId);
  }

  private static List<String> parentPath(Namespace ns) {
    return List.of(ns.levels()).subList(0, ns.length() - 1);
  }

  private Optional<Resource<io.icegate.core.model.Namespace>> findNamespace(
      ReadTransaction tx, Namespace ns) {
    if (ns.isEmpty()) {
      return Optional.empty();
    }
    return namespaces().getByName(tx, NameScope.inCatalog(catalogId, parentPath(ns)),
        ns.level(ns.length() - 1));
  }

  private Resource<io.icegate.core.model.Namespace> requireNamespace(
      ReadTransaction tx, Namespace ns) {
    return findNamespace(tx, ns)
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", ns));
  }

  /**
   * Creates namespace {@code ns}; in the same store transaction, its parent must exist.
   *
   * @throws NoSuchNamespaceException when {@code ns} has more than one level and its parent does
   *     not exist
   * @throws AlreadyExistsException when {@code ns} exists
   */
  @Override
  public void createNamespace(Namespace ns, Map<String, String> metadata) {
    if (ns.isEmpty()) {
      throw new IllegalArgumentException("Cannot create the root namespace");
    }
    io.icegate.core.model.Namespace spec =
        new io.icegate.core.model.Namespace(catalogId, List.of(ns.levels()), metadata);
    String id = ResourceRepository.newId();
    call(() -> {
      try {
        return write(tx -> {
          if (ns.length() > 1) {
            // Iceberg's hierarchy (Polaris and Lakekeeper enforce it too): a child needs its
            // parent, checked in the create's own transaction.
            requireNamespace(tx, Namespace.of(parentPath(ns).toArray(String[]::new)));
          }
          return namespaces().create(tx, id, spec, OnConflict.ERROR);
        });
      } catch (CommitUnknownResultException e) {
        // Resolved like the repositories' own creates: the id present means it committed.
        return namespaces().get(id).map(r -> (Object) r).orElseThrow(() -> e);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.ALREADY_EXISTS) {
          throw new AlreadyExistsException("Namespace already exists: %s", ns);
        }
        throw e;
      }
    });
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
    if (page == null) {
      return new Page<>(listNamespaces(parent), null);
    }
    return call(() -> read(tx -> {
      if (!parent.isEmpty()) {
        requireNamespace(tx, parent);
      }
      Page<Resource<io.icegate.core.model.Namespace>> found = namespaces().list(tx,
          Listing.of(NameScope.inCatalog(catalogId, List.of(parent.levels()))), page,
          ReadConsistency.STRONG);
      List<Namespace> items = new ArrayList<>();
      for (Resource<io.icegate.core.model.Namespace> r : found.items()) {
        items.add(Namespace.of(r.spec().path().toArray(String[]::new)));
      }
      return new Page<>(items, found.nextPageToken());
    }));
  }

  /** A mutable copy: Iceberg's response builders NPE on immutable maps. */
  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace ns) {
    return new HashMap<>(call(() -> read(tx -> requireNamespace(tx, ns)))
        .spec().properties());
  }

  @Override
  public boolean dropNamespace(Namespace ns) {
    return call(() -> write(tx -> {
      Optional<Resource<io.icegate.core.model.Namespace>> found = findNamespace(tx, ns);
      if (found.isEmpty()) {
        return false;
      }
      try {
        namespaces().delete(tx, found.get().id(), ExpectedGeneration.any());
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NAMESPACE_NOT_EMPTY) {
          throw new NamespaceNotEmptyException("Namespace %s is not empty", ns);
        }
        throw e;
      }
      return true;
    }));
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
    Set<String> overlap = new HashSet<>(request.removals());
    overlap.retainAll(request.updates().keySet());
    if (!overlap.isEmpty()) {
      throw new org.apache.iceberg.exceptions.UnprocessableEntityException(
          "Invalid namespace properties update: cannot simultaneously set and remove keys: %s",
          overlap);
    }
    return call(() -> write(tx -> {
      Resource<io.icegate.core.model.Namespace> current = requireNamespace(tx, ns);
      Map<String, String> properties = new HashMap<>(current.spec().properties());
      UpdateNamespacePropertiesResponse.Builder response =
          UpdateNamespacePropertiesResponse.builder();
      for (String key : request.removals()) {
        if (properties.remove(key) != null) {
          response.addRemoved(key);
        } else {
          response.addMissing(key);
        }
      }
      properties.putAll(request.updates());
      response.addUpdated(request.updates().keySet());
      namespaces().update(tx, current.id(), ExpectedGeneration.of(current.generation()),
          current.spec().withProperties(properties), ChangeKind.METADATA);
      return response.build();
    }));
  }

  // ---- tables -------------------------------------------------------------------------------

  ResourceRepository<io.icegate.core.model.Table> tables() {
    return repositories.tables(accountId);
  }

  ResourceRepository<io.icegate.core.model.View> views() {
    return repositories.views(accountId);
  }

  Repositories repositories() {
    return repositories;
  }

  static NameScope.InCatalog scopeOf(String catalogId, TableIdentifier ident) {
    return NameScope.inCatalog(catalogId, List.of(ident.namespace().levels()));
  }

  Optional<Resource<io.icegate.core.model.Table>> findTable(
      ReadTransaction tx, TableIdentifier ident) {
    if (ident.namespace().isEmpty()) {
      return Optional.empty();
    }
    return tables().getByName(tx, scopeOf(catalogId, ident), ident.name());
  }

  Optional<Resource<io.icegate.core.model.View>> findView(
      ReadTransaction tx, TableIdentifier ident) {
    if (ident.namespace().isEmpty()) {
      return Optional.empty();
    }
    return views().getByName(tx, scopeOf(catalogId, ident), ident.name());
  }

  /**
   * What table {@code ident}'s answer derives from: point reads of the record and, for a managed
   * table, its capture pointer, in one transaction. Visibility is not checked (a drop of a managed
   * table is refused for being managed, whatever its validation).
   *
   * @throws NoSuchTableException when the table does not exist
   */
  public TableSource tableSource(TableIdentifier ident) {
    return call(() -> read(tx -> TableSource.of(tx, findTable(tx, ident)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", ident)))));
  }

  /**
   * As {@link #tableSource}, for a client about to read the table (load-table, existence): a
   * managed table must be query-visible, checked in the same transaction; for ETags and the
   * load-table cache.
   *
   * @throws NoSuchTableException when the table does not exist
   * @throws ForbiddenException with the reason when a managed table is not query-visible
   */
  public TableSource readableSource(TableIdentifier ident) {
    return call(() -> read(tx -> TableSource.of(tx, requireVisible(tx, ident))));
  }

  /**
   * Table {@code ident}'s record: one point read (credential vending tells managed from native
   * tables by it).
   *
   * @throws NoSuchTableException when the table does not exist
   */
  public Resource<io.icegate.core.model.Table> tableRecord(TableIdentifier ident) {
    return call(() -> read(tx -> findTable(tx, ident)))
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", ident));
  }

  /** The Catalog resource this adapter serves, as read when the adapter was made. */
  public Resource<io.icegate.core.model.Catalog> catalogResource() {
    return catalog;
  }

  /**
   * The Catalog's record as stored now, one point read: the copy this adapter was built from may
   * be a few seconds old (the directory shares adapters), and credential vending needs the current
   * storage settings and credential generation, since a rotation deletes the previous generation's
   * secret once it is published.
   *
   * @throws NotFoundException when the Catalog has been deleted
   */
  public Resource<io.icegate.core.model.Catalog> currentCatalogResource() {
    return call(() -> repositories.store().read(this::requireCatalog));
  }

  /**
   * The metadata to serve for table {@code ident} now, with its source: a managed table's record,
   * visibility, capture pointer and captured metadata (or definition) are read in one transaction
   * (never from an upstream catalog; parsed metadata comes from the shared cache by the source's
   * key), a local table's metadata file through the shared cache.
   *
   * @throws NoSuchTableException when the table does not exist
   * @throws ForbiddenException with the reason when a managed table is not query-visible
   */
  public TableSource.Served served(TableIdentifier ident) {
    TableSource.Served found = call(() -> read(tx -> ManagedRelationAccess.read(tx,
        requireVisible(tx, ident), ident.toString(), cache)));
    if (found.source() instanceof TableSource.MetadataFile file) {
      return new TableSource.Served(file, cache.table(io, file.location()));
    }
    return found;
  }

  /**
   * In {@code tx}: table {@code ident}, which clients may query (issue 10, "Visibility": a
   * managed table only when its current capture validated with no error, or with an override).
   *
   * @throws NoSuchTableException when the table does not exist
   * @throws ForbiddenException with the reason (validation pending, or how many errors and the
   *     admin route listing them) when it is not visible
   */
  private Resource<io.icegate.core.model.Table> requireVisible(
      ReadTransaction tx, TableIdentifier ident) {
    Resource<io.icegate.core.model.Table> table = findTable(tx, ident)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", ident));
    Visibility visibility = validations.visibility(tx, accountId, table);
    if (!visibility.visible()) {
      throw new ForbiddenException("Table %s is not visible: %s", ident,
          VisibilityReason.of(visibility, table));
    }
    return table;
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
      findTable(tx, ident).ifPresent(t -> ManagedRelationAccess.requireLocal(t, ident.toString()));
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
   * ResourceRepository#list(ReadTransaction, Listing, PageRequest, ReadConsistency,
   * java.util.function.Predicate)}: full pages where possible, tokens resuming after the last
   * entry examined); a {@code null} page means all of them.
   */
  public Page<TableIdentifier> listTables(Namespace ns, PageRequest page) {
    return listRelations(ns, page, tables(),
        (tx, table) -> validations.visibility(tx, accountId, table).visible());
  }

  @Override
  public List<TableIdentifier> listViews(Namespace ns) {
    return all(page -> listViews(ns, page));
  }

  /** One page of the views of {@code ns}; a {@code null} page means all of them. */
  public Page<TableIdentifier> listViews(Namespace ns, PageRequest page) {
    return listRelations(ns, page, views(), (tx, view) -> true);
  }

  /** Which relations a listing shows, decided in its transaction. */
  private interface Shown<S extends io.icegate.core.model.ResourceSpec> {
    boolean test(ReadTransaction tx, Resource<S> relation);
  }

  private <S extends io.icegate.core.model.ResourceSpec> Page<TableIdentifier> listRelations(
      Namespace ns, PageRequest page, ResourceRepository<S> repository, Shown<S> shown) {
    if (page == null) {
      return new Page<>(all(p -> listRelations(ns, p, repository, shown)), null);
    }
    return call(() -> read(tx -> {
      requireNamespace(tx, ns);
      Listing listing = Listing.of(NameScope.inCatalog(catalogId, List.of(ns.levels())));
      Page<Resource<S>> found = repository.list(tx, listing, page, ReadConsistency.STRONG,
          relation -> shown.test(tx, relation));
      List<TableIdentifier> items = new ArrayList<>();
      for (Resource<S> r : found.items()) {
        items.add(TableIdentifier.of(ns, r.name()));
      }
      return new Page<>(items, found.nextPageToken());
    }));
  }

  @Override
  public boolean dropTable(TableIdentifier ident, boolean purge) {
    TableMetadata last = null;
    if (purge) {
      TableSource source;
      try {
        source = tableSource(ident);
      } catch (NoSuchTableException e) {
        return false;
      }
      if (source instanceof TableSource.MetadataFile file) {
        last = cache.table(io, file.location());
      }
      // else managed: refused below, before any file is read or deleted
    }
    boolean dropped = call(() -> write(tx -> {
      Optional<Resource<io.icegate.core.model.Table>> found = findTable(tx, ident);
      found.ifPresent(r -> {
        ManagedRelationAccess.requireLocal(r, ident.toString());
        tables().delete(tx, r.id(), ExpectedGeneration.any());
      });
      return found.isPresent();
    }));
    if (dropped && last != null) {
      // After the pointer is gone: a failed purge leaves files, never a table without files.
      CatalogUtil.dropTableData(io, last);
    }
    return dropped;
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    call(() -> write(tx -> {
      Resource<io.icegate.core.model.Table> source = findTable(tx, from)
          .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", from));
      ManagedRelationAccess.requireLocal(source, from.toString());
      rename(tx, tables(), source.id(), from, to);
      return null;
    }));
  }

  @Override
  public boolean dropView(TableIdentifier ident) {
    return call(() -> write(tx -> {
      Optional<Resource<io.icegate.core.model.View>> found = findView(tx, ident);
      found.ifPresent(r -> {
        ManagedRelationAccess.requireLocal(r, ident.toString());
        views().delete(tx, r.id(), ExpectedGeneration.any());
      });
      return found.isPresent();
    }));
  }

  @Override
  public void renameView(TableIdentifier from, TableIdentifier to) {
    call(() -> write(tx -> {
      Resource<io.icegate.core.model.View> source = findView(tx, from)
          .orElseThrow(() -> new NoSuchViewException("View does not exist: %s", from));
      ManagedRelationAccess.requireLocal(source, from.toString());
      rename(tx, views(), source.id(), from, to);
      return null;
    }));
  }

  private <S extends io.icegate.core.model.ResourceSpec> void rename(Transaction tx,
      ResourceRepository<S> repository, String id, TableIdentifier from, TableIdentifier to) {
    requireNamespace(tx, to.namespace());
    if (findTable(tx, to).isPresent()) {
      throw new AlreadyExistsException("Cannot rename %s to %s. Table already exists", from, to);
    }
    if (findView(tx, to).isPresent()) {
      throw new AlreadyExistsException("Cannot rename %s to %s. View already exists", from, to);
    }
    repository.rename(tx, id, ExpectedGeneration.any(), scopeOf(catalogId, to), to.name());
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

  private Resource<io.icegate.core.model.Catalog> requireCatalog(ReadTransaction tx) {
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
