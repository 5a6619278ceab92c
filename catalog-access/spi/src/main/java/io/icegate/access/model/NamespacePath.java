package io.icegate.access.model;

import java.util.List;
import java.util.Objects;

/**
 * A hierarchical upstream namespace as its segments, case preserved and never split or joined on a
 * separator (a segment may contain dots). The root is the empty path.
 *
 * @param segments namespace levels from the top; none null or empty
 */
public record NamespacePath(List<String> segments) {

  public NamespacePath {
    segments = List.copyOf(Objects.requireNonNull(segments, "segments"));
    for (String segment : segments) {
      if (segment.isEmpty()) {
        throw new IllegalArgumentException("namespace segment must not be empty");
      }
    }
  }

  /** The root, parent of top-level namespaces. */
  public static NamespacePath root() {
    return new NamespacePath(List.of());
  }

  public static NamespacePath of(String... segments) {
    return new NamespacePath(List.of(segments));
  }

  public boolean isRoot() {
    return segments.isEmpty();
  }

  public int depth() {
    return segments.size();
  }

  /** The path one level down. */
  public NamespacePath child(String segment) {
    List<String> more = new java.util.ArrayList<>(segments);
    more.add(segment);
    return new NamespacePath(more);
  }

  /**
   * The enclosing namespace.
   *
   * @throws IllegalStateException on the root
   */
  public NamespacePath parent() {
    if (isRoot()) {
      throw new IllegalStateException("the root namespace has no parent");
    }
    return new NamespacePath(segments.subList(0, segments.size() - 1));
  }

  /** Whether {@code other} equals this path or lies below it. */
  public boolean contains(NamespacePath other) {
    return other.segments.size() >= segments.size()
        && other.segments.subList(0, segments.size()).equals(segments);
  }

  @Override
  public String toString() {
    return segments.toString();
  }
}
