package io.icegate.overlay.selection;

import io.icegate.access.model.NamespacePath;
import io.icegate.overlay.discovery.NamespaceOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which upstream namespaces a CatalogOverlay selects: its {@code include_namespaces} and
 * {@code exclude_namespaces} (seed 000 "Namespace selection"), as a pure function of a path.
 *
 * <p>The rules:
 *
 * <ul>
 *   <li>Paths run from the upstream catalog's root to a namespace and are compared segment by
 *       segment, case-sensitively, by exact code units (no case folding, no Unicode
 *       normalization). A segment is never split or joined: {@code ["a.b"]} is one namespace,
 *       {@code ["a", "b"]} another.
 *   <li>An empty include list selects the whole upstream tree.
 *   <li>An include selects that namespace and all its descendants.
 *   <li>An exclude removes that namespace and all its descendants, and spec 000: exclusion wins —
 *       also over an include that lies deeper, below the exclude.
 * </ul>
 *
 * <p>Both lists are normalized when the value is built: duplicates and paths already covered by a
 * shorter path of the same list are dropped, and the rest is sorted by {@link NamespaceOrder}. Two
 * selections that select the same way from the same input paths in any order or multiplicity are
 * therefore {@code equals}. Normalization never looks across the lists: an include below an
 * exclude is kept (it selects nothing, but it is what the user stored), so the stored selection
 * reads back as written, minus redundancy.
 *
 * @param includeNamespaces normalized includes; empty means the whole tree
 * @param excludeNamespaces normalized excludes
 */
public record NamespaceSelection(
    List<NamespacePath> includeNamespaces, List<NamespacePath> excludeNamespaces) {

  private static final String INCLUDE = "include_namespaces";
  private static final String EXCLUDE = "exclude_namespaces";

  /**
   * Normalizes both lists (see the class comment).
   *
   * @throws NullPointerException if a list or one of its paths is null
   * @throws IllegalArgumentException if a path is the root (empty); the message names the list and
   *     the position in it, e.g. {@code exclude_namespaces[2]}
   */
  public NamespaceSelection {
    includeNamespaces = normalize(INCLUDE, includeNamespaces);
    excludeNamespaces = normalize(EXCLUDE, excludeNamespaces);
  }

  /** Everything: no include, no exclude. */
  public static NamespaceSelection all() {
    return new NamespaceSelection(List.of(), List.of());
  }

  /**
   * A selection from paths as lists of segments, the shape the admin API receives.
   *
   * @param includeNamespaces paths to include, each root to leaf
   * @param excludeNamespaces paths to exclude, each root to leaf
   * @throws NullPointerException if a list, path or segment is null
   * @throws IllegalArgumentException if a path has no segment or a segment is empty; the message
   *     names the list and position, e.g. {@code include_namespaces[1][0] is an empty segment}
   */
  public static NamespaceSelection of(
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {
    return new NamespaceSelection(
        paths(INCLUDE, includeNamespaces), paths(EXCLUDE, excludeNamespaces));
  }

  /**
   * Whether {@code namespace} is selected: not at or below any exclude, and at or below an include
   * (or the include list is empty). Spec 000: exclusion wins.
   *
   * @param namespace an upstream namespace; the root is not a namespace and is never selected
   */
  public boolean selects(NamespacePath namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isRoot() || excluded(namespace)) {
      return false;
    }
    return includeNamespaces.isEmpty() || coveredBy(includeNamespaces, namespace);
  }

  /**
   * Whether descending from {@code namespace} can reach a selected namespace, itself included:
   * the pruning test for discovery. False only when no namespace at or below it can be selected,
   * whatever the upstream tree holds, so discovery may skip the subtree without missing anything.
   *
   * <p>True when the namespace is not excluded (spec 000: exclusion wins, so nothing below an
   * exclude is ever selected) and either the include list is empty, an include covers it, or an
   * include lies below it and is not itself excluded. The answer is exact over all possible
   * trees: when it is true, some namespace at or below this one would be selected if it existed.
   *
   * @param namespace an upstream namespace, or the root
   */
  public boolean mayContainSelected(NamespacePath namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (excluded(namespace)) {
      return false;
    }
    if (includeNamespaces.isEmpty()) {
      return true;
    }
    for (NamespacePath include : includeNamespaces) {
      if (include.contains(namespace)) {
        return true;
      }
      // An include under an exclude selects nothing, so it is no reason to descend.
      if (namespace.contains(include) && !excluded(include)) {
        return true;
      }
    }
    return false;
  }

  private boolean excluded(NamespacePath namespace) {
    return coveredBy(excludeNamespaces, namespace);
  }

  private static boolean coveredBy(List<NamespacePath> paths, NamespacePath namespace) {
    for (NamespacePath path : paths) {
      if (path.contains(namespace)) {
        return true;
      }
    }
    return false;
  }

  private static List<NamespacePath> normalize(String list, List<NamespacePath> paths) {
    Objects.requireNonNull(paths, list);
    List<NamespacePath> sorted = new ArrayList<>(paths.size());
    for (int i = 0; i < paths.size(); i++) {
      NamespacePath path = Objects.requireNonNull(paths.get(i), list + "[" + i + "] is null");
      if (path.isRoot()) {
        throw new IllegalArgumentException(
            list + "[" + i + "] is an empty path; name at least one segment");
      }
      sorted.add(path);
    }
    sorted.sort(NamespaceOrder.INSTANCE);
    // In this order a path comes right before everything below it, so comparing each path with the
    // last one kept is enough to drop duplicates and covered descendants.
    List<NamespacePath> kept = new ArrayList<>(sorted.size());
    NamespacePath last = null;
    for (NamespacePath path : sorted) {
      if (last == null || !last.contains(path)) {
        kept.add(path);
        last = path;
      }
    }
    return List.copyOf(kept);
  }

  private static List<NamespacePath> paths(String list, List<List<String>> raw) {
    Objects.requireNonNull(raw, list);
    List<NamespacePath> paths = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      List<String> segments = Objects.requireNonNull(raw.get(i), list + "[" + i + "] is null");
      if (segments.isEmpty()) {
        throw new IllegalArgumentException(
            list + "[" + i + "] is an empty path; name at least one segment");
      }
      for (int j = 0; j < segments.size(); j++) {
        String segment = segments.get(j);
        Objects.requireNonNull(segment, list + "[" + i + "][" + j + "] is null");
        if (segment.isEmpty()) {
          throw new IllegalArgumentException(list + "[" + i + "][" + j + "] is an empty segment");
        }
      }
      paths.add(new NamespacePath(segments));
    }
    return paths;
  }
}
