package io.icegate.access.model;

import java.util.Objects;

/**
 * How the upstream catalog identifies a table or view across renames.
 *
 * <p>A stable identity (an Iceberg table UUID, a Unity table id) survives a rename or namespace
 * move, so the gateway keeps one resource. An unstable one is derived from the upstream path: a
 * rename of such an object is observed as a deletion plus a creation (seed 000 "Materialized
 * metadata").
 *
 * @param value the identity text (a UUID, or the normalized path)
 * @param stable whether the provider guarantees it survives renames
 */
public record ExternalIdentity(String value, boolean stable) {

  public ExternalIdentity {
    Objects.requireNonNull(value, "value");
  }

  public static ExternalIdentity stable(String value) {
    return new ExternalIdentity(value, true);
  }

  /**
   * A path-derived identity: segments and name joined with the unit separator ({@code U+001F}),
   * which Iceberg also uses and no sane name contains.
   */
  public static ExternalIdentity fromPath(NamespacePath namespace, String name) {
    return new ExternalIdentity(
        String.join("\u001f", namespace.segments()) + "\u001f" + name, false);
  }
}
