package io.icegate.core.model;

import io.icegate.core.error.IcegateException;
import java.util.List;
import java.util.Objects;

/**
 * Where a materialized Table or View comes from (seed 000, "Catalog overlay": materialized
 * relations carry typed Integration and Overlay provenance and reject direct mutation while
 * managed). A relation with provenance is <em>managed</em>: only the reconciler of {@code
 * overlayId} writes it; the gateway serves it read-only (403 naming the Overlay on writes).
 *
 * <p>The definition itself (Iceberg table or view metadata without snapshots) is stored beside the
 * record in chunks (overlay-store's {@code ManagedRelations}); {@code definitionDigest}
 * names the stored bytes, so an unchanged upstream is detected without reading them.
 *
 * @param integrationId id of the Integration the relation was read through
 * @param overlayId id of the CatalogOverlay that materialized it (the only writer)
 * @param externalId the provider's identity of the upstream object (a table UUID, or the
 *     path-derived identity when {@code identityStable} is false)
 * @param identityStable whether {@code externalId} survives an upstream rename or move; when true
 *     a rename keeps the icegate resource, when false it is observed as delete + create
 * @param upstreamNamespace the upstream namespace path, segments kept
 * @param upstreamName the upstream table or view name
 * @param tableFormat the upstream table format ({@code ICEBERG}, {@code DELTA}, ...); {@code null}
 *     for views
 * @param upstreamMetadataLocation the upstream metadata file, or {@code null} when the provider
 *     exposes none
 * @param definitionDigest lowercase hex SHA-256 of the stored definition bytes
 */
public record Provenance(
    String integrationId,
    String overlayId,
    String externalId,
    boolean identityStable,
    List<String> upstreamNamespace,
    String upstreamName,
    String tableFormat,
    String upstreamMetadataLocation,
    String definitionDigest) {

  public Provenance {
    Names.requireId(integrationId, "integrationId");
    Names.requireId(overlayId, "overlayId");
    Names.requireText(externalId, "externalId");
    upstreamNamespace = List.copyOf(Objects.requireNonNull(upstreamNamespace, "upstreamNamespace"));
    Names.requireText(upstreamName, "upstreamName");
    if (definitionDigest == null || !definitionDigest.matches("[0-9a-f]{64}")) {
      throw IcegateException.invalidArgument("definitionDigest must be a SHA-256 hex digest");
    }
  }

  /** The upstream path as one display string: namespace segments and name joined with dots. */
  public String upstreamDisplayPath() {
    return upstreamNamespace.isEmpty()
        ? upstreamName
        : String.join(".", upstreamNamespace) + "." + upstreamName;
  }
}
