package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param metadataLocation location of the current view metadata JSON file, or {@code null} for a
 *     managed one served from its stored definition
 * @param properties opaque non-secret properties; never {@code null}
 * @param provenance the Overlay that manages it, or {@code null} for a local (directly managed)
 *     relation
 */
public record View(
    String catalogId,
    List<String> namespace,
    String name,
    String metadataLocation,
    Map<String, String> properties,
    // omitted when null, so a local relation's stored bytes (and request fingerprints) are as before
    @JsonInclude(JsonInclude.Include.NON_NULL) Provenance provenance)
    implements ResourceSpec {

  public View {
    Names.requireId(catalogId, "catalogId");
    namespace = Names.requirePath(namespace, false);
    Names.requireName(name, "view name");
    if (provenance == null || metadataLocation != null) {
      // A managed relation may have no metadata file of its own: it is served from its definition.
      Names.requireText(metadataLocation, "metadata location");
    }
    properties = Names.copyProperties(properties);
  }

  /** A local (directly managed) view: no provenance, a metadata location required. */
  public View(
      String catalogId,
      List<String> namespace,
      String name,
      String metadataLocation,
      Map<String, String> properties) {
    this(catalogId, namespace, name, metadataLocation, properties, null);
  }

  /** Whether an Overlay manages this view (it has provenance), so it is read-only to clients. */
  public boolean managed() {
    return provenance != null;
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
    return new View(catalogId, in.path(), displayName, metadataLocation, properties, provenance);
  }

  /** A copy pointing at another metadata file (a view replace). */
  public View withMetadataLocation(String newMetadataLocation) {
    return new View(catalogId, namespace, name, newMetadataLocation, properties, provenance);
  }
}
