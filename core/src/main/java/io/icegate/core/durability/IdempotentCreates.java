package io.icegate.core.durability;

import com.apple.foundationdb.Range;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * {@link #sweepExpired}.
 *
 * <p>Commit with unknown result: both transactions first read the record and recognise their own
 * work (the {@code holder} id of this attempt), so running them again answers what the first run
 * did; they are run as {@link Idempotence#IDEMPOTENT}, which makes the store re-run them, i.e.
 * resolve the outcome by re-reading the record. Thread-safe.
 */
public final class IdempotentCreates {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotentCreates.class);
  private static final int MAX_KEY_LENGTH = 255;

  private final KvStore store;
  private final DeletionFences fences;
  private final Clock clock;
  private final IdempotencySettings settings;

  public IdempotentCreates(Repositories repositories, Clock clock, IdempotencySettings settings) {
    this.store = repositories.store();
    this.fences = repositories.fences();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
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
    validate(idempotencyKey, fingerprint, onConflict);
    Attempt<S> attempt = new Attempt<>(repository, idempotencyKey, fingerprint, spec, onConflict);
    IdempotencyRecord.Receipt prior = store.run(Idempotence.IDEMPOTENT, attempt::reserve);
    if (prior != null) {
      return attempt.answer(prior, true);
    }
    if (preparation != null) {
      attempt.toPublish = preparation.prepare(attempt.reserved, spec);
      attempt.preparation = preparation;
    }
    try {
      // The answer is built outside the transaction: a recorded rejection is thrown only after the
      // receipt that records it has committed.
      Answer answer = store.run(Idempotence.IDEMPOTENT, attempt::publish);
      return attempt.answer(answer.receipt(), answer.replayed());
    } catch (CommitUnknownResultException e) {
      // The store gave up re-running; one more read decides.
      IdempotencyRecord stored = store.read(tx -> attempt.record(tx));
      if (stored != null && !stored.pending()) {
        return attempt.answer(stored.receipt(), !attempt.holder.equals(stored.holder()));
      }
      attempt.releaseLease();
      throw e;
    } catch (KvStoreException e) {
      attempt.releaseLease();
      throw e;
    }
  }

  /**
   * Removes expired receipts, and pending records whose lease lapsed more than a receipt lifetime
   * ago, of one account ({@code null}: the server-wide partition of account creates). Scans in
   * transactions of at most {@code batchSize} records each.
   *
   * @return how many records were removed
   */
  public int sweepExpired(String accountId, int batchSize) {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("batchSize must be between 1 and 10000");
    }
    String partition = accountId == null ? KeyLayout.ROOT_PARTITION : accountId;
    Range all = KeyLayout.receipts(partition).range();
    byte[] from = all.begin;
    int removed = 0;
    while (true) {
      byte[] begin = from;
      Instant now = clock.instant();
      SweepBatch batch =
          store.run(
              Idempotence.IDEMPOTENT,
              tx -> {
                List<KeyValue> records = tx.getRange(begin, all.end, batchSize, Direction.FORWARD);
                int cleared = 0;
                for (KeyValue kv : records) {
                  if (expired(decode(kv.value()), now)) {
                    tx.clear(kv.key());
                    cleared++;
                  }
                }
                byte[] last = records.isEmpty() ? null : records.get(records.size() - 1).key();
                return new SweepBatch(cleared, records.size() < batchSize ? null : last);
              });
      removed += batch.cleared();
      if (batch.last() == null) {
        return removed;
      }
      from = Arrays.copyOf(batch.last(), batch.last().length + 1); // the key after the last one
    }
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

    /** Runs inside the publishing transaction, after the create's checks passed. */
    void published(io.icegate.core.store.Transaction tx, io.icegate.core.model.Resource<S> resource);
  }

  private record SweepBatch(int cleared, byte[] last) {}

  /** What the publish transaction found or recorded. */
  private record Answer(IdempotencyRecord.Receipt receipt, boolean replayed) {}

  private boolean expired(IdempotencyRecord record, Instant now) {
    if (record.pending()) {
      return !record.leaseExpiresAt().plus(settings.receiptLifetime()).isAfter(now);
    }
    return !record.receipt().expiresAt().isAfter(now);
  }

  private static void validate(String key, String fingerprint, OnConflict onConflict) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH
        || key.chars().anyMatch(Character::isISOControl)) {
      throw IcegateException.invalidArgument(
          "idempotency key must be 1 to " + MAX_KEY_LENGTH + " printable characters");
    }
    if (fingerprint == null || fingerprint.isEmpty()) {
      throw IcegateException.invalidArgument("a request fingerprint is required");
    }
    if (onConflict == OnConflict.REPLACE) {
      throw IcegateException.invalidArgument(
          "onConflict=replace cannot be combined with an idempotency key");
    }
  }

  private static IdempotencyRecord decode(byte[] bytes) {
    try {
      return ModelJson.mapper().readValue(bytes, IdempotencyRecord.class);
    } catch (IOException e) {
      throw new UncheckedIOException("stored idempotency record is not readable", e);
    }
  }

  private static byte[] encode(IdempotencyRecord record) {
    try {
      return ModelJson.mapper().writeValueAsBytes(record);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize an idempotency record", e);
    }
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

  /** One call of {@link #create}: its key, request and the holder id of its lease. */
  private final class Attempt<S extends ResourceSpec> {
    final ResourceRepository<S> repository;
    final String key;
    final String fingerprint;
    final S spec;
    final OnConflict onConflict;
    final String holder = UUID.randomUUID().toString();
    final String candidateId = ResourceRepository.newId();
    final byte[] recordKey;
    S toPublish;
    Preparation<S> preparation;
    /** The id the last run of {@link #reserve} reserved. */
    volatile String reserved;

    Attempt(
        ResourceRepository<S> repository,
        String key,
        String fingerprint,
        S spec,
        OnConflict onConflict) {
      this.repository = repository;
      this.key = key;
      this.fingerprint = fingerprint;
      this.spec = spec;
      this.onConflict = onConflict;
      this.toPublish = spec;
      String partition =
          repository.accountId() == null ? KeyLayout.ROOT_PARTITION : repository.accountId();
      this.recordKey =
          KeyLayout.receipt(partition, "create:" + repository.kind().label(), key);
    }

    IdempotencyRecord record(ReadTransaction tx) {
      byte[] bytes = tx.get(recordKey);
      return bytes == null ? null : decode(bytes);
    }

    /** Step 1: the receipt to replay, or {@code null} once a reservation is ours. */
    IdempotencyRecord.Receipt reserve(Transaction tx) {
      assertAccountNotFenced(tx);
      Instant now = clock.instant();
      IdempotencyRecord stored = record(tx);
      boolean live = stored != null
          && (stored.pending() || stored.receipt().expiresAt().isAfter(now));
      if (live && !stored.fingerprint().equals(fingerprint)) {
        throw new IcegateException(ErrorCode.IDEMPOTENCY_KEY_REUSED, repository.kind(), key);
      }
      if (live && !stored.pending()) {
        return stored.receipt();
      }
      String reservedId = candidateId;
      if (live) {
        if (stored.holder().equals(holder)) {
          reserved = stored.reservedId();
          return null; // our own reservation, committed by an earlier run of this body
        }
        if (stored.leaseExpiresAt().isAfter(now)) {
          throw new IcegateException(ErrorCode.IDEMPOTENCY_IN_PROGRESS, repository.kind(), key);
        }
        reservedId = stored.reservedId(); // the lease lapsed: resume with the reserved identity
      }
      tx.set(recordKey, encode(new IdempotencyRecord(
          fingerprint, reservedId, holder, now.plus(settings.lease()), null)));
      reserved = reservedId;
      return null;
    }

    /** Step 2: publish resource, name and receipt in one transaction, answering from the receipt. */
    Answer publish(Transaction tx) {
      IdempotencyRecord stored = record(tx);
      if (stored == null) {
        assertAccountNotFenced(tx);
        // Swept or lost between the two steps; nothing was published under this reservation.
        throw new IcegateException(
            ErrorCode.COMMIT_STATE_UNKNOWN, repository.kind(), "the idempotent create " + key);
      }
      if (!stored.pending()) {
        return new Answer(stored.receipt(), !stored.holder().equals(holder));
      }
      if (!stored.holder().equals(holder)) {
        throw new IcegateException(ErrorCode.IDEMPOTENCY_IN_PROGRESS, repository.kind(), key);
      }
      Instant now = clock.instant();
      Instant expires = now.plus(settings.receiptLifetime());
      IdempotencyRecord.Receipt receipt;
      try {
        // create() checks everything before its first write, so a rejection leaves tx clean.
        CreateOutcome<S> outcome =
            repository.create(tx, stored.reservedId(), toPublish, onConflict);
        if (preparation != null && outcome.disposition() != CreateOutcome.Disposition.EXISTING) {
          preparation.published(tx, outcome.resource());
        }
        int status = outcome.disposition() == CreateOutcome.Disposition.EXISTING ? 200 : 201;
        receipt = new IdempotencyRecord.Receipt(
            status, outcome.disposition().name(),
            repository.codec().toTree(outcome.resource()), null, null, null, now, expires);
      } catch (IcegateException e) {
        if (!isRecorded(e.code())) {
          throw e;
        }
        receipt = new IdempotencyRecord.Receipt(
            e.httpStatus(), null, null, e.code().name(),
            e.subject().map(ResourceKind::label).orElse(null), e.getMessage(), now, expires);
      }
      tx.set(recordKey, encode(new IdempotencyRecord(
          fingerprint, stored.reservedId(), holder, stored.leaseExpiresAt(), receipt)));
      return new Answer(receipt, false);
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
        throw new IcegateException(
            ErrorCode.valueOf(receipt.errorCode()), subject, receipt.errorMessage(), null);
      }
      return new IdempotentResult<>(
          new CreateOutcome<>(
              repository.codec().fromTree(receipt.resource()),
              CreateOutcome.Disposition.valueOf(receipt.disposition())),
          replayed);
    }

    /** After a definite failure, lets an immediate retry resume instead of waiting for the lease. */
    void releaseLease() {
      try {
        store.run(Idempotence.IDEMPOTENT, tx -> {
          IdempotencyRecord stored = record(tx);
          if (stored != null && stored.pending() && stored.holder().equals(holder)) {
            tx.set(recordKey, encode(new IdempotencyRecord(
                stored.fingerprint(), stored.reservedId(), holder, clock.instant(), null)));
          }
          return null;
        });
      } catch (RuntimeException e) {
        // The lease then lapses on its own; a retry before that sees IDEMPOTENCY_IN_PROGRESS.
        LOG.debug("could not release idempotency lease of key {}: {}", key, e.toString());
      }
    }

    private void assertAccountNotFenced(ReadTransaction tx) {
      String accountId = repository.accountId();
      if (accountId != null) {
        fences.assertAbsent(tx, ResourceRef.account(accountId));
      }
    }
  }
}
