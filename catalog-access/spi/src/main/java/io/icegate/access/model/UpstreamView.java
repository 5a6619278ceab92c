package io.icegate.access.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Provider-neutral metadata of one upstream view.
 *
 * @param namespace where it lives upstream
 * @param name its upstream name
 * @param identity stable upstream id when exposed (an Iceberg view UUID), else path-derived
 * @param schemaJson the output schema as Iceberg schema JSON
 * @param representations every SQL text, one per dialect, in upstream order
 * @param defaultNamespace the namespace unqualified names in the SQL resolve against (may be root)
 * @param defaultCatalog the catalog unqualified names resolve against, or {@code null}
 * @param metadataLocation the view's metadata file, or {@code null} when not exposed
 * @param properties view properties as reported upstream
 */
public record UpstreamView(
    NamespacePath namespace,
    String name,
    ExternalIdentity identity,
    String schemaJson,
    List<ViewRepresentation> representations,
    NamespacePath defaultNamespace,
    String defaultCatalog,
    String metadataLocation,
    Map<String, String> properties) {

  public UpstreamView {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(schemaJson, "schemaJson");
    representations = List.copyOf(representations);
    defaultNamespace = defaultNamespace == null ? NamespacePath.root() : defaultNamespace;
    properties = Map.copyOf(properties == null ? Map.of() : properties);
  }
}
