package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Map;

/**
 * A Table or a View: a named pointer to its current metadata file inside one namespace of a
 * catalog. The two kinds share one name scope per namespace (Iceberg forbids a table and a view
 * with the same identifier), one stored shape and one set of rules; code that handles both is
 * written once against this interface, and {@link #kind()} names which one it holds.
 *
 * <p>A relation with {@link #provenance()} is <em>managed</em>: an Overlay materialized it, and
 * it is read-only to clients. A managed relation may have no metadata file of its own (it is
 * served from its stored definition); a local one always has one.
 */
public sealed interface Relation extends ResourceSpec permits Table, View {

  /** Id of the catalog holding the relation. */
  String catalogId();

  /** Path of the namespace holding the relation; at least one segment. */
  List<String> namespace();

  /** The relation's name, unique among the tables and views of its namespace. */
  String name();

  /**
   * Location of the current metadata JSON file, or {@code null} for a managed relation served
   * from its stored definition.
   */
  String metadataLocation();

  /** Opaque non-secret properties kept beside the pointer; never {@code null}. */
  Map<String, String> properties();

  /** The Overlay that manages the relation, or {@code null} for a local one. */
  Provenance provenance();

  /** A copy pointing at another metadata file (an Iceberg commit or view replace). */
  Relation withMetadataLocation(String newMetadataLocation);

  @Override
  Relation withName(NameScope scope, String displayName);

  /** Whether an Overlay manages this relation (it has provenance): read-only to clients. */
  default boolean managed() {
    return provenance() != null;
  }

  @Override
  default NameScope nameScope() {
    return NameScope.inCatalog(catalogId(), namespace());
  }

  @Override
  default String displayName() {
    return name();
  }

  /**
   * A local (directly managed) relation of {@code kind}: no provenance, no properties.
   *
   * @throws IllegalArgumentException when {@code kind} is not TABLE or VIEW
   */
  static Relation local(ResourceKind kind, String catalogId, List<String> namespace, String name,
      String metadataLocation) {
    return switch (kind) {
      case TABLE -> new Table(catalogId, namespace, name, metadataLocation, Map.of());
      case VIEW -> new View(catalogId, namespace, name, metadataLocation, Map.of());
      default -> throw new IllegalArgumentException(kind.label() + " is not a relation");
    };
  }

  /**
   * The namespace path {@code relation} moves to under {@code scope}, for {@link #withName}.
   *
   * @throws IcegateException INVALID_ARGUMENT when {@code scope} is not a namespace of the
   *     relation's own catalog
   */
  static List<String> pathWithinCatalog(Relation relation, NameScope scope) {
    if (!(scope instanceof NameScope.InCatalog in)
        || !in.catalogId().equals(relation.catalogId())) {
      throw IcegateException.invalidArgument(
          "a " + relation.kind().label() + " moves only within its catalog");
    }
    return in.path();
  }
}
