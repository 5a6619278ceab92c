package io.icegate.core.durability;

import com.apple.foundationdb.Range;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvLimits;
import io.icegate.core.store.KvStore;
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
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one idempotency primitive (seed 000, "Durability contract"): a client's key, claimed with a
 * lease, then either recorded as an immutable receipt or released, on every final outcome. Records
 * are {@link IdempotencyRecord}s under {@code (account, operation, key)} in {@link
 * KeySubspace#RECEIPTS}. Two users:
 *
 * <ul>
 *   <li>{@link IdempotentCreates}: resource creates, whose claim reserves the resource's identity
 *       and whose receipt commits in the transaction that publishes the resource (admin API);
 *   <li>{@link #run}: an operation that commits in transactions of its own (the Iceberg routes);
 *       its answer is recorded in a transaction after the operation's, so a crash between the two
 *       leaves a pending record whose lease lapses and lets a retry run again.
 * </ul>
 *
 * <p>Rules for every key: the same key with another fingerprint is IDEMPOTENCY_KEY_REUSED while
 * its record lives; a pending record whose lease has not lapsed is IDEMPOTENCY_IN_PROGRESS; a
 * receipt is replayed until it expires ({@link IdempotencySettings#receiptLifetime()}). An outcome
 * that is not recorded (a server failure, a fence, contention, an answer too large to store)
 * releases the lease at once: a reservation keeps its identity with its lease lapsed, a claim
 * without identity is cleared. A release that fails leaves the lease to lapse on its own.
 *
 * <p>Records written by the Iceberg routes before this class existed ({@code {"fingerprint",
 * "expiresAtMillis", "status", "body"}}, at most one receipt lifetime old) are read as well: a
 * receipt replays, a pending one counts until its lease lapses. Thread-safe.
 */
public final class IdempotencyKeys {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotencyKeys.class);
  private static final int MAX_KEY_LENGTH = 255;
  /** The holder of a record in the old format of the Iceberg routes (never equal to a new one). */
  private static final String LEGACY_HOLDER = "legacy";

  private final KvStore store;
  private final Clock clock;
  private final IdempotencySettings settings;

  public IdempotencyKeys(KvStore store, Clock clock, IdempotencySettings settings) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * An operation's answer as a receipt keeps it.
   *
   * @param status the HTTP status
   * @param body the body as sent, or {@code null}
   */
  public record Answer(int status, String body) {}

  /**
   * How an operation's answers are recorded and replayed.
   *
   * @param <T> the operation's answer type
   */
  public interface Answers<T> {
    /** The answer to record, or empty when it is not final (e.g. a server failure). */
    Optional<Answer> toRecord(T answer);

    /** The answer a retry gets from a receipt. */
    T replay(Answer recorded);
  }

  /**
   * Runs {@code work} at most once per {@code key} within the receipt lifetime; a retry with the
   * same fingerprint gets the recorded answer. An exception from {@code work} releases the key and
   * is rethrown.
   *
   * @param accountId the account ({@code null}: the server-wide partition)
   * @param operation names the family of requests the key belongs to (part of the record key)
   * @param key the client's key, 1 to 255 printable characters
   * @param fingerprint digest of what identifies the request
   * @throws IcegateException INVALID_ARGUMENT, IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS
   */
  public <T> T run(String accountId, String operation, String key, String fingerprint,
      Answers<T> answers, Supplier<T> work) {
    Lease lease = lease(accountId, operation, key, fingerprint, null);
    IdempotencyRecord.Receipt prior = store.run(Idempotence.IDEMPOTENT, tx -> lease.claim(tx, null));
    if (prior != null) {
      return answers.replay(new Answer(prior.status(), prior.body()));
    }
    T answer;
    Optional<Answer> toRecord;
    try {
      answer = work.get();
      toRecord = answers.toRecord(answer);
    } catch (RuntimeException e) {
      lease.release();
      throw e;
    }
    Instant now = clock.instant();
    IdempotencyRecord.Receipt receipt = toRecord.map(a -> IdempotencyRecord.Receipt.ofAnswer(
        a.status(), a.body(), now, now.plus(settings.receiptLifetime()))).orElse(null);
    if (receipt == null || !lease.fits(receipt)) {
      lease.release(); // not final, or larger than a store value: a retry runs again
      return answer;
    }
    try {
      store.run(Idempotence.IDEMPOTENT, tx -> {
        if (lease.recorded(tx) == null) {
          lease.record(tx, receipt);
        }
        return null;
      });
    } catch (RuntimeException e) {
      lease.release();
      throw e;
    }
    return answer;
  }

  /**
   * Removes expired receipts, and pending records whose lease lapsed more than a receipt lifetime
   * ago, of every operation of one account ({@code null}: the server-wide partition of account
   * creates). Scans in transactions of at most {@code batchSize} records each.
   *
   * @return how many records were removed
   */
  public int sweepExpired(String accountId, int batchSize) {
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("batchSize must be between 1 and 10000");
    }
    Range all = KeyLayout.receipts(partition(accountId)).range();
    byte[] from = all.begin;
    int removed = 0;
    while (true) {
      byte[] begin = from;
      Instant now = clock.instant();
      SweepBatch batch = store.run(Idempotence.IDEMPOTENT, tx -> {
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
   * One attempt's hold on {@code key}: validates the key, names the record and the attempt.
   *
   * @param subject the kind errors name ({@code null}: none)
   */
  Lease lease(String accountId, String operation, String key, String fingerprint,
      ResourceKind subject) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH
        || key.chars().anyMatch(Character::isISOControl)) {
      throw IcegateException.invalidArgument(
          "idempotency key must be 1 to " + MAX_KEY_LENGTH + " printable characters");
    }
    if (fingerprint == null || fingerprint.isEmpty()) {
      throw IcegateException.invalidArgument("a request fingerprint is required");
    }
    return new Lease(KeyLayout.receipt(partition(accountId), operation, key), key, fingerprint,
        subject);
  }

  private static String partition(String accountId) {
    return accountId == null ? KeyLayout.ROOT_PARTITION : accountId;
  }

  private record SweepBatch(int cleared, byte[] last) {}

  /** What the recording transaction found: a receipt, and whether another attempt wrote it. */
  record Recorded(IdempotencyRecord.Receipt receipt, boolean replayed) {}

  private boolean expired(IdempotencyRecord record, Instant now) {
    if (record.pending()) {
      return !record.leaseExpiresAt().plus(settings.receiptLifetime()).isAfter(now);
    }
    return !record.receipt().expiresAt().isAfter(now);
  }

  /**
   * Whether {@code record} still holds its key: a receipt until it expires; a reservation of an
   * identity until swept (a retry must resume with that identity); a claim without identity only
   * while its lease runs (nothing was reserved, so a lapsed one frees the key).
   */
  private static boolean live(IdempotencyRecord record, Instant now) {
    if (record == null) {
      return false;
    }
    if (!record.pending()) {
      return record.receipt().expiresAt().isAfter(now);
    }
    return record.reservedId() != null || record.leaseExpiresAt().isAfter(now);
  }

  static IdempotencyRecord decode(byte[] bytes) {
    try {
      JsonNode tree = ModelJson.mapper().readTree(bytes);
      if (tree.has("expiresAtMillis")) {
        return legacy(tree);
      }
      return ModelJson.mapper().treeToValue(tree, IdempotencyRecord.class);
    } catch (IOException e) {
      throw new UncheckedIOException("stored idempotency record is not readable", e);
    }
  }

  /** A record of the Iceberg routes' old format: pending while {@code status} is 0. */
  private static IdempotencyRecord legacy(JsonNode tree) {
    Instant expires = Instant.ofEpochMilli(tree.get("expiresAtMillis").asLong());
    int status = tree.path("status").asInt();
    JsonNode body = tree.get("body");
    IdempotencyRecord.Receipt receipt = status == 0 ? null : IdempotencyRecord.Receipt.ofAnswer(
        status, body == null || body.isNull() ? null : body.asText(), expires, expires);
    return new IdempotencyRecord(
        tree.path("fingerprint").asText(), null, LEGACY_HOLDER, expires, receipt);
  }

  private static byte[] encode(IdempotencyRecord record) {
    try {
      return ModelJson.mapper().writeValueAsBytes(record);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize an idempotency record", e);
    }
  }

  /** One attempt's hold on a key: claim, then record or release. */
  final class Lease {
    private final byte[] recordKey;
    private final String key;
    private final String fingerprint;
    private final ResourceKind subject;
    private final String holder = UUID.randomUUID().toString();
    /** The identity and lease of the last run of {@link #claim}. */
    private volatile String reserved;
    private volatile Instant leaseExpiresAt;

    private Lease(byte[] recordKey, String key, String fingerprint, ResourceKind subject) {
      this.recordKey = recordKey;
      this.key = key;
      this.fingerprint = fingerprint;
      this.subject = subject;
    }

    /** Whether {@code stored} was written by this attempt. */
    boolean isOwn(IdempotencyRecord stored) {
      return stored.holder().equals(holder);
    }

    /** The identity this attempt holds ({@code null} before a claim, or for none). */
    String reserved() {
      return reserved;
    }

    IdempotencyRecord stored(ReadTransaction tx) {
      byte[] bytes = tx.get(recordKey);
      return bytes == null ? null : decode(bytes);
    }

    /**
     * Step 1, in its own transaction: the receipt to replay, or {@code null} once the key is held
     * by this attempt, with {@code candidateId} reserved (or the identity a lapsed reservation
     * holds, which a retry resumes with).
     */
    IdempotencyRecord.Receipt claim(Transaction tx, String candidateId) {
      Instant now = clock.instant();
      IdempotencyRecord stored = stored(tx);
      String reservedId = candidateId;
      if (live(stored, now)) {
        if (!stored.fingerprint().equals(fingerprint)) {
          throw new IcegateException(ErrorCode.IDEMPOTENCY_KEY_REUSED, subject, key);
        }
        if (!stored.pending()) {
          return stored.receipt();
        }
        if (stored.holder().equals(holder)) {
          reserved = stored.reservedId(); // our own claim, committed by an earlier run of this body
          leaseExpiresAt = stored.leaseExpiresAt();
          return null;
        }
        if (stored.leaseExpiresAt().isAfter(now)) {
          throw new IcegateException(ErrorCode.IDEMPOTENCY_IN_PROGRESS, subject, key);
        }
        reservedId = stored.reservedId(); // the lease lapsed: resume with the reserved identity
      }
      leaseExpiresAt = now.plus(settings.lease());
      tx.set(recordKey, encode(
          new IdempotencyRecord(fingerprint, reservedId, holder, leaseExpiresAt, null)));
      reserved = reservedId;
      return null;
    }

    /**
     * In the recording transaction: the receipt already recorded (by another attempt, or by an
     * earlier run of this attempt's body), or {@code null} while the key is pending and ours.
     *
     * @throws IcegateException IDEMPOTENCY_IN_PROGRESS (another attempt took over a lapsed lease),
     *     COMMIT_STATE_UNKNOWN (the record is gone: swept or cleared between the steps)
     */
    Recorded recorded(ReadTransaction tx) {
      IdempotencyRecord stored = stored(tx);
      if (stored == null) {
        throw new IcegateException(
            ErrorCode.COMMIT_STATE_UNKNOWN, subject, "the idempotent request " + key);
      }
      if (!stored.pending()) {
        return new Recorded(stored.receipt(), !stored.holder().equals(holder));
      }
      if (!stored.holder().equals(holder)) {
        throw new IcegateException(ErrorCode.IDEMPOTENCY_IN_PROGRESS, subject, key);
      }
      return null;
    }

    /** Replaces this attempt's pending record by {@code receipt} (after {@link #recorded}). */
    void record(Transaction tx, IdempotencyRecord.Receipt receipt) {
      tx.set(recordKey, encode(
          new IdempotencyRecord(fingerprint, reserved, holder, leaseExpiresAt, receipt)));
    }

    /** Whether the record of {@code receipt} fits in one store value. */
    boolean fits(IdempotencyRecord.Receipt receipt) {
      return encode(new IdempotencyRecord(fingerprint, reserved, holder, leaseExpiresAt, receipt))
          .length <= KvLimits.MAX_VALUE_BYTES;
    }

    /**
     * After an outcome that is not recorded: lets an immediate retry run instead of waiting for
     * the lease. Only this attempt's pending record is touched, so a record a concurrent account
     * cleanup already cleared is not written again. Best effort.
     */
    void release() {
      try {
        store.run(Idempotence.IDEMPOTENT, tx -> {
          IdempotencyRecord stored = stored(tx);
          if (stored == null || !stored.pending() || !stored.holder().equals(holder)) {
            return null;
          }
          if (stored.reservedId() == null) {
            tx.clear(recordKey);
          } else {
            tx.set(recordKey, encode(new IdempotencyRecord(
                fingerprint, stored.reservedId(), holder, clock.instant(), null)));
          }
          return null;
        });
      } catch (RuntimeException e) {
        // The lease then lapses on its own; a retry before that sees IDEMPOTENCY_IN_PROGRESS.
        LOG.debug("could not release idempotency lease of key {}: {}", key, e.toString());
      }
    }
  }
}
