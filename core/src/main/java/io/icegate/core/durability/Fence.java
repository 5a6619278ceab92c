package io.icegate.core.durability;

import io.icegate.core.model.ResourceRef;
import java.time.Instant;
import java.util.Objects;

/**
 * A deletion fence: while present, no mutation under {@code ref} may commit.
 *
 * @param ref the fenced resource
 * @param operationId random id of the delete that installed it, to recognise one's own fence after
 *     a commit with unknown result
 * @param installedAt when it was installed
 * @param cleanedAt when descendant cleanup finished, or {@code null} while it has not
 */
public record Fence(ResourceRef ref, String operationId, Instant installedAt, Instant cleanedAt) {
  public Fence {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(installedAt, "installedAt");
  }

  /** Whether descendant cleanup has completed at least once. */
  public boolean cleaned() {
    return cleanedAt != null;
  }
}
