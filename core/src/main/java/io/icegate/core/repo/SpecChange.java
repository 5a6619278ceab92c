package io.icegate.core.repo;

import io.icegate.core.model.ResourceSpec;
import java.util.Objects;

/** The spec an update publishes and whether it changes configuration. */
public record SpecChange<S extends ResourceSpec>(S spec, ChangeKind change) {
  public SpecChange {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(change, "change");
  }
}
