package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Map;

/**
 * An Iceberg table: a pointer to its current metadata file. Tables and views of one namespace
 * share one name scope (Iceberg forbids a table and a view with the same identifier).
 *
 * @param catalogId id of the catalog holding the table
 * @param namespace path of the namespace holding the table; at least one segment
 * @param name table name, unique among the tables and views of the namespace
 * @param metadataLocation location of the current metadata JSON file, or {@code null} for a
 *     managed one served from its stored definition
 * @param properties opaque non-secret properties kept beside the pointer; never {@code null}
 * @param provenance the Overlay that manages it, or {@code null} for a local (directly managed)
 *     relation
 */
public record Table(
    String catalogId,
    List<String> namespace,
    String name,
    String metadataLocation,
    Map<String, String> properties,
    // omitted when null, so a local relation's stored bytes (and request fingerprints) are as before
    @JsonInclude(JsonInclude.Include.NON_NULL) Provenance provenance)
    implements ResourceSpec {

  public Table {
    Names.requireId(catalogId, "catalogId");
    namespace = Names.requirePath(namespace, false);
    Names.requireName(name, "table name");
    if (provenance == null || metadataLocation != null) {
      // A managed relation may have no metadata file of its own: it is served from its definition.
      Names.requireText(metadataLocation, "metadata location");
    }
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

  /** Whether an Overlay manages this table (it has provenance), so it is read-only to clients. */
  public boolean managed() {
    return provenance != null;
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.TABLE;
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
  public Table withName(NameScope scope, String displayName) {
    if (!(scope instanceof NameScope.InCatalog in) || !in.catalogId().equals(catalogId)) {
      throw IcegateException.invalidArgument("a table moves only within its catalog");
    }
    return new Table(catalogId, in.path(), displayName, metadataLocation, properties, provenance);
  }

  /** A copy pointing at another metadata file (an Iceberg commit). */
  public Table withMetadataLocation(String newMetadataLocation) {
    return new Table(catalogId, namespace, name, newMetadataLocation, properties, provenance);
  }
}
