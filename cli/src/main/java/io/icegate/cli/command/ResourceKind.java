package io.icegate.cli.command;

import java.util.List;

/**
 * A named admin resource type: its collection under the account, the member holding its display
 * name, and the columns of its table. Overlays and Integrations end with {@code DELETING}: true for
 * one whose delete or cascade stopped half-way (a deletion fence is set; repeat the delete).
 */
public enum ResourceKind {
  ACCOUNT("account", "accounts", "name",
      List.of(Column.of("ID", "/id"), Column.of("NAME", "/name"),
          Column.of("CREATED", "/createdAt"))),
  CATALOG("catalog", "catalogs", "name",
      List.of(Column.of("ID", "/id"), Column.of("NAME", "/name"),
          Column.of("WAREHOUSE", "/warehouse"), Column.of("GENERATION", "/generation"))),
  INTEGRATION("integration", "integrations", "displayName",
      List.of(Column.of("ID", "/id"), Column.of("NAME", "/displayName"),
          Column.of("TYPE", "/type"), Column.of("URI", "/uri"),
          Column.of("AUTH", "/authentication/type"),
          Column.of("CREDENTIALS", "/credentialsConfigured"),
          Column.of("GENERATION", "/generation"), Column.of("DELETING", "/deleting"))),
  OVERLAY("overlay", "overlays", "displayName",
      List.of(Column.of("ID", "/id"), Column.of("NAME", "/displayName"),
          Column.of("INTEGRATION", "/integrationId"), Column.of("CATALOG", "/catalogId"),
          Column.paths("INCLUDE", "/includeNamespaces"),
          Column.paths("EXCLUDE", "/excludeNamespaces"),
          new Column("REFRESH", "/refreshInterval", Rendering.REFRESH_INTERVAL),
          Column.of("PAUSED", "/paused"), Column.of("GENERATION", "/generation"),
          Column.of("DELETING", "/deleting"))),
  TOKEN("token", "tokens", "name",
      List.of(Column.of("ID", "/id"), Column.of("NAME", "/name"), Column.of("ROLE", "/role"),
          Column.of("SERVER-ADMIN", "/serverAdmin"), Column.of("CREATED", "/createdAt"),
          Column.of("LAST-USED", "/lastUsedAt"), Column.of("EXPIRES", "/expiresAt")));

  /** How a column's value is printed. */
  public enum Rendering {
    /** As the server gave it ({@code -} when absent). */
    TEXT,
    /** A list of namespace paths, in the CLI's path syntax, comma-separated. */
    NAMESPACE_PATHS,
    /** An ISO-8601 refresh interval, short ({@code 5m}); {@code manual} when absent. */
    REFRESH_INTERVAL
  }

  /** A table column: header, the JSON pointer of its value in a resource body, its rendering. */
  public record Column(String header, String pointer, Rendering rendering) {
    static Column of(String header, String pointer) {
      return new Column(header, pointer, Rendering.TEXT);
    }

    static Column paths(String header, String pointer) {
      return new Column(header, pointer, Rendering.NAMESPACE_PATHS);
    }
  }

  private final String noun;
  private final String collection;
  private final String nameMember;
  private final List<Column> columns;

  ResourceKind(String noun, String collection, String nameMember, List<Column> columns) {
    this.noun = noun;
    this.collection = collection;
    this.nameMember = nameMember;
    this.columns = columns;
  }

  /** The word used in messages: {@code integration}. */
  public String noun() {
    return noun;
  }

  /** The path segment of the collection: {@code integrations}. */
  public String collection() {
    return collection;
  }

  /** The body member that names a resource: {@code name} or {@code displayName}. */
  public String nameMember() {
    return nameMember;
  }

  public List<Column> columns() {
    return columns;
  }
}
