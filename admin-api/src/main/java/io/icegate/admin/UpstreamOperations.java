package io.icegate.admin;

import io.icegate.access.client.CatalogCapabilities;
import io.icegate.access.client.CatalogCapability;
import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.model.CatalogObjectRef;
import io.icegate.access.model.NamespacePath;
import io.icegate.admin.model.AdminRequests;
import io.icegate.core.error.IcegateException;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.overlay.discovery.IntegrationDiscovery;
import io.icegate.overlay.validation.CheckResult;
import io.icegate.overlay.validation.IntegrationValidator;
import io.icegate.overlay.validation.SkippedTable;
import io.icegate.overlay.validation.ValidationReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * HTTP mapping of the routes that reach an Integration's upstream catalog: validate, capabilities,
 * namespace and object discovery. The logic lives in overlay-engine; this class only parses query
 * parameters and shapes bodies. Namespace paths in query parameters use the Iceberg separator
 * {@code %1F} (unit separator) between segments.
 */
public final class UpstreamOperations {
  /** Iceberg REST's namespace separator in query parameters (sent as {@code %1F}). */
  static final String SEPARATOR = "\u001f";

  private final IntegrationValidator validator;
  private final IntegrationDiscovery discovery;

  public UpstreamOperations(IntegrationValidator validator, IntegrationDiscovery discovery) {
    this.validator = Objects.requireNonNull(validator, "validator");
    this.discovery = Objects.requireNonNull(discovery, "discovery");
  }

  /** Answers one of the four upstream routes. */
  AdminReply handle(AdminCall call, PageRequest page) {
    String account = call.var("account");
    String id = call.var("integration");
    return switch (call.route()) {
      case VALIDATE_INTEGRATION -> AdminReply.json(200, validation(account, id, call.body()))
          .withHeader("Cache-Control", "no-store");
      case INTEGRATION_CAPABILITIES -> AdminReply.json(200,
          capabilities(discovery.capabilities(account, id)));
      case DISCOVER_NAMESPACES -> {
        Page<NamespacePath> found = discovery.namespaces(account, id,
            namespace(call.query().get("parent"), "parent", true), page);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("namespaces", found.items().stream().map(NamespacePath::segments).toList());
        out.put("nextPageToken", found.nextPageToken());
        yield AdminReply.json(200, out);
      }
      case DISCOVER_OBJECTS -> {
        Page<CatalogObjectRef> found = discovery.objects(account, id,
            namespace(call.query().get("namespace"), "namespace", false),
            kinds(call.query().get("kind")), page);
        List<Map<String, Object>> objects = new ArrayList<>();
        for (CatalogObjectRef ref : found.items()) {
          Map<String, Object> object = new LinkedHashMap<>();
          object.put("kind", ref.kind().name().toLowerCase(Locale.ROOT));
          object.put("namespace", ref.namespace().segments());
          object.put("name", ref.name());
          objects.add(object);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("objects", objects);
        out.put("nextPageToken", found.nextPageToken());
        yield AdminReply.json(200, out);
      }
      default -> throw new IllegalArgumentException("not an upstream route: " + call.route());
    };
  }

  /**
   * The answer of Integration validate: {@code ok}, one entry per check, the probed table and the
   * tables passed over before it.
   *
   * @param body empty, or {@code {"table": {"namespace": [..], "name": ".."}}} naming the table to
   *     probe
   * @throws IcegateException MALFORMED_REQUEST naming the member
   */
  Map<String, Object> validation(String account, String integrationId, byte[] body) {
    CatalogObjectRef table = body.length == 0 ? null
        : probeTable(AdminJson.read(body, AdminRequests.ValidateIntegration.class).table());
    return report(table == null ? validator.validate(account, integrationId)
        : validator.validate(account, integrationId, table));
  }

  /** The table a validate body names, or {@code null}; checked member by member. */
  private static CatalogObjectRef probeTable(AdminRequests.UpstreamTable table) {
    if (table == null) {
      return null;
    }
    List<String> namespace = AdminJson.require(table.namespace(), "table.namespace");
    if (namespace.isEmpty()) {
      throw AdminJson.malformed("member table.namespace must hold at least one segment");
    }
    for (int i = 0; i < namespace.size(); i++) {
      if (namespace.get(i) == null || namespace.get(i).isEmpty()) {
        throw AdminJson.malformed("member table.namespace[" + i + "] is an empty segment");
      }
    }
    String name = AdminJson.require(table.name(), "table.name");
    if (name.isEmpty()) {
      throw AdminJson.malformed("member table.name is empty");
    }
    return new CatalogObjectRef(CatalogObjectKind.TABLE, new NamespacePath(namespace), name);
  }

  private static Map<String, Object> report(ValidationReport report) {
    List<Map<String, Object>> checks = new ArrayList<>();
    for (CheckResult result : report.checks()) {
      Map<String, Object> check = new LinkedHashMap<>();
      check.put("check", result.check().wireName());
      check.put("status", result.status().wireName());
      check.put("code", result.code());
      check.put("message", result.message());
      checks.add(check);
    }
    List<Map<String, Object>> skipped = new ArrayList<>();
    for (SkippedTable table : report.skippedTables()) {
      Map<String, Object> entry = table(table.table());
      entry.put("code", table.code());
      entry.put("message", table.message());
      skipped.add(entry);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ok", report.ok());
    out.put("checks", checks);
    out.put("probedTable", report.probedTable() == null ? null : table(report.probedTable()));
    out.put("skippedTables", skipped);
    return out;
  }

  private static Map<String, Object> table(CatalogObjectRef table) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", table.namespace().segments());
    out.put("name", table.name());
    return out;
  }

  private static Map<String, Object> capabilities(CatalogCapabilities capabilities) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("capabilities", capabilities.capabilities().stream().map(CatalogCapability::name)
        .sorted().toList());
    out.put("supportsViews", capabilities.supportsViews());
    return out;
  }

  /**
   * A namespace path from a query parameter, segments separated by {@code %1F}.
   *
   * @param rootAllowed whether an absent or empty value means the root
   * @throws IcegateException INVALID_ARGUMENT naming the parameter
   */
  static NamespacePath namespace(String value, String parameter, boolean rootAllowed) {
    if (value == null || value.isEmpty()) {
      if (rootAllowed) {
        return NamespacePath.root();
      }
      throw IcegateException.invalidArgument("query parameter " + parameter + " is required");
    }
    List<String> segments = List.of(value.split(SEPARATOR, -1));
    if (segments.stream().anyMatch(String::isEmpty)) {
      throw IcegateException.invalidArgument("query parameter " + parameter
          + " has an empty namespace segment (segments are separated by %1F)");
    }
    return new NamespacePath(segments);
  }

  private static Set<CatalogObjectKind> kinds(String kind) {
    if (kind == null || kind.isEmpty()) {
      return Set.of();
    }
    return switch (kind) {
      case "table" -> Set.of(CatalogObjectKind.TABLE);
      case "view" -> Set.of(CatalogObjectKind.VIEW);
      default -> throw IcegateException.invalidArgument("kind must be table or view");
    };
  }
}
