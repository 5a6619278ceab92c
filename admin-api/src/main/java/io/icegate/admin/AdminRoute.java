package io.icegate.admin;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every admin route: method, path template (as in {@code openapi.yaml}) and who may call it. The
 * table is the single source the servlet dispatches from and the OpenAPI test compares against.
 */
public enum AdminRoute {
  OPENAPI("GET", "/admin/v1/openapi.yaml", Access.PUBLIC),
  WHO_AM_I("GET", "/admin/v1/token", Access.READ),
  CREATE_ACCOUNT("POST", "/admin/v1/accounts", Access.SERVER_ADMIN),
  LIST_ACCOUNTS("GET", "/admin/v1/accounts", Access.SERVER_ADMIN),
  GET_ACCOUNT("GET", "/admin/v1/accounts/{account}", Access.READ),
  DELETE_ACCOUNT("DELETE", "/admin/v1/accounts/{account}", Access.SERVER_ADMIN),
  ISSUE_TOKEN("POST", "/admin/v1/accounts/{account}/tokens", Access.ADMIN),
  LIST_TOKENS("GET", "/admin/v1/accounts/{account}/tokens", Access.ADMIN),
  REVOKE_TOKEN("DELETE", "/admin/v1/accounts/{account}/tokens/{token}", Access.ADMIN),
  CREATE_CATALOG("POST", "/admin/v1/accounts/{account}/catalogs", Access.ADMIN),
  LIST_CATALOGS("GET", "/admin/v1/accounts/{account}/catalogs", Access.READ),
  GET_CATALOG("GET", "/admin/v1/accounts/{account}/catalogs/{catalog}", Access.READ),
  PATCH_CATALOG("PATCH", "/admin/v1/accounts/{account}/catalogs/{catalog}", Access.ADMIN),
  DELETE_CATALOG("DELETE", "/admin/v1/accounts/{account}/catalogs/{catalog}", Access.ADMIN),
  FIND_TABLES("GET", "/admin/v1/accounts/{account}/catalogs/{catalog}/tables", Access.READ),
  GET_TABLE("GET", "/admin/v1/accounts/{account}/catalogs/{catalog}/tables/{table}", Access.READ),
  TABLE_VALIDATION_ERRORS("GET",
      "/admin/v1/accounts/{account}/catalogs/{catalog}/tables/{table}/validation-errors",
      Access.READ),
  PUT_VISIBILITY_OVERRIDE("PUT",
      "/admin/v1/accounts/{account}/catalogs/{catalog}/tables/{table}/visibility-override",
      Access.ADMIN),
  DELETE_VISIBILITY_OVERRIDE("DELETE",
      "/admin/v1/accounts/{account}/catalogs/{catalog}/tables/{table}/visibility-override",
      Access.ADMIN),
  REVALIDATE_TABLE("POST",
      "/admin/v1/accounts/{account}/catalogs/{catalog}/tables/{table}/revalidate", Access.ADMIN),
  CREATE_INTEGRATION("POST", "/admin/v1/accounts/{account}/integrations", Access.ADMIN),
  LIST_INTEGRATIONS("GET", "/admin/v1/accounts/{account}/integrations", Access.READ),
  GET_INTEGRATION("GET", "/admin/v1/accounts/{account}/integrations/{integration}", Access.READ),
  PATCH_INTEGRATION("PATCH", "/admin/v1/accounts/{account}/integrations/{integration}",
      Access.ADMIN),
  DELETE_INTEGRATION("DELETE", "/admin/v1/accounts/{account}/integrations/{integration}",
      Access.ADMIN),
  PUT_AUTHENTICATION("PUT",
      "/admin/v1/accounts/{account}/integrations/{integration}/authentication", Access.ADMIN),
  VALIDATE_INTEGRATION("POST",
      "/admin/v1/accounts/{account}/integrations/{integration}/validate", Access.ADMIN),
  INTEGRATION_CAPABILITIES("GET",
      "/admin/v1/accounts/{account}/integrations/{integration}/capabilities", Access.READ),
  DISCOVER_NAMESPACES("GET",
      "/admin/v1/accounts/{account}/integrations/{integration}/namespaces", Access.READ),
  DISCOVER_OBJECTS("GET",
      "/admin/v1/accounts/{account}/integrations/{integration}/objects", Access.READ),
  CREATE_OVERLAY("POST", "/admin/v1/accounts/{account}/overlays", Access.ADMIN),
  LIST_OVERLAYS("GET", "/admin/v1/accounts/{account}/overlays", Access.READ),
  GET_OVERLAY("GET", "/admin/v1/accounts/{account}/overlays/{overlay}", Access.READ),
  PATCH_OVERLAY("PATCH", "/admin/v1/accounts/{account}/overlays/{overlay}", Access.ADMIN),
  DELETE_OVERLAY("DELETE", "/admin/v1/accounts/{account}/overlays/{overlay}", Access.ADMIN),
  RECONCILE_OVERLAY("POST", "/admin/v1/accounts/{account}/overlays/{overlay}/reconcile",
      Access.ADMIN),
  CAPTURE_OVERLAY("POST", "/admin/v1/accounts/{account}/overlays/{overlay}/capture",
      Access.ADMIN),
  GET_OPERATION("GET", "/admin/v1/accounts/{account}/operations/{operation}", Access.READ),
  OVERLAY_SCHEDULE("GET", "/admin/v1/accounts/{account}/overlays/{overlay}/schedule",
      Access.READ),
  INTEGRATION_SCHEDULE("GET",
      "/admin/v1/accounts/{account}/integrations/{integration}/schedule", Access.READ);

  /** Who may call a route. */
  public enum Access {
    /** Anyone, without a token. */
    PUBLIC,
    /** Server-admin tokens only (the bootstrap token). */
    SERVER_ADMIN,
    /** Any role in the path's account (server admins in every account). */
    READ,
    /** Admin role in the path's account (server admins in every account). */
    ADMIN
  }

  private final String method;
  private final String template;
  private final Access access;
  private final List<String> segments;

  AdminRoute(String method, String template, Access access) {
    this.method = method;
    this.template = template;
    this.access = access;
    this.segments = List.of(template.substring(1).split("/"));
  }

  public String method() {
    return method;
  }

  public String template() {
    return template;
  }

  public Access access() {
    return access;
  }

  /**
   * This route's path with {@code values} in place of its template's variables, in order (ids
   * only: values are not escaped).
   */
  public String path(String... values) {
    StringBuilder path = new StringBuilder();
    int next = 0;
    for (String segment : segments) {
      path.append('/').append(segment.startsWith("{") ? values[next++] : segment);
    }
    if (next != values.length) {
      throw new IllegalArgumentException(template + " takes " + next + " values");
    }
    return path.toString();
  }

  /** The path variables when {@code path} fits this route's template. */
  public Optional<Map<String, String>> match(List<String> path) {
    if (path.size() != segments.size()) {
      return Optional.empty();
    }
    Map<String, String> variables = new java.util.HashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String expected = segments.get(i);
      if (expected.startsWith("{")) {
        if (path.get(i).isEmpty()) {
          return Optional.empty();
        }
        variables.put(expected.substring(1, expected.length() - 1), path.get(i));
      } else if (!expected.equals(path.get(i))) {
        return Optional.empty();
      }
    }
    return Optional.of(variables);
  }
}
