package io.icegate.overlay.viewsql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The upstream paths of the tables and views an Overlay materializes, found by the names a view's
 * SQL uses. Spark and Unity compare identifiers case-insensitively (backquotes only let other
 * characters in), while materialized paths are exact; so a name is looked up without regard to
 * case and answers every exact path that matches, and more than one answer means ambiguous.
 */
public final class MaterializedNames {
  private final Map<String, Set<List<String>>> byFoldedPath = new HashMap<>();

  /**
   * @param paths each object's namespace segments followed by its name (upstream path and
   *     destination path alike: an Overlay maps a namespace to the same path)
   */
  public MaterializedNames(Collection<List<String>> paths) {
    for (List<String> path : paths) {
      byFoldedPath.computeIfAbsent(fold(path), k -> new TreeSet<>(MaterializedNames::compare))
          .add(List.copyOf(path));
    }
  }

  /** Every materialized path whose segments and name equal {@code path}'s, ignoring case. */
  List<List<String>> find(List<String> path) {
    return new ArrayList<>(byFoldedPath.getOrDefault(fold(path), Set.of()));
  }

  private static String fold(List<String> path) {
    return String.join("\u001f", path.stream().map(RelationScanner::lower).toList());
  }

  private static int compare(List<String> a, List<String> b) {
    return String.join("\u001f", a).compareTo(String.join("\u001f", b));
  }
}
