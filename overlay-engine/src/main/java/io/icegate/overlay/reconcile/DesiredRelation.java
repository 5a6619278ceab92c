package io.icegate.overlay.reconcile;

import io.icegate.core.model.Provenance;
import io.icegate.core.model.ResourceKind;
import java.util.List;
import java.util.Objects;

/**
 * One Table or View of the desired inventory, compact: its destination path (the upstream path,
 * seed 000 "a selected namespace maps to the same path"), its identity, and the canonical
 * definition bytes with their digest. No Iceberg objects are kept.
 *
 * @param kind TABLE or VIEW
 * @param namespace namespace path, upstream and destination alike
 * @param name relation name, upstream and destination alike
 * @param externalId the provider's identity, or the path identity (see {@link #identityStable})
 * @param identityStable whether {@code externalId} survives an upstream rename
 * @param tableFormat the table format name; {@code null} for a view
 * @param upstreamMetadataLocation the upstream metadata file, or {@code null}
 * @param definition canonical definition bytes (TableDefinition or ViewDefinition JSON)
 * @param digest lowercase hex SHA-256 of {@code definition}
 * @param upstreamCommit the identity of the file {@code upstreamMetadataLocation} names, where
 *     the name alone does not tell it (a Delta commit file: {@code DeltaLog.Head#commitIdentity}),
 *     or {@code null}
 */
public record DesiredRelation(
    ResourceKind kind,
    List<String> namespace,
    String name,
    String externalId,
    boolean identityStable,
    String tableFormat,
    String upstreamMetadataLocation,
    byte[] definition,
    String digest,
    String upstreamCommit) {

  /** A relation whose metadata file is told by its location alone. */
  public DesiredRelation(ResourceKind kind, List<String> namespace, String name,
      String externalId, boolean identityStable, String tableFormat,
      String upstreamMetadataLocation, byte[] definition, String digest) {
    this(kind, namespace, name, externalId, identityStable, tableFormat,
        upstreamMetadataLocation, definition, digest, null);
  }

  public DesiredRelation {
    Objects.requireNonNull(kind, "kind");
    namespace = List.copyOf(namespace);
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(externalId, "externalId");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(digest, "digest");
  }

  /** The provenance a materialized relation records (seed 000 "Provenance and identity"). */
  public Provenance provenance(String integrationId, String overlayId) {
    return new Provenance(integrationId, overlayId, externalId, identityStable, namespace, name,
        tableFormat, upstreamMetadataLocation, digest);
  }

  /** This relation under its path identity (two upstream paths shared one stable id). */
  public DesiredRelation withPathIdentity() {
    return new DesiredRelation(kind, namespace, name, pathIdentity(namespace, name), false,
        tableFormat, upstreamMetadataLocation, definition, digest, upstreamCommit);
  }

  /** The key the index and the retirement set use: kind plus external identity. */
  public String identityKey() {
    return kind.tag() + "/" + externalId;
  }

  /** {@code ns1.ns2.name}, for reports and conflicts. */
  public String displayPath() {
    return String.join(".", namespace) + "." + name;
  }

  /** The path identity of an upstream object: segments and name joined with U+001F. */
  static String pathIdentity(List<String> namespace, String name) {
    return String.join("\u001f", namespace) + "\u001f" + name;
  }
}
