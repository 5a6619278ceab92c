package io.icegate.access.model;

import java.util.Objects;

/**
 * One SQL text of a view.
 *
 * @param dialect the engine dialect, as the upstream names it ({@code spark}, {@code trino})
 * @param sql the view's query text in that dialect
 */
public record ViewRepresentation(String dialect, String sql) {

  public ViewRepresentation {
    Objects.requireNonNull(dialect, "dialect");
    Objects.requireNonNull(sql, "sql");
  }
}
