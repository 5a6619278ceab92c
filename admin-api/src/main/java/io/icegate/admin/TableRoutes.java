package io.icegate.admin;

import io.icegate.admin.model.AdminRequests;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.overlay.store.validation.Visibility;
import io.icegate.overlay.store.validation.VisibilityOverride;
import io.icegate.overlay.reconcile.HeldMarks;
import io.icegate.overlay.tablevalidation.TableRevalidation;
import io.icegate.overlay.tablevalidation.TableValidator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * HTTP mapping of a Catalog's Tables as the admin sees them (issue 10): {@code GET
 * .../catalogs/{catalog}/tables?namespace=a%1Fb&name=t} finds a table's id by its path (the
 * other routes need the id), {@code GET .../catalogs/{catalog}/tables/{table}} with capture time and generation, validation state,
 * error count, override and visibility; the paged {@code .../validation-errors}; {@code PUT} and
 * {@code DELETE .../visibility-override} (PUT requires If-Match with the Table's ETag, DELETE
 * accepts it); {@code POST .../revalidate}; and {@code revalidate=true} on Integration validate.
 * A Table of another Catalog, or of nothing, is 404. The logic lives in overlay-store and
 * overlay-engine; the link to a table's errors is built here ({@link VisibilityReason}).
 */
public final class TableRoutes {
  private static final CapturePointers CAPTURES = new CapturePointers();
  private static final HeldMarks HELD = new HeldMarks();

  private final Repositories repositories;
  private final TableValidations validations;
  private final TableRevalidation revalidation;

