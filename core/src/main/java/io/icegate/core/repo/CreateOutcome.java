package io.icegate.core.repo;

import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceSpec;
import java.util.Objects;

/**
 * The result of a create: the resource now under the name, and how it got there.
 *
 * @param resource the created, replacing or existing resource
 * @param disposition what the create did
 */
public record CreateOutcome<S extends ResourceSpec>(Resource<S> resource, Disposition disposition) {
  public CreateOutcome {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(disposition, "disposition");
  }

  /** What a create did. */
  public enum Disposition {
    /** A new resource was published (HTTP 201). */
    CREATED,
    /** A new resource was published and the one holding the name was deleted (HTTP 201). */
    REPLACED,
    /** The name was taken and {@link OnConflict#RETURN_EXISTING} asked for it (HTTP 200). */
    EXISTING
  }
}
