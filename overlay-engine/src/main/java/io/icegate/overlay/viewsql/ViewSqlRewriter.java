package io.icegate.overlay.viewsql;

import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamView;
import io.icegate.access.model.ViewSqlNames;
import io.icegate.overlay.viewsql.SqlName.Role;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Points the names in an upstream view's Spark SQL at what the Overlay materialized (issue 26):
 * each table or view name is resolved as the upstream resolves it ({@link ViewSqlNames}: Unity's
 * {@code catalog.schema.table}, {@code schema.table} relative to the view's catalog, or
 * {@code table} in the view's schema), looked up among the Overlay's objects ({@link
 * MaterializedNames}) and written as its destination path: the namespace segments and the name,
 * with no catalog, so it resolves in the catalog the client loads the view from. An unqualified
 * name keeps its form (the view's default namespace is its own namespace, mapped alike) and only
 * takes the materialized spelling. Column names qualified by a rewritten relation's full name
 * ({@code main.sales.orders.id}) are rewritten with it; CTE names and aliases never are.
 *
 * <p>All or nothing: when any name cannot be resolved to exactly one materialized object, the
 * SQL is kept as the upstream wrote it and every such name is reported. The result depends only
 * on the SQL, the naming rule and the materialized paths, so an unchanged upstream gives the same
 * text (and the same definition digest) on every run.
 */
public final class ViewSqlRewriter {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * The outcome for one SQL text.
   *
   * @param sql the text to publish: rewritten when every name resolved, else the upstream's
   * @param changed whether {@code sql} differs from the upstream's text
   * @param unresolved one message per name that could not be resolved, in text order; empty when
   *     every name resolved
   */
  public record Result(String sql, boolean changed, List<String> unresolved) {
    public Result {
      unresolved = List.copyOf(unresolved);
    }

    public boolean resolved() {
      return unresolved.isEmpty();
    }
  }

  private record Replacement(int start, int end, String text) {}

  private final ViewSqlNames names;
  private final MaterializedNames materialized;

  public ViewSqlRewriter(ViewSqlNames names, MaterializedNames materialized) {
    this.names = names;
    this.materialized = materialized;
  }

  /** The SQL of {@code view} with its names pointed at the materialized objects. */
  public Result rewrite(UpstreamView view, String sql) {
    RelationScanner.Result scan;
    try {
      scan = RelationScanner.scan(SparkSqlLexer.tokens(sql));
    } catch (IllegalArgumentException e) {
      return new Result(sql, false, List.of("the SQL does not read as Spark SQL: "
          + e.getMessage()));
    }
    List<String> unresolved = new ArrayList<>();
    List<Replacement> replacements = new ArrayList<>();
    // Folded parts of each resolved qualified relation -> its new text, for qualified columns.
    Map<List<String>, String> relationTexts = new HashMap<>();
    for (SqlName name : scan.names()) {
      if (name.role() == Role.COMPUTED_RELATION) {
        unresolved.add("IDENTIFIER(...) at offset " + name.start() + " computes a name when the "
            + "query runs, which cannot be pointed at a materialized object");
      } else if (name.role() == Role.RELATION) {
        List<String> values = name.values();
        if (values.size() == 1 && scan.cteNames().contains(RelationScanner.lower(values.get(0)))) {
          continue; // a common table expression, not a catalog object
        }
        String problem = resolve(view, name, sql, replacements, relationTexts);
        if (problem != null) {
          unresolved.add(problem);
        }
      }
    }
    if (!unresolved.isEmpty()) {
      return new Result(sql, false, unresolved);
    }
    for (SqlName name : scan.names()) {
      if (name.role() == Role.QUALIFIED_COLUMN) {
        qualifiedColumn(name, relationTexts, replacements);
      }
    }
    String out = apply(sql, replacements);
    return new Result(out, !out.equals(sql), List.of());
  }

  /** Resolves one relation name; answers why it cannot be, or {@code null}. */
  private String resolve(UpstreamView view, SqlName name, String sql,
      List<Replacement> replacements, Map<List<String>, String> relationTexts) {
    List<String> values = name.values();
    List<String> qualifier = values.subList(0, values.size() - 1);
    String display = name.display(sql);
    Optional<NamespacePath> namespace = names.namespace(view, qualifier);
    if (namespace.isEmpty()) {
      return display + " names a catalog or schema this Integration does not reach";
    }
    List<String> upstreamPath = new ArrayList<>(namespace.get().segments());
    upstreamPath.add(values.get(values.size() - 1));
    List<List<String>> found = materialized.find(upstreamPath);
    if (found.isEmpty()) {
      return display + " is not materialized by this Overlay (no table or view "
          + String.join(".", upstreamPath) + " in its selected namespaces)";
    }
    if (found.size() > 1) {
      return display + " is ambiguous: it matches " + found.stream()
          .map(p -> String.join(".", p)).toList() + ", which differ only in case";
    }
    List<String> target = found.get(0);
    String text = render(values.size() == 1 ? target.subList(target.size() - 1, target.size())
        : target, name.parts());
    replacements.add(new Replacement(name.start(), name.end(), text));
    if (values.size() > 1) {
      relationTexts.put(values.stream().map(RelationScanner::lower).toList(), text);
    }
    return null;
  }

  /**
   * {@code main.sales.orders.id}, {@code main.sales.orders.*}: the longest leading parts that
   * name a rewritten relation (all of them before {@code .*}).
   */
  private static void qualifiedColumn(SqlName name, Map<List<String>, String> relationTexts,
      List<Replacement> replacements) {
    List<String> folded = name.values().stream().map(RelationScanner::lower).toList();
    for (int k = folded.size(); k >= 2; k--) {
      String text = relationTexts.get(folded.subList(0, k));
      if (text != null) {
        replacements.add(new Replacement(name.start(), name.parts().get(k - 1).end(), text));
        return;
      }
    }
  }

  /**
   * The path as SQL: a segment is written bare when it is a plain identifier and the SQL wrote
   * the part it replaces bare (aligned from the name backwards), else backquoted.
   */
  private static String render(List<String> segments, List<SqlToken> original) {
    List<String> out = new ArrayList<>(segments.size());
    int offset = original.size() - segments.size();
    for (int i = 0; i < segments.size(); i++) {
      String s = segments.get(i);
      int o = i + offset;
      boolean wasBare = o < 0 || original.get(o).kind() == SqlToken.Kind.WORD;
      out.add(wasBare && PLAIN.matcher(s).matches() ? s : "`" + s.replace("`", "``") + "`");
    }
    return String.join(".", out);
  }

  private static String apply(String sql, List<Replacement> replacements) {
    List<Replacement> sorted = new ArrayList<>(replacements);
    sorted.sort(Comparator.comparingInt(Replacement::start).reversed());
    StringBuilder out = new StringBuilder(sql);
    for (Replacement r : sorted) {
      out.replace(r.start(), r.end(), r.text());
    }
    return out.toString();
  }
}
