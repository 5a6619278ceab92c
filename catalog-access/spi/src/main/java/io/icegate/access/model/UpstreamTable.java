package io.icegate.access.model;

import java.util.Map;
import java.util.Objects;

/**
 * Provider-neutral metadata of one upstream table.
 *
 * @param namespace where it lives upstream
 * @param name its upstream name
 * @param format the table format the provider determined
 * @param identity stable upstream id when the provider exposes one, else a path-derived unstable
 *     one
 * @param metadataLocation the current metadata file (Iceberg {@code metadata-location}), or {@code
 *     null} when the format has none
 * @param storageLocation the table's root location, or {@code null} when not exposed
 * @param schemaJson the current schema as Iceberg schema JSON, or {@code null} when unknown
 * @param properties table properties as the upstream reports them
 */
public record UpstreamTable(
    NamespacePath namespace,
    String name,
    TableFormat format,
    ExternalIdentity identity,
    String metadataLocation,
    String storageLocation,
    String schemaJson,
    Map<String, String> properties) {

  public UpstreamTable {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(identity, "identity");
    properties = Map.copyOf(properties == null ? Map.of() : properties);
  }
}
