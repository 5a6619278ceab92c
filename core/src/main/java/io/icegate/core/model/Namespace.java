package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Map;

/**
 * A namespace of a catalog: a multi-level path, matched case-sensitively, whose segment boundaries
 * are kept (["a.b"] and ["a", "b"] are different namespaces). The last segment is the display name,
 * unique among the children of the parent path.
 *
 * @param catalogId id of the catalog holding the namespace
 * @param path segments from the catalog root to this namespace; at least one
 * @param properties opaque Iceberg namespace properties; never {@code null}
 */
public record Namespace(String catalogId, List<String> path, Map<String, String> properties)
    implements ResourceSpec {

  public Namespace {
    Names.requireId(catalogId, "catalogId");
    path = Names.requirePath(path, false);
    properties = Names.copyProperties(properties);
  }

  /** The parent path; empty for a top-level namespace. */
  public List<String> parent() {
    return path.subList(0, path.size() - 1);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.NAMESPACE;
  }

  @Override
  public NameScope nameScope() {
    return NameScope.inCatalog(catalogId, parent());
  }

  @Override
  public String displayName() {
    return path.get(path.size() - 1);
  }

  @Override
  public Namespace withName(NameScope scope, String displayName) {
    if (!(scope instanceof NameScope.InCatalog in) || !in.catalogId().equals(catalogId)) {
      throw IcegateException.invalidArgument("a namespace moves only within its catalog");
    }
    List<String> moved = new java.util.ArrayList<>(in.path());
    moved.add(displayName);
    return new Namespace(catalogId, moved, properties);
  }

  /** A copy with other properties. */
  public Namespace withProperties(Map<String, String> newProperties) {
    return new Namespace(catalogId, path, newProperties);
  }
}
