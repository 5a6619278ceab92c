package io.icegate.overlay.viewsql;

import java.util.List;

/**
 * A dotted identifier chain in the SQL text ({@code main.sales.orders}, {@code `a b`.c}).
 *
 * @param parts the identifier tokens, in order (never the dots)
 * @param role what the chain stands for where it is
 */
record SqlName(List<SqlToken> parts, Role role) {

  enum Role {
    /** A table or view in a FROM clause, a JOIN, or after TABLE. */
    RELATION,
    /** A name outside relation positions: a column, possibly qualified by a relation's name. */
    QUALIFIED_COLUMN,
    /** {@code IDENTIFIER(...)} in a relation position: a name computed when the query runs. */
    COMPUTED_RELATION
  }

  SqlName {
    parts = List.copyOf(parts);
  }

  int start() {
    return parts.get(0).start();
  }

  int end() {
    return parts.get(parts.size() - 1).end();
  }

  /** The unquoted values of the parts. */
  List<String> values() {
    return parts.stream().map(SqlToken::value).toList();
  }

  /** The name as the SQL writes its parts, joined with dots (for messages). */
  String display(String sql) {
    return String.join(".", parts.stream().map(p -> sql.substring(p.start(), p.end())).toList());
  }
}
