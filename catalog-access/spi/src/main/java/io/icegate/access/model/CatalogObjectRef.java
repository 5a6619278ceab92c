package io.icegate.access.model;

import java.util.Objects;

/**
 * A table or view found by a lightweight listing: its kind and name only, no metadata loaded.
 *
 * @param kind table or view
 * @param namespace the namespace that holds it
 * @param name its name in that namespace, case preserved
 */
public record CatalogObjectRef(CatalogObjectKind kind, NamespacePath namespace, String name) {

  public CatalogObjectRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("object name must not be empty");
    }
  }
}
