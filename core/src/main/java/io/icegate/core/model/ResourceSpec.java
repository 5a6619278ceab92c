package io.icegate.core.model;

/**
 * The content of a resource: what a caller creates and updates. The envelope ({@link Resource})
 * adds the server-managed identity, generations and timestamps. A closed family, so repository
 * rules switch over it with compiler-checked exhaustiveness.
 *
 * <p>Every spec has a display name that is unique in its {@link #nameScope()} through the name
 * index (DESIGN.md "Storage"). Names are mutable (rename); the resource id never changes.
 */
public sealed interface ResourceSpec permits Account, Catalog, Namespace, Relation, Integration,
    CatalogOverlay {

  /** The kind of resource this spec describes. */
  ResourceKind kind();

  /** Where {@link #displayName()} must be unique. */
  NameScope nameScope();

  /** The display name, unique in {@link #nameScope()}; for a namespace its last path segment. */
  String displayName();

  /**
   * This spec under another name, for rename (and, for tables and views, moves between namespaces
   * of the same catalog).
   *
   * @throws io.icegate.core.error.IcegateException INVALID_ARGUMENT when the scope does not fit
   *     the kind (e.g. a table moved to another catalog)
   */
  ResourceSpec withName(NameScope scope, String displayName);
}
