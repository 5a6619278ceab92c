package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Map;

/**
 * An Iceberg view: a pointer to its current view metadata file. Shares the relation-name scope of
 * its namespace with tables.
 *
 * @param catalogId id of the catalog holding the view
 * @param namespace path of the namespace holding the view; at least one segment
 * @param name view name, unique among the tables and views of the namespace
 * @param metadataLocation location of the current view metadata JSON file
 * @param properties opaque non-secret properties; never {@code null}
 */
public record View(
    String catalogId,
    List<String> namespace,
    String name,
    String metadataLocation,
    Map<String, String> properties)
    implements ResourceSpec {

  public View {
    Names.requireId(catalogId, "catalogId");
    namespace = Names.requirePath(namespace, false);
    Names.requireName(name, "view name");
    Names.requireText(metadataLocation, "metadata location");
    properties = Names.copyProperties(properties);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.VIEW;
  }

  @Override
  public NameScope nameScope() {
    return NameScope.inCatalog(catalogId, namespace);
  }

  @Override
  public String displayName() {
    return name;
  }

  @Override
  public View withName(NameScope scope, String displayName) {
    if (!(scope instanceof NameScope.InCatalog in) || !in.catalogId().equals(catalogId)) {
      throw IcegateException.invalidArgument("a view moves only within its catalog");
    }
    return new View(catalogId, in.path(), displayName, metadataLocation, properties);
  }

  /** A copy pointing at another metadata file (a view replace). */
  public View withMetadataLocation(String newMetadataLocation) {
    return new View(catalogId, namespace, name, newMetadataLocation, properties);
  }
}
