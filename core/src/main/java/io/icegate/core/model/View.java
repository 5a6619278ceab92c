package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * An Iceberg view: a pointer to its current view metadata file.
 * Its components, and the rules it shares with the other relation kind, are described on {@link
 * Relation}.
 */
public record View(
    String catalogId,
    List<String> namespace,
    String name,
    String metadataLocation,
    Map<String, String> properties,
    // omitted when null, so a local relation's stored bytes (and request fingerprints) are as before
    @JsonInclude(JsonInclude.Include.NON_NULL) Provenance provenance)
    implements Relation {

  public View {
    namespace = Names.requireRelation(
        ResourceKind.VIEW, catalogId, namespace, name, metadataLocation, provenance);
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

  @Override
  public ResourceKind kind() {
    return ResourceKind.VIEW;
  }

  @Override
  public View withName(NameScope scope, String displayName) {
    return new View(catalogId, Relation.pathWithinCatalog(this, scope), displayName,
        metadataLocation, properties, provenance);
  }

  /** A copy pointing at another metadata file (a view replace). */
  @Override
  public View withMetadataLocation(String newMetadataLocation) {
    return new View(catalogId, namespace, name, newMetadataLocation, properties, provenance);
  }
}
