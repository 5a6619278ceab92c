package io.icegate.core.model;

/**
 * The kinds of resource icegate stores. The {@link #tag()} is the kind's element in every key
 * ({@link io.icegate.core.store.KeyLayout}): tags are never reused or renumbered.
 */
public enum ResourceKind {
  ACCOUNT(1, "account"),
  CATALOG(2, "catalog"),
  NAMESPACE(3, "namespace"),
  TABLE(4, "table"),
  VIEW(5, "view"),
  INTEGRATION(6, "integration"),
  OVERLAY(7, "overlay");

  private final int tag;
  private final String label;

  ResourceKind(int tag, String label) {
    this.tag = tag;
    this.label = label;
  }

  /** The key element of this kind. */
  public int tag() {
    return tag;
  }

  /** Lower-case name for messages and JSON, e.g. {@code namespace}. */
  public String label() {
    return label;
  }

  /**
   * The kind whose display names share this kind's scope: Iceberg forbids a table and a view with
   * the same identifier, so tables and views of one namespace form one relation-name scope.
   */
  public java.util.Optional<ResourceKind> nameSibling() {
    return switch (this) {
      case TABLE -> java.util.Optional.of(VIEW);
      case VIEW -> java.util.Optional.of(TABLE);
      default -> java.util.Optional.empty();
    };
  }

  /** The kind with this tag. */
  public static ResourceKind ofTag(int tag) {
    for (ResourceKind kind : values()) {
      if (kind.tag == tag) {
        return kind;
      }
    }
    throw new IllegalArgumentException("unknown resource kind tag " + tag);
  }
}
