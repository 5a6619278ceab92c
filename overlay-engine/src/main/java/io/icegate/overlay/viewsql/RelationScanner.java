package io.icegate.overlay.viewsql;

import io.icegate.overlay.viewsql.SqlName.Role;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds the names in a Spark SQL query that stand for tables and views, over its tokens
 * ({@link SparkSqlLexer}), without a full grammar. The rules:
 * <ul>
 *   <li>A relation position is the start of a FROM clause, the place after JOIN (any join kind),
 *       after a comma in a FROM clause (the FROM list, also after a join's ON condition), and
 *       after TABLE; LATERAL there is skipped. An identifier chain there ({@code a.b.c}, parts
 *       bare or backquoted, dots between) is a relation, unless a parenthesis follows (a
 *       table-valued function; {@code IDENTIFIER(...)} is a computed name). A parenthesis there
 *       opens a subquery or a parenthesized join, whose first name is again a relation.</li>
 *   <li>A FROM clause ends at WHERE, GROUP, HAVING, ORDER, LIMIT, OFFSET, the set operators,
 *       WINDOW, QUALIFY, CLUSTER, DISTRIBUTE, SORT, PIVOT, UNPIVOT, LATERAL VIEW, SELECT, or the
 *       parenthesis that closes its query.</li>
 *   <li>FROM inside a function call's parentheses ({@code extract(year FROM ts)},
 *       {@code trim(BOTH FROM s)}) is an argument, not a clause: a parenthesis right after an
 *       identifier that is not a keyword opening a subquery (IN, EXISTS, AS, ...) opens a call.</li>
 *   <li>WITH names common table expressions: the identifier after WITH (RECURSIVE) and after
 *       each comma between them. They are collected for the whole query, whatever their scope.</li>
 *   <li>Every other chain of two or more parts is recorded as a possibly qualified column
 *       ({@code o.id}, {@code main.sales.orders.id}, {@code s.*}'s {@code s} when qualified).</li>
 * </ul>
 */
final class RelationScanner {

  /** Words that, right before a parenthesis, open a subquery or a group rather than a call. */
  private static final Set<String> NOT_CALLS = Set.of("IN", "EXISTS", "AS", "FROM", "JOIN", "ON",
      "AND", "OR", "NOT", "WHERE", "HAVING", "SELECT", "UNION", "INTERSECT", "EXCEPT", "MINUS",
      "ALL", "DISTINCT", "ANY", "SOME", "VALUES", "LATERAL", "USING", "WITH", "RECURSIVE",
      "TABLE", "BY", "WHEN", "THEN", "ELSE", "CASE", "IS", "LIKE", "ILIKE", "RLIKE", "BETWEEN",
      "RETURN");

  /** Words that end a FROM clause at their level. */
  private static final Set<String> FROM_ENDS = Set.of("WHERE", "GROUP", "HAVING", "ORDER",
      "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "MINUS", "WINDOW", "QUALIFY", "CLUSTER",
      "DISTRIBUTE", "SORT", "PIVOT", "UNPIVOT", "LATERAL");

  /** Words that start a query where a relation could stand (then they are not a name). */
  private static final Set<String> QUERY_STARTS = Set.of("SELECT", "WITH", "VALUES", "FROM",
      "TABLE");

  /**
   * What the scan found.
   *
   * @param names relations, computed relations and qualified column chains, in text order
   * @param cteNames names of common table expressions, lower case
   */
  record Result(List<SqlName> names, Set<String> cteNames) {}

  /** One level of parentheses (the top level is one too). */
  private static final class Level {
    boolean call;
    boolean inFrom;
    boolean inWith;

    Level(boolean call, boolean inFrom) {
      this.call = call;
      this.inFrom = inFrom;
    }
  }

  private final List<SqlToken> tokens;
  private final List<SqlName> names = new ArrayList<>();
  private final Set<String> cteNames = new HashSet<>();
  private final Deque<Level> levels = new ArrayDeque<>();
  private boolean expectRelation;
  private boolean expectCteName;

  private RelationScanner(List<SqlToken> tokens) {
    this.tokens = tokens;
    levels.push(new Level(false, false));
  }

  static Result scan(List<SqlToken> tokens) {
    RelationScanner scanner = new RelationScanner(tokens);
    scanner.run();
    return new Result(List.copyOf(scanner.names), Set.copyOf(scanner.cteNames));
  }

  private void run() {
    int i = 0;
    while (i < tokens.size()) {
      i = step(i);
    }
  }

  /** Handles the token at {@code i}; answers the index of the next one to handle. */
  private int step(int i) {
    SqlToken token = tokens.get(i);
    if (expectCteName) {
      if (token.isWord("RECURSIVE")) {
        return i + 1;
      }
      expectCteName = false;
      if (token.isIdentifier()) {
        cteNames.add(lower(token.value()));
        return i + 1;
      }
    }
    if (expectRelation) {
      if (token.isWord("LATERAL")) {
        return i + 1;
      }
      if (token.isSymbol('(')) {
        levels.push(new Level(false, true)); // a subquery, or a parenthesized join
        return i + 1;
      }
      expectRelation = false;
      if (token.isIdentifier() && !isQueryStart(token)) {
        return relation(i);
      }
    }
    Level level = levels.peek();
    if (token.kind() == SqlToken.Kind.WORD && keyword(token, level, i)) {
      return i + 1;
    }
    if (token.isIdentifier()) {
      int end = chainEnd(i);
      List<SqlToken> parts = parts(i, end);
      boolean call = end < tokens.size() && tokens.get(end).isSymbol('(');
      if (parts.size() > 1 && !call) {
        names.add(new SqlName(parts, Role.QUALIFIED_COLUMN));
      }
      return end;
    }
    if (token.isSymbol('(')) {
      SqlToken before = i > 0 ? tokens.get(i - 1) : null;
      boolean call = before != null && before.isIdentifier()
          && !(before.kind() == SqlToken.Kind.WORD && NOT_CALLS.contains(upper(before.value())));
      levels.push(new Level(call, false));
    } else if (token.isSymbol(')')) {
      if (levels.size() > 1) {
        levels.pop();
      }
    } else if (token.isSymbol(',')) {
      if (level.inFrom) {
        expectRelation = true;
      } else if (level.inWith) {
        expectCteName = true;
      }
    }
    return i + 1;
  }

  /** Handles a clause keyword; false when the word is not one (an identifier, a function). */
  private boolean keyword(SqlToken token, Level level, int i) {
    String word = upper(token.value());
    switch (word) {
      case "SELECT":
        level.call = false; // a subquery inside parentheses that looked like a call
        level.inFrom = false;
        level.inWith = false;
        return true;
      case "FROM":
        if (level.call) {
          return true; // extract(year FROM ts): an argument
        }
        level.inFrom = true;
        level.inWith = false;
        expectRelation = true;
        return true;
      case "JOIN":
        level.inFrom = true;
        expectRelation = true;
        return true;
      case "TABLE":
        level.inWith = false;
        expectRelation = true;
        return true;
      case "WITH":
        level.inWith = true;
        expectCteName = true;
        return true;
      default:
        if (FROM_ENDS.contains(word) && !(word.equals("LATERAL") && !nextIs(i, "VIEW"))) {
          level.inFrom = false;
          return true;
        }
        return false;
    }
  }

  /** A relation chain starting at {@code i}; answers the index after it. */
  private int relation(int i) {
    int end = chainEnd(i);
    List<SqlToken> parts = parts(i, end);
    if (end < tokens.size() && tokens.get(end).isSymbol('(')) {
      if (parts.size() == 1 && parts.get(0).isWord("IDENTIFIER")) {
        names.add(new SqlName(parts, Role.COMPUTED_RELATION));
      }
      return end; // a table-valued function: its parenthesis opens a call
    }
    names.add(new SqlName(parts, Role.RELATION));
    return end;
  }

  /** The index after the identifier chain starting at {@code i}. */
  private int chainEnd(int i) {
    int end = i + 1;
    while (end + 1 < tokens.size() && tokens.get(end).isSymbol('.')
        && tokens.get(end + 1).isIdentifier()) {
      end += 2;
    }
    return end;
  }

  private List<SqlToken> parts(int from, int end) {
    List<SqlToken> parts = new ArrayList<>();
    for (int k = from; k < end; k += 2) {
      parts.add(tokens.get(k));
    }
    return parts;
  }

  private boolean nextIs(int i, String word) {
    return i + 1 < tokens.size() && tokens.get(i + 1).isWord(word);
  }

  private static boolean isQueryStart(SqlToken token) {
    return token.kind() == SqlToken.Kind.WORD && QUERY_STARTS.contains(upper(token.value()));
  }

  private static String upper(String s) {
    return s.toUpperCase(Locale.ROOT);
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
