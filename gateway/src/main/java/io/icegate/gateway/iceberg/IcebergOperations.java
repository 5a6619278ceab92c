package io.icegate.gateway.iceberg;

import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.gateway.catalog.CatalogDirectory;
import io.icegate.gateway.catalog.RepositoryCatalog;
import io.icegate.gateway.vending.TableCredentials;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * The Iceberg REST operations of one catalog prefix: each route delegated to iceberg-core's {@link
 * CatalogHandlers} over the {@link RepositoryCatalog} adapter, except paged listings (served from
 * the repositories' range reads, DESIGN.md "Scale of listings"), load-table (ETag and the parsed
 * metadata cache, {@link TableLoads}), multi-table transactions (one store transaction) and
 * credential vending ({@link CredentialDelegation}).
 */
public final class IcebergOperations {
  private static final String NAMESPACE_SEPARATOR = "\u001f";

  private final CatalogDirectory directory;
  private final ConfigRoute config;
  private final TableLoads tableLoads;
  private final IdempotentReplies idempotency;
  private final CredentialDelegation delegation;

  /** @param credentials the storage credentials vended on request ({@link CredentialDelegation}) */
  public IcebergOperations(
      CatalogDirectory directory,
      ConfigRoute config,
      TableLoads tableLoads,
      IdempotentReplies idempotency,
      TableCredentials credentials) {
    this.directory = directory;
    this.config = config;
    this.tableLoads = tableLoads;
    this.idempotency = idempotency;
    this.delegation = new CredentialDelegation(credentials);
  }

  /** Serves {@code request}; failures are thrown as Iceberg exceptions (see {@link ErrorMapping}). */
  public IcebergReply handle(IcebergRequest request) {
    return switch (request.route()) {
      case CONFIG -> config.config(request);
      case OAUTH_TOKENS -> config.token(request);
      default -> {
        // A write must not use Catalog settings a cached copy may still hold after a change.
        RepositoryCatalog catalog = request.route().mutates()
            ? directory.currentForPrefix(request.principal(), request.prefix())
            : directory.forPrefix(request.principal(), request.prefix());
        IcebergReply reply = request.route().mutates() && request.idempotencyKey() != null
            ? idempotency.serve(catalog, request, () -> dispatch(catalog, request))
            : dispatch(catalog, request);
        // Credentials join a create-table answer only after its idempotency receipt is written:
        // a receipt is stored, credentials never are.
        yield request.route() == Route.CREATE_TABLE
            ? delegation.created(catalog, request, reply)
            : reply;
      }
    };
  }

  /**
   * A staged create with the Catalog's table defaults and overrides applied, as a direct create
   * gets them from iceberg-core's builder; the client's commit then carries them.
   */
  private static CreateTableRequest staged(RepositoryCatalog catalog, CreateTableRequest body) {
    return CreateTableRequest.builder()
        .withName(body.name())
        .withLocation(body.location())
        .withSchema(body.schema())
        .withPartitionSpec(body.spec())
        .withWriteOrder(body.writeOrder())
        .setProperties(catalog.withTableDefaults(body.properties()))
        .stageCreate()
        .build();
  }

