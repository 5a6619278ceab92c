package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * An Iceberg table: a pointer to its current metadata file.
 * Its components, and the rules it shares with the other relation kind, are described on {@link
 * Relation}.
 */
public record Table(
    String catalogId,
    List<String> namespace,
    String name,
    String metadataLocation,
    Map<String, String> properties,
    // omitted when null, so a local relation's stored bytes (and request fingerprints) are as before
    @JsonInclude(JsonInclude.Include.NON_NULL) Provenance provenance)
    implements Relation {

  public Table {
    namespace = Names.requireRelation(
        ResourceKind.TABLE, catalogId, namespace, name, metadataLocation, provenance);
    properties = Names.copyProperties(properties);
  }

  /** A local (directly managed) table: no provenance, a metadata location required. */
  public Table(
      String catalogId,
      List<String> namespace,
      String name,
      String metadataLocation,
      Map<String, String> properties) {
    this(catalogId, namespace, name, metadataLocation, properties, null);
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.TABLE;
  }

  @Override
  public Table withName(NameScope scope, String displayName) {
    return new Table(catalogId, Relation.pathWithinCatalog(this, scope), displayName,
        metadataLocation, properties, provenance);
  }

  /** A copy pointing at another metadata file (an Iceberg commit). */
  @Override
  public Table withMetadataLocation(String newMetadataLocation) {
    return new Table(catalogId, namespace, name, newMetadataLocation, properties, provenance);
  }
}
