package io.icegate.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * The stored envelope of every resource: server-managed identity, generations and timestamps
 * around the caller's {@link ResourceSpec}. Serialized as JSON under {@code (account, kind, id)}.
 *
 * <p>Two generations (DESIGN.md "Two generations"): {@code generation} advances on every
 * publication (create, update, rename) and is what the {@link #etag()} and compare-and-set updates
 * use; {@code configurationGeneration} advances only when an update is declared a configuration
 * change (what upstream work depends on), so a rename never fences a running reconcile.
 *
 * @param id immutable resource id (a random UUID string)
 * @param accountId the owning account's id; for an {@link Account} its own id
 * @param generation publication counter, 1 on create
 * @param configurationGeneration configuration counter, 1 on create
 * @param createdAt when the resource was created
 * @param updatedAt when the resource was last published
 * @param spec the caller's content
 */
public record Resource<S extends ResourceSpec>(
    String id,
    String accountId,
    long generation,
    long configurationGeneration,
    Instant createdAt,
    Instant updatedAt,
    S spec) {

  public Resource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(spec, "spec");
    if (generation < 1 || configurationGeneration < 1 || configurationGeneration > generation) {
      throw new IllegalArgumentException(
          "generations must satisfy 1 <= configurationGeneration <= generation");
    }
  }

  /** The resource's kind. */
  public ResourceKind kind() {
    return spec.kind();
  }

  /** The display name (for a namespace: its last segment). */
  public String name() {
    return spec.displayName();
  }

  /** This resource's reference, e.g. for fences and dependency counters. */
  public ResourceRef ref() {
    return new ResourceRef(accountId, kind(), id);
  }

  /**
   * The HTTP entity tag: a quoted string derived from {@code (id, generation)}, so it changes on
   * every publication and never matches another resource.
   */
  public String etag() {
    return Etags.of(id, generation);
  }
}
