package io.icegate.admin;

import io.icegate.admin.model.AdminRequests;
import io.icegate.core.error.IcegateException;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.overlay.store.validation.ValidationError;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.overlay.tablevalidation.TableStates;
import io.icegate.overlay.tablevalidation.TableStates.TableState;
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
 * A Table of another Catalog, or of nothing, is 404. The reads and writes are overlay-engine's
 * {@link TableStates}; the JSON view and the link to a table's errors are built here ({@link
 * VisibilityReason}).
 */
public final class TableRoutes {
  private final TableStates tables;

  public TableRoutes(TableStates tables) {
    this.tables = Objects.requireNonNull(tables, "tables");
  }

  AdminReply handle(AdminCall call) {
    String account = call.var("account");
    String catalog = call.var("catalog");
    String tableId = call.var("table");
    return switch (call.route()) {
      case FIND_TABLES -> find(call, account, catalog);
      case GET_TABLE -> view(account, catalog, tableId);
      case TABLE_VALIDATION_ERRORS -> {
        Page<ValidationError> page =
            tables.errors(account, catalog, tableId, AdminOperations.pageRequest(call));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("items", page.items());
        out.put("nextPageToken", page.nextPageToken());
        yield AdminReply.json(200, out);
      }
      case PUT_VISIBILITY_OVERRIDE -> {
        ExpectedGeneration expected = AdminOperations.requiredIfMatch(call, tableId);
        String note = call.body().length == 0 ? null
            : AdminJson.read(call.body(), AdminRequests.SetVisibilityOverride.class).note();
        tables.setOverride(account, catalog, tableId, expected, note);
        yield view(account, catalog, tableId);
      }
      case DELETE_VISIBILITY_OVERRIDE -> {
        ExpectedGeneration expected = AdminOperations.optionalIfMatch(call, tableId);
        tables.clearOverride(account, catalog, tableId, expected);
        yield new AdminReply(204, null, null, Map.of());
      }
      case REVALIDATE_TABLE -> {
        tables.revalidate(account, catalog, tableId);
        yield view(account, catalog, tableId);
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
   * @throws IcegateException INVALID_ARGUMENT for a missing namespace, an empty segment, an empty
   *     name or a bad page parameter, NOT_FOUND for an unknown Catalog
   */
  private AdminReply find(AdminCall call, String account, String catalog) {
    List<String> namespace = UpstreamOperations.namespace(call.query().get("namespace"),
        "namespace", false).segments();
    String name = call.query().get("name");
    if (name != null && name.isEmpty()) {
      // `name=$T` with T unset: read as absent it listed the namespace, and a script taking
      // items[0] as the table it named acted on another one (tryout)
      throw IcegateException.invalidArgument(
          "query parameter name must not be empty; leave it out to list the namespace");
    }
    List<Map<String, Object>> items = new ArrayList<>();
    String next = null;
    if (name == null) {
      PageRequest page = AdminOperations.pageRequest(call);
      Page<TableState> found = tables.list(account, catalog, namespace, page);
      found.items().forEach(state -> items.add(describe(state)));
      next = found.nextPageToken();
    } else {
      tables.find(account, catalog, namespace, name).ifPresent(state -> items.add(describe(state)));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", items);
    out.put("nextPageToken", next);
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
    TableValidator.Result result = tables.revalidateIntegration(accountId, integrationId);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("validated", result.validated());
    out.put("failed", result.failed());
    out.put("warnings", result.warnings());
    return out;
  }

  /** The Table's view, with its capture, validation and visibility from one read. */
  private AdminReply view(String account, String catalog, String tableId) {
    TableState state = tables.get(account, catalog, tableId);
    return AdminReply.json(200, describe(state)).withHeader("ETag", state.table().etag());
  }

  /** The admin view of one Table's state. */
  private static Map<String, Object> describe(TableState state) {
    var table = state.table();
    Map<String, Object> out = AdminViews.of(table);
    out.put("capture", state.capture().map(c -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("captureGeneration", c.captureGeneration());
      view.put("capturedAt", c.capturedAt().toString());
      view.put("upstreamMetadataLocation", c.upstreamMetadataLocation());
      return view;
    }).orElse(null));
    Optional<ValidationStatus> validation = state.validation();
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
    out.put("visibilityOverride", state.override().map(o -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("setAt", o.setAt().toString());
      view.put("note", o.note());
      return view;
    }).orElse(null));
    // issue 21: a table whose upstream object a reconcile held keeps its older state; say why
    out.put("held", state.held().map(h -> {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("code", h.code());
      view.put("message", h.message());
      view.put("since", h.since().toString());
      return view;
    }).orElse(null));
    out.put("visible", state.visibility().visible());
    out.put("visibilityReason", VisibilityReason.of(state.visibility(), table));
    return out;
  }
}
