package io.icegate.core.durability;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

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
 * {@link #sweepExpired}. Keys, leases, receipts and their release on every outcome that is not
 * recorded are {@link IdempotencyKeys}'s, the one primitive the Iceberg routes use as well; this
 * class adds the reserved identity and the publishing transaction.
 *
 * <p>Commit with unknown result: both transactions first read the record and recognise their own
 * work (the {@code holder} id of this attempt), so running them again answers what the first run
 * did; they are run as {@link Idempotence#IDEMPOTENT}, which makes the store re-run them, i.e.
 * resolve the outcome by re-reading the record. Thread-safe.
 */
public final class IdempotentCreates {
  private final IdempotencyKeys keys;
  private final KvStore store;
  private final DeletionFences fences;
  private final Clock clock;
  private final IdempotencySettings settings;

  public IdempotentCreates(Repositories repositories, Clock clock, IdempotencySettings settings) {
    this.store = repositories.store();
    this.fences = repositories.fences();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.keys = new IdempotencyKeys(store, clock, settings);
  }

  /**
   * Creates {@code spec} at most once per {@code idempotencyKey}.
   *
   * @param idempotencyKey the client's key (HTTP {@code Idempotency-Key}), 1 to 255 characters
   * @param fingerprint digest of the request without secrets, see {@link RequestFingerprint}
   * @param onConflict {@link OnConflict#ERROR} or {@link OnConflict#RETURN_EXISTING}; {@link
   *     OnConflict#REPLACE} is refused (INVALID_ARGUMENT), as seed 000 requires
   * @throws IcegateException IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS, a recorded rejection
   *     (replayed), the create's own rejections, FENCED
   * @throws KvStoreException a storage failure; the reservation's lease is released (best effort)
   *     so an immediate retry resumes with the reserved id
   */
  public <S extends ResourceSpec> IdempotentResult<S> create(
      ResourceRepository<S> repository,
      String idempotencyKey,
      String fingerprint,
      S spec,
      OnConflict onConflict) {
    return create(repository, idempotencyKey, fingerprint, spec, onConflict, null);
  }

  /**
   * As {@link #create(ResourceRepository, String, String, ResourceSpec, OnConflict)}, with work
   * tied to the reserved identity: {@code preparation.prepare} runs after the reservation and
   * before the publishing transaction (only when no receipt is replayed), and {@code
   * preparation.published} runs inside the publishing transaction when this attempt publishes a
   * new resource. Used by creates that carry credentials (seed 000: the credential generation is
   * reserved before the resource transaction).
   *
   * @param preparation the hook, or {@code null} for none
   */
  public <S extends ResourceSpec> IdempotentResult<S> create(
      ResourceRepository<S> repository,
      String idempotencyKey,
      String fingerprint,
      S spec,
      OnConflict onConflict,
      Preparation<S> preparation) {
    if (onConflict == OnConflict.REPLACE) {
      throw IcegateException.invalidArgument(
          "onConflict=replace cannot be combined with an idempotency key");
    }
    Attempt<S> attempt = new Attempt<>(repository, idempotencyKey, fingerprint, spec, onConflict);
    IdempotencyRecord.Receipt prior = store.run(Idempotence.IDEMPOTENT, attempt::reserve);
    if (prior != null) {
      return attempt.answer(prior, true);
    }
    IdempotencyKeys.Recorded answer;
    try {
      if (preparation != null) {
        attempt.toPublish = preparation.prepare(attempt.lease.reserved(), spec);
        attempt.preparation = preparation;
      }
      // The answer is built outside the transaction: a recorded rejection is thrown only after the
      // receipt that records it has committed.
      answer = store.run(Idempotence.IDEMPOTENT, attempt::publish);
    } catch (CommitUnknownResultException e) {
      // The store gave up re-running; one more read decides.
      IdempotencyRecord stored = store.read(tx -> attempt.lease.stored(tx));
      if (stored != null && !stored.pending()) {
        return attempt.answer(stored.receipt(), !attempt.lease.isOwn(stored));
      }
      attempt.lease.release();
      throw e;
    } catch (RuntimeException e) {
      // Every other final outcome here is not recorded (a storage failure, FENCED, contention, a
      // failed preparation): release, or retries would get IDEMPOTENCY_IN_PROGRESS for the lease.
      attempt.lease.release();
      throw e;
    }
    return attempt.answer(answer.receipt(), answer.replayed());
  }

  /**
   * Removes expired receipts and long-lapsed reservations of one account ({@code null}: the
   * server-wide partition); see {@link IdempotencyKeys#sweepExpired}.
   */
  public int sweepExpired(String accountId, int batchSize) {
    return keys.sweepExpired(accountId, batchSize);
  }

  /**
   * Work tied to the reserved identity of one idempotent create.
   *
   * @param <S> the spec type
   */
  public interface Preparation<S extends ResourceSpec> {
    /**
     * Runs once per attempt, outside any transaction, after the reservation: e.g. stores a secret
     * under the reserved id. Returns the spec to publish (e.g. with its credential generation).
     */
    S prepare(String reservedId, S spec);

    /**
     * Runs inside the publishing transaction, after the create's checks passed and its writes;
     * an exception aborts the transaction and is not recorded.
     */
    void published(io.icegate.core.store.Transaction tx, io.icegate.core.model.Resource<S> resource);
  }

  /**
   * Whether a rejection with {@code code} is recorded in the receipt and replayed: codes that
   * describe the request are; codes that describe the moment (contention, unknown outcomes, a key
   * in progress, a fence) are not, so a retry may still succeed or see the same transient state.
   */
  public static boolean isRecorded(ErrorCode code) {
    return switch (code) {
      case INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, NAMESPACE_NOT_EMPTY, DEPENDENCY_EXISTS,
          GENERATION_MISMATCH, CONNECTION_SETTING_REJECTED, AUTHENTICATION_NOT_SUPPORTED,
          CREDENTIALS_INVALID -> true;
      // FENCED is not recorded: the account is going away, and a receipt written now would land
      // behind its fence.
      default -> false;
    };
  }

  /** One call of {@link #create}: its request and its lease on the key. */
  private final class Attempt<S extends ResourceSpec> {
    final ResourceRepository<S> repository;
    final S spec;
    final OnConflict onConflict;
    final String candidateId = ResourceRepository.newId();
    final IdempotencyKeys.Lease lease;
    S toPublish;
    Preparation<S> preparation;

    Attempt(
        ResourceRepository<S> repository,
        String key,
        String fingerprint,
        S spec,
        OnConflict onConflict) {
      this.repository = repository;
      this.spec = spec;
      this.onConflict = onConflict;
      this.toPublish = spec;
      this.lease = keys.lease(repository.accountId(), "create:" + repository.kind().label(), key,
          fingerprint, repository.kind());
    }

    /** Step 1: the receipt to replay, or {@code null} once a reservation is ours. */
    IdempotencyRecord.Receipt reserve(Transaction tx) {
      assertAccountNotFenced(tx);
      return lease.claim(tx, candidateId);
    }

    /** Step 2: publish resource, name and receipt in one transaction, answering from the receipt. */
    IdempotencyKeys.Recorded publish(Transaction tx) {
      if (lease.stored(tx) == null) {
        // Swept or cleared between the two steps: a fence says why.
        assertAccountNotFenced(tx);
      }
      IdempotencyKeys.Recorded found = lease.recorded(tx);
      if (found != null) {
        return found;
      }
      Instant now = clock.instant();
      Instant expires = now.plus(settings.receiptLifetime());
      IdempotencyRecord.Receipt receipt;
      CreateOutcome<S> outcome;
      try {
        // create() checks everything before its first write, so a rejection leaves tx clean.
        outcome = repository.create(tx, lease.reserved(), toPublish, onConflict);
      } catch (IcegateException e) {
        if (!isRecorded(e.code())) {
          throw e;
        }
        receipt = new IdempotencyRecord.Receipt(
            e.httpStatus(), null, null, e.code().name(),
            e.subject().map(ResourceKind::label).orElse(null), e.getMessage(), now, expires, null);
        lease.record(tx, receipt);
        return new IdempotencyKeys.Recorded(receipt, false);
      }
      if (preparation != null && outcome.disposition() != CreateOutcome.Disposition.EXISTING) {
        // After the create's writes: whatever it throws aborts the transaction and is never
        // recorded (a receipt of a rejection must not commit beside a published resource).
        preparation.published(tx, outcome.resource());
      }
      int status = outcome.disposition() == CreateOutcome.Disposition.EXISTING ? 200 : 201;
      receipt = new IdempotencyRecord.Receipt(
          status, outcome.disposition().name(),
          repository.codec().toTree(outcome.resource()), null, null, null, now, expires, null);
      lease.record(tx, receipt);
      return new IdempotencyKeys.Recorded(receipt, false);
    }

    /** The recorded answer: the snapshot it holds, or the rejection it holds, thrown. */
    IdempotentResult<S> answer(IdempotencyRecord.Receipt receipt, boolean replayed) {
      if (receipt.errorCode() != null) {
        ResourceKind subject = null;
        for (ResourceKind kind : ResourceKind.values()) {
          if (kind.label().equals(receipt.errorSubject())) {
            subject = kind;
          }
        }
        ErrorCode code = ErrorCode.valueOf(receipt.errorCode());
        throw replayed ? new ReplayedRejection(code, subject, receipt.errorMessage())
            : new IcegateException(code, subject, receipt.errorMessage(), null);
      }
      return new IdempotentResult<>(
          new CreateOutcome<>(
              repository.codec().fromTree(receipt.resource()),
              CreateOutcome.Disposition.valueOf(receipt.disposition())),
          replayed);
    }

    private void assertAccountNotFenced(ReadTransaction tx) {
      String accountId = repository.accountId();
      if (accountId != null) {
        fences.assertAbsent(tx, ResourceRef.account(accountId));
      }
    }
  }
}
