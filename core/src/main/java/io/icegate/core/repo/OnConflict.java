package io.icegate.core.repo;

/**
 * What a create does when its display name is taken in its scope (seed 000, "Create-conflict
 * behavior"; admin {@code ?onConflict=}).
 */
public enum OnConflict {
  /** Fail with {@code ALREADY_EXISTS}; the default. */
  ERROR,
  /**
   * Publish a new resource identity under the name, deleting the old resource in the same
   * transaction (with the old resource's delete checks). Cannot be combined with an idempotency key.
   */
  REPLACE,
  /** Return the existing resource unchanged. */
  RETURN_EXISTING
}
