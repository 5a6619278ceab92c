package io.icegate.core.durability;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param heldUntil until when the operation that installed it owns it (an account delete, between
 *     installing it and deleting the record); after that, or when {@code null} (fences written
 *     before leases existed, and fences of other deletes), another delete may take it over
 */
public record Fence(ResourceRef ref, String operationId, Instant installedAt, Instant cleanedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) Instant heldUntil) {
  @JsonCreator
  public Fence {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(installedAt, "installedAt");
  }

  /** A fence without a lease. */
  public Fence(ResourceRef ref, String operationId, Instant installedAt, Instant cleanedAt) {
    this(ref, operationId, installedAt, cleanedAt, null);
  }

  /** Whether descendant cleanup has completed at least once. */
  public boolean cleaned() {
    return cleanedAt != null;
  }

  /** Whether an operation other than {@code operationId} still owns this fence at {@code now}. */
  public boolean heldByAnother(String operationId, Instant now) {
    return !this.operationId.equals(operationId) && heldUntil != null && heldUntil.isAfter(now);
  }
}
