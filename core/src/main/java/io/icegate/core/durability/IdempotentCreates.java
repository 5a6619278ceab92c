package io.icegate.core.durability;

import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import java.time.Clock;

/**
 * Reserved identity and receipt-in-batch idempotency for creates (seed 000, "Durability
 * contract"). A create with an idempotency key:
 *
 * <ol>
 *   <li>in its own transaction, writes a pending record: a reserved resource id, the request
 *       fingerprint and a lease expiry (asserting the account fence absent);
 *   <li>in one transaction, publishes the resource under the reserved id, its name-index entry and
 *       an immutable receipt (the recorded answer) replacing the pending record.
 * </ol>
 *
 * <p>A replay returns the receipt's answer, never one re-derived from current state. The same key
 * with another fingerprint is IDEMPOTENCY_KEY_REUSED; a pending record whose lease has not lapsed
 * is IDEMPOTENCY_IN_PROGRESS; after the lease lapses, a retry with the same fingerprint resumes
 * with the reserved id, so a create that crashed after reserving is never stuck. A deterministic
 * rejection (e.g. ALREADY_EXISTS) is recorded as well and replays as the same error. Receipts
 * expire after {@link IdempotencySettings#receiptLifetime()}; expired ones are ignored and swept by
 * {@link #sweepExpired}. A commit with unknown result is resolved by re-reading the record.
 */
public final class IdempotentCreates {

  public IdempotentCreates(Repositories repositories, Clock clock, IdempotencySettings settings) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Creates {@code spec} at most once per {@code idempotencyKey}.
   *
   * @param idempotencyKey the client's key (HTTP {@code Idempotency-Key}), 1 to 255 characters
   * @param fingerprint digest of the request without secrets, see {@link RequestFingerprint}
   * @param onConflict {@link OnConflict#ERROR} or {@link OnConflict#RETURN_EXISTING}; {@link
   *     OnConflict#REPLACE} is refused (INVALID_ARGUMENT), as seed 000 requires
   * @throws io.icegate.core.error.IcegateException IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS,
   *     a recorded rejection (replayed), or the create's own rejections
   */
  public <S extends ResourceSpec> IdempotentResult<S> create(
      ResourceRepository<S> repository,
      String idempotencyKey,
      String fingerprint,
      S spec,
      OnConflict onConflict) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Removes up to {@code maxRecords} expired receipts (and pending records whose lease lapsed
   * longer than a receipt lifetime ago) of one account ({@code null}: the server-wide partition of
   * account creates), in one transaction.
   *
   * @return how many records were removed
   */
  public int sweepExpired(String accountId, int maxRecords) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
