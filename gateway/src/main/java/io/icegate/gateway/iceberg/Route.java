package io.icegate.gateway.iceberg;

import java.util.List;
import org.apache.iceberg.rest.Endpoint;

/**
 * Every Iceberg REST route the gateway serves, as iceberg-core 1.10.1 names them ({@link Endpoint}
 * constants), plus the three routes outside a catalog prefix. The path templates are relative to
 * {@code /iceberg}.
 */
public enum Route {
  CONFIG("GET", "/v1/config", Access.ANY_ROLE),
  OAUTH_TOKENS("POST", "/v1/oauth/tokens", Access.PUBLIC),
  LIST_NAMESPACES(Endpoint.V1_LIST_NAMESPACES, Access.READ),
  CREATE_NAMESPACE(Endpoint.V1_CREATE_NAMESPACE, Access.WRITE),
  LOAD_NAMESPACE(Endpoint.V1_LOAD_NAMESPACE, Access.READ),
  NAMESPACE_EXISTS(Endpoint.V1_NAMESPACE_EXISTS, Access.READ),
  DROP_NAMESPACE(Endpoint.V1_DELETE_NAMESPACE, Access.WRITE),
  UPDATE_NAMESPACE(Endpoint.V1_UPDATE_NAMESPACE, Access.WRITE),
  LIST_TABLES(Endpoint.V1_LIST_TABLES, Access.READ),
  CREATE_TABLE(Endpoint.V1_CREATE_TABLE, Access.WRITE),
  LOAD_TABLE(Endpoint.V1_LOAD_TABLE, Access.READ),
  TABLE_EXISTS(Endpoint.V1_TABLE_EXISTS, Access.READ),
  UPDATE_TABLE(Endpoint.V1_UPDATE_TABLE, Access.WRITE),
  DROP_TABLE(Endpoint.V1_DELETE_TABLE, Access.WRITE),
  RENAME_TABLE(Endpoint.V1_RENAME_TABLE, Access.WRITE),
  REGISTER_TABLE(Endpoint.V1_REGISTER_TABLE, Access.WRITE),
  REPORT_METRICS(Endpoint.V1_REPORT_METRICS, Access.READ),
  LOAD_CREDENTIALS(Endpoint.V1_TABLE_CREDENTIALS, Access.READ),
  COMMIT_TRANSACTION(Endpoint.V1_COMMIT_TRANSACTION, Access.WRITE),
  LIST_VIEWS(Endpoint.V1_LIST_VIEWS, Access.READ),
  CREATE_VIEW(Endpoint.V1_CREATE_VIEW, Access.WRITE),
  LOAD_VIEW(Endpoint.V1_LOAD_VIEW, Access.READ),
  VIEW_EXISTS(Endpoint.V1_VIEW_EXISTS, Access.READ),
  UPDATE_VIEW(Endpoint.V1_UPDATE_VIEW, Access.WRITE),
  DROP_VIEW(Endpoint.V1_DELETE_VIEW, Access.WRITE),
  RENAME_VIEW(Endpoint.V1_RENAME_VIEW, Access.WRITE);

  /** Who may call a route: nobody checked, any valid token, or a token of at least that role. */
  public enum Access {
    PUBLIC,
    ANY_ROLE,
    READ,
    WRITE
  }

  private final String method;
  private final String template;
  private final List<String> segments;
  private final Access access;

  Route(Endpoint endpoint, Access access) {
    this(endpoint.httpMethod(), endpoint.path(), access);
  }

  Route(String method, String template, Access access) {
    this.method = method;
    this.template = template;
    this.segments = List.of(template.substring(1).split("/"));
    this.access = access;
  }

  public String method() {
    return method;
  }

  /** The path template, e.g. {@code /v1/{prefix}/namespaces/{namespace}}; the metrics label. */
  public String template() {
    return template;
  }

  List<String> segments() {
    return segments;
  }

  public Access access() {
    return access;
  }

  /** Whether the route changes state, so that it takes an {@code Idempotency-Key}. */
  public boolean mutates() {
    return access == Access.WRITE;
  }

  /** The endpoint as advertised in the config response, or null for routes outside a prefix. */
  public Endpoint endpoint() {
    return template.contains("{prefix}") ? Endpoint.create(method, template) : null;
  }
}