  private IcebergReply dispatch(RepositoryCatalog catalog, IcebergRequest request) {
    return switch (request.route()) {
      case LIST_NAMESPACES -> IcebergReply.ok(listNamespaces(catalog, request));
      case CREATE_NAMESPACE -> IcebergReply.ok(CatalogHandlers.createNamespace(
          catalog, request.bodyAs(CreateNamespaceRequest.class)));
      case LOAD_NAMESPACE ->
          IcebergReply.ok(CatalogHandlers.loadNamespace(catalog, request.namespace()));
      case NAMESPACE_EXISTS -> {
        CatalogHandlers.namespaceExists(catalog, request.namespace());
        yield IcebergReply.noContent();
      }
      case DROP_NAMESPACE -> {
        CatalogHandlers.dropNamespace(catalog, request.namespace());
        yield IcebergReply.noContent();
      }
      case UPDATE_NAMESPACE -> IcebergReply.ok(catalog.updateNamespaceProperties(
          request.namespace(), request.bodyAs(UpdateNamespacePropertiesRequest.class)));
      case LIST_TABLES -> IcebergReply.ok(
          relations(catalog.listTables(request.namespace(), pageRequest(request))));
      case CREATE_TABLE -> {
        CreateTableRequest body = request.bodyAs(CreateTableRequest.class);
        // iceberg-core's builders copy properties into maps that refuse null values (an NPE)
        if (body.properties() != null && body.properties().containsValue(null)) {
          throw new BadRequestException("table property values must not be null");
        }
        yield IcebergReply.ok(body.stageCreate()
            ? CatalogHandlers.stageTableCreate(catalog, request.namespace(), staged(catalog, body))
            : CatalogHandlers.createTable(catalog, request.namespace(), body));
      }
      case LOAD_TABLE -> delegation.load(catalog, request, tableLoads);
      case LOAD_CREDENTIALS -> delegation.credentials(catalog, request);
      case TABLE_EXISTS -> {
        // A point read, and like load-table a 403 for a managed table that is not visible.
        catalog.tableReads().readableSource(request.table());
        yield IcebergReply.noContent();
      }
      case UPDATE_TABLE -> IcebergReply.ok(CatalogHandlers.updateTable(
          catalog, request.table(), request.bodyAs(UpdateTableRequest.class)));
      case DROP_TABLE -> {
        if (purgeRequested(request)) {
          CatalogHandlers.purgeTable(catalog, request.table());
        } else {
          CatalogHandlers.dropTable(catalog, request.table());
        }
        yield IcebergReply.noContent();
      }
      case RENAME_TABLE -> {
        CatalogHandlers.renameTable(catalog, request.bodyAs(RenameTableRequest.class));
        yield IcebergReply.noContent();
      }
      case REGISTER_TABLE -> IcebergReply.ok(CatalogHandlers.registerTable(
          catalog, request.namespace(), request.bodyAs(RegisterTableRequest.class)));
      case REPORT_METRICS -> {
        // Accepted and dropped: the gateway keeps no scan or commit reports (yet).
        request.bodyAs(ReportMetricsRequest.class);
        catalog.tableReads().readableSource(request.table());
        yield IcebergReply.noContent();
      }
      case COMMIT_TRANSACTION -> {
        catalog.commitTransaction(request.bodyAs(CommitTransactionRequest.class));
        yield IcebergReply.noContent();
      }
      case LIST_VIEWS -> IcebergReply.ok(
          relations(catalog.listViews(request.namespace(), pageRequest(request))));
      case CREATE_VIEW -> IcebergReply.ok(CatalogHandlers.createView(
          catalog, request.namespace(), request.bodyAs(CreateViewRequest.class)));
      case LOAD_VIEW -> IcebergReply.ok(CatalogHandlers.loadView(catalog, request.view()));
      case VIEW_EXISTS -> {
        CatalogHandlers.viewExists(catalog, request.view());
        yield IcebergReply.noContent();
      }
      case UPDATE_VIEW -> IcebergReply.ok(CatalogHandlers.updateView(
          catalog, request.view(), request.bodyAs(UpdateTableRequest.class)));
      case DROP_VIEW -> {
        CatalogHandlers.dropView(catalog, request.view());
        yield IcebergReply.noContent();
      }
      case RENAME_VIEW -> {
        CatalogHandlers.renameView(catalog, request.bodyAs(RenameTableRequest.class));
        yield IcebergReply.noContent();
      }
      case CONFIG, OAUTH_TOKENS -> throw new IllegalStateException("served above");
    };
  }

  /**
   * {@code purgeRequested}: absent is false; otherwise true or false in any case (requests-based
   * Python clients send {@code True}). Anything else is 400 before the drop: read as false it would
   * drop the table unpurged when the client meant a purge ({@code =1}, {@code =yes}).
   */
  private static boolean purgeRequested(IcebergRequest request) {
    String value = request.query().get("purgeRequested");
    if (value == null || value.equalsIgnoreCase("false")) {
      return false;
    }
    if (value.equalsIgnoreCase("true")) {
      return true;
    }
    throw new BadRequestException("purgeRequested must be true or false");
  }

  private static ListNamespacesResponse listNamespaces(
      RepositoryCatalog catalog, IcebergRequest request) {
    String parent = request.query().get("parent");
    Namespace parentNamespace = parent == null || parent.isEmpty()
        ? Namespace.empty()
        : Namespace.of(parent.split(NAMESPACE_SEPARATOR, -1));
    Page<Namespace> page = catalog.listNamespaces(parentNamespace, pageRequest(request));
    // Iceberg's builders NPE on immutable lists (List.contains(null)): pass a mutable copy.
    ListNamespacesResponse.Builder response =
        ListNamespacesResponse.builder().addAll(new java.util.ArrayList<>(page.items()));
    page.next().ifPresent(response::nextPageToken);
    return response.build();
  }

  private static ListTablesResponse relations(Page<TableIdentifier> page) {
    ListTablesResponse.Builder response =
        ListTablesResponse.builder().addAll(new java.util.ArrayList<>(page.items()));
    page.next().ifPresent(response::nextPageToken);
    return response.build();
  }

  /**
   * The page the request asks for. Without {@code pageToken} and {@code pageSize} the client did
   * not ask for paging: it gets every entry (in pages walked server-side), as the spec requires.
   */
  private static PageRequest pageRequest(IcebergRequest request) {
    Map<String, String> query = request.query();
    String token = query.get("pageToken");
    String size = query.get("pageSize");
    if (size != null && size.isEmpty()) {
      // unlike an empty pageToken (the spec's way to ask for the first page), an empty pageSize
      // asks for nothing the spec defines
      throw new org.apache.iceberg.exceptions.BadRequestException(
          "pageSize must be an integer, got an empty value");
    }
    if (size == null) {
      return token == null || token.isEmpty()
          ? null
          : new PageRequest(token, PageRequest.DEFAULT_PAGE_SIZE);
    }
    // the spec's bad-request error, naming the parameter (never a number parser's exception)
    int pageSize = PageRequest.parseSize(size).orElseThrow(() ->
        new org.apache.iceberg.exceptions.BadRequestException("pageSize must be an integer"));
    if (pageSize < 1) {
      throw new org.apache.iceberg.exceptions.BadRequestException(
          "pageSize must be at least 1: %s", size);
    }
    int bounded = Math.min(pageSize, PageRequest.MAX_PAGE_SIZE);
    return token == null || token.isEmpty()
        ? PageRequest.first(bounded)
        : new PageRequest(token, bounded);
  }
}