  public TableRoutes(Repositories repositories, TableRevalidation revalidation) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.validations = new TableValidations(repositories);
    this.revalidation = Objects.requireNonNull(revalidation, "revalidation");
  }

  AdminReply handle(AdminCall call) {
    String account = call.var("account");
    String catalog = call.var("catalog");
    String tableId = call.var("table");
    return switch (call.route()) {
      case FIND_TABLES -> find(call, account, catalog);
      case GET_TABLE -> view(200, account, catalog, tableId);
      case TABLE_VALIDATION_ERRORS -> {
        Page<ValidationError> page = repositories.store().read(tx -> {
          require(tx, account, catalog, tableId);
          return validations.errors(tx, account, tableId, AdminOperations.pageRequest(call));
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", page.items());
        out.put("nextPageToken", page.nextPageToken());
        yield AdminReply.json(200, out);
      }
      case PUT_VISIBILITY_OVERRIDE -> {
        ExpectedGeneration expected = AdminOperations.requiredIfMatch(call, tableId);
        String note = call.body().length == 0 ? null
            : AdminJson.read(call.body(), AdminRequests.SetVisibilityOverride.class).note();
        repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
          Resource<Table> table = require(tx, account, catalog, tableId);
          checkGeneration(table, expected);
          VisibilityOverride set = validations.setOverride(tx, account, tableId, note);
          advance(tx, account, table);
          return set;
        });
        yield view(200, account, catalog, tableId);
      }
      case DELETE_VISIBILITY_OVERRIDE -> {
        ExpectedGeneration expected = AdminOperations.optionalIfMatch(call, tableId);
        repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
          Resource<Table> table = require(tx, account, catalog, tableId);
          checkGeneration(table, expected);
          boolean cleared = validations.clearOverride(tx, account, tableId);
          if (cleared) {
            advance(tx, account, table);
          }
          return cleared;
        });
        yield new AdminReply(204, null, null, Map.of());
      }
      case REVALIDATE_TABLE -> {
        repositories.store().read(tx -> require(tx, account, catalog, tableId));
        revalidation.revalidateTable(account, catalog, tableId);
        yield view(200, account, catalog, tableId);
      }
      default -> throw new IllegalArgumentException("not a table route: " + call.route());
    };
  }

  /**
   * The Tables at {@code namespace} (segments separated by {@code %1F}, required): with {@code
   * name}, {@code {"items": [view], "nextPageToken": null}} with zero or one item; without it,
   * every Table of the namespace in name order, paginated ({@code pageSize}, {@code pageToken}),
   * hidden ones included (an admin finds them here to override them). Each item is the view of
   * {@code GET .../tables/{table}}, with its visibility, capture and validation state.
   *
   * @throws IcegateException INVALID_ARGUMENT for a missing namespace, an empty segment or a bad
   *     page parameter, NOT_FOUND for an unknown Catalog
   */
  private AdminReply find(AdminCall call, String account, String catalog) {
    List<String> namespace = UpstreamOperations.namespace(call.query().get("namespace"),
        "namespace", false).segments();
    String name = call.query().get("name");
    if (name == null || name.isEmpty()) {
      PageRequest page = AdminOperations.pageRequest(call);
      return repositories.store().read(tx -> {
        requireCatalog(tx, account, catalog);
        Page<Resource<Table>> found = repositories.tables(account).list(tx,
            Listing.of(NameScope.inCatalog(catalog, namespace)), page, ReadConsistency.STRONG);
        List<Map<String, Object>> items = new ArrayList<>();
        for (Resource<Table> table : found.items()) {
          items.add(describe(tx, account, table));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", items);
        out.put("nextPageToken", found.nextPageToken());
        return AdminReply.json(200, out);
      });
    }
    List<Map<String, Object>> items = repositories.store().read(tx -> {
      requireCatalog(tx, account, catalog);
      return repositories.tables(account)
          .getByName(tx, NameScope.inCatalog(catalog, namespace), name)
          .map(table -> List.of(describe(tx, account, table))).orElse(List.of());
    });
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", items);
    out.put("nextPageToken", null);
    return AdminReply.json(200, out);
  }

  /** Whether Integration validate asked for {@code revalidate=true}. */
  static boolean revalidateRequested(AdminCall call) {
    return switch (call.query().getOrDefault("revalidate", "false")) {
      case "true" -> true;
      case "false" -> false;
      default -> throw IcegateException.invalidArgument("revalidate must be true or false");
    };
  }

  /** Revalidates every captured managed Table of Integration {@code integrationId}. */
  Map<String, Object> revalidateIntegration(String accountId, String integrationId) {
    TableValidator.Result result = revalidation.revalidateIntegration(accountId, integrationId);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("validated", result.validated());
    out.put("failed", result.failed());
    out.put("warnings", result.warnings());
    return out;
  }

  /** The Table's view, with its capture, validation and visibility from one read. */
  private AdminReply view(int status, String account, String catalog, String tableId) {
    return repositories.store().read(tx -> {
      Resource<Table> table = require(tx, account, catalog, tableId);
      return AdminReply.json(status, describe(tx, account, table))
          .withHeader("ETag", table.etag());
    });
  }

  /** {@code table}'s view in the caller's transaction. */
  private Map<String, Object> describe(ReadTransaction tx, String account, Resource<Table> table) {
    String tableId = table.id();
    Map<String, Object> out = AdminViews.of(table);
    Optional<CapturePointer> capture = CAPTURES.get(tx, account, tableId);
    out.put("capture", capture.map(c -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("captureGeneration", c.captureGeneration());
      view.put("capturedAt", c.capturedAt().toString());
      view.put("upstreamMetadataLocation", c.upstreamMetadataLocation());
      return view;
    }).orElse(null));
    Optional<ValidationStatus> validation = validations.status(tx, account, tableId);
    Map<String, Object> validationView = new LinkedHashMap<>();
    validationView.put("state", validation.map(v -> v.state().name()).orElse("PENDING"));
    validationView.put("errorCount", validation.map(ValidationStatus::errorCount).orElse(0));
    validationView.put("validationGeneration",
        validation.map(ValidationStatus::validationGeneration).orElse(0L));
    validationView.put("captureGeneration",
        validation.map(ValidationStatus::captureGeneration).orElse(0L));
    validationView.put("validatedAt",
        validation.map(v -> v.validatedAt().toString()).orElse(null));
    // a local table is never validated: no state to show
    out.put("validation", table.spec().managed() ? validationView : null);
    Optional<VisibilityOverride> override = validations.override(tx, account, tableId);
    out.put("visibilityOverride", override.map(o -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("setAt", o.setAt().toString());
      view.put("note", o.note());
      return view;
    }).orElse(null));
    // issue 21: a table whose upstream object a reconcile held keeps its older state; say why
    var provenance = table.spec().provenance();
    out.put("held", provenance == null ? null
        : HELD.get(tx, account, provenance.overlayId(), tableId).map(h -> {
          Map<String, Object> view = new LinkedHashMap<>();
          view.put("code", h.code());
          view.put("message", h.message());
          view.put("since", h.since().toString());
          return view;
        }).orElse(null));
    Visibility visibility = validations.visibility(tx, account, table);
    out.put("visible", visibility.visible());
    out.put("visibilityReason", VisibilityReason.of(visibility, table));
    return out;
  }

  /** The Table, when it exists in Catalog {@code catalogId} of the account; 404 otherwise. */
  private Resource<Table> require(ReadTransaction tx, String account, String catalogId,
      String tableId) {
    requireCatalog(tx, account, catalogId);
    return repositories.tables(account).get(tx, tableId)
        .filter(t -> t.spec().catalogId().equals(catalogId))
        .orElseThrow(() -> new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.TABLE,
            ResourceKind.TABLE.label(), tableId));
  }

  private static void requireCatalog(ReadTransaction tx, String account, String catalogId) {
    if (tx.get(io.icegate.core.store.KeyLayout.resource(
        new ResourceRef(account, ResourceKind.CATALOG, catalogId))) == null) {
      throw new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.CATALOG,
          ResourceKind.CATALOG.label(), catalogId);
    }
  }

  /**
   * Advances the Table's generation: the override is part of the Table's admin view, so its
   * ETag must change with it, or two writers holding the same ETag would both succeed.
   */
  private void advance(io.icegate.core.store.Transaction tx, String account,
      Resource<Table> table) {
    repositories.tables(account).update(tx, table.id(), ExpectedGeneration.of(table.generation()),
        table.spec(), ChangeKind.METADATA);
  }

  private static void checkGeneration(Resource<Table> table, ExpectedGeneration expected) {
    if (!expected.matches(table.generation())) {
      throw new IcegateException(ErrorCode.PRECONDITION_FAILED, ResourceKind.TABLE,
          ResourceKind.TABLE.label(), table.id());
    }
  }
}
