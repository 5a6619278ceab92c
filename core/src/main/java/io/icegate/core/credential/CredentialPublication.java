package io.icegate.core.credential;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.Transaction;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credential-publication protocol of seed 000 ("Credential publication") for one owner
 * (an integration or a catalog), around the caller's resource transaction:
 *
 * <ol>
 *   <li>{@link #prepare}: reserve a new immutable generation with putIfAbsent, before the resource
 *       transaction; the generation is noted as an orphan candidate in the same store transaction;
 *   <li>{@link #inPublishingTransaction}: inside the resource transaction, assert the prepared
 *       secret is still there, clear its candidate note and note the old generation (so publishing
 *       and the bookkeeping are one atomic step);
 *   <li>after a definite publication, {@link #retire} the old generation; after a definite
 *       failure, {@link #discard} the prepared one; after a commit with unknown result, {@link
 *       #keep} it: the resource transaction may have committed, and its candidate note stays
 *       until the owner's next publication reclaims it once {@link #STALE_AFTER} has passed.
 * </ol>
 *
 * <p>Nothing here depends on a compensating write succeeding: a failed retire or discard leaves a
 * noted candidate, never an unreferenced, unnoted secret. Thread-safe.
 */
public final class CredentialPublication {
  private static final Logger LOG = LoggerFactory.getLogger(CredentialPublication.class);
  private static final int PREPARE_ATTEMPTS = 8;
  /**
   * How long a noted generation may belong to a publication still under way. Far above any
   * request's life (a FoundationDB transaction lives at most 5 s): a younger note may be a
   * concurrent rotation's prepared generation, which must not be pulled from under it.
   */
  public static final Duration STALE_AFTER = Duration.ofHours(1);

  private final CredentialStore credentials;

  public CredentialPublication(CredentialStore credentials) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
  }

  /** The store of the secrets. */
  public CredentialStore credentials() {
    return credentials;
  }

  /**
   * Reserves and stores the next generation of {@code ownerId}: one above both {@code
   * currentGeneration} and every stored generation (a kept candidate is never reused).
   *
   * @return the prepared generation
   * @throws IcegateException STORE_CONTENTION when concurrent rotations keep taking the generation
   */
  public long prepare(String accountId, String ownerId, long currentGeneration,
      SecretValues secret) {
    for (int attempt = 0; attempt < PREPARE_ATTEMPTS; attempt++) {
      long next = Math.max(currentGeneration, credentials.highestGeneration(ownerId)) + 1;
      if (credentials.putIfAbsent(accountId, ownerId, next, secret)) {
        return next;
      }
    }
    throw new IcegateException(ErrorCode.STORE_CONTENTION, null);
  }

  /**
   * The bookkeeping inside the resource transaction that publishes {@code generation} in place of
   * {@code oldGeneration} (0: none). It also reclaims the stale orphan candidates of the owner and
   * of owners that never got a record ({@link CredentialStore#reclaimStale}): nothing else
   * removes a generation kept after an unknown result.
   *
   * @throws IcegateException COMMIT_STATE_UNKNOWN when the prepared secret is gone (a concurrent
   *     discard); the transaction then writes nothing
   */
  public void inPublishingTransaction(Transaction tx, String accountId, String ownerId,
      long generation, long oldGeneration) {
    if (!credentials.exists(tx, ownerId, generation)) {
      throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, null,
          "the prepared credential generation " + generation + " of " + ownerId);
    }
    credentials.clearCandidate(tx, accountId, ownerId, generation);
    if (oldGeneration > 0 && oldGeneration != generation) {
      credentials.noteCandidate(tx, accountId, ownerId, oldGeneration, "retiring");
    }
    credentials.reclaimStale(tx, accountId, ownerId, generation, oldGeneration,
        STALE_AFTER);
  }

  /** After the new generation is published: removes {@code oldGeneration} (best effort). */
  public void retire(String accountId, String ownerId, long oldGeneration) {
    if (oldGeneration > 0) {
      bestEffortRemove(accountId, ownerId, oldGeneration, "retire");
    }
  }

  /** After a definite publication failure: removes the prepared generation (best effort). */
  public void discard(String accountId, String ownerId, long generation) {
    bestEffortRemove(accountId, ownerId, generation, "discard");
  }

  /**
   * After a publication with unknown result: the prepared generation stays, noted as an orphan
   * candidate (its note was written with it and is cleared only by a committed publication).
   */
  public void keep(String ownerId, long generation) {
    LOG.warn("credential generation {} of {} kept as an orphan candidate: its publication has an "
        + "unknown result", generation, ownerId);
  }

  private void bestEffortRemove(String accountId, String ownerId, long generation, String what) {
    try {
      credentials.remove(accountId, ownerId, generation);
    } catch (RuntimeException e) {
      LOG.warn("could not {} credential generation {} of {}; it stays an orphan candidate ({})",
          what, generation, ownerId, e.getClass().getSimpleName());
    }
  }
}
