package io.icegate.core.credential;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import com.fasterxml.jackson.core.type.TypeReference;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.durability.DeletionFences;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Secrets of integrations (their authentication) and catalogs (their storage keys), stored under
 * {@code (owner resource id, credential generation)} in {@link KeySubspace#CREDENTIALS} and
 * encrypted with AES-256-GCM under the {@link MasterKey}, with that pair as additional
 * authenticated data: a ciphertext copied to another owner or generation does not decrypt
 * (DESIGN.md "Storage").
 *
 * <p>Generations are immutable: {@link #putIfAbsent} never overwrites. Every stored generation is
 * either referenced by its owner's record or noted as an orphan candidate ({@link
 * KeySubspace#CREDENTIAL_CANDIDATES}); {@link CredentialPublication} keeps that true through every
 * failure. Values in this class never reach a log line or an exception message. Thread-safe.
 */
public final class CredentialStore {
  private static final Logger LOG = LoggerFactory.getLogger(CredentialStore.class);
  private static final DeletionFences FENCES = new DeletionFences();

  private final KvStore store;
  private final MasterKey key;
  private final Clock clock;

  public CredentialStore(KvStore store, MasterKey key, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.key = Objects.requireNonNull(key, "key");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The store the credentials live in. */
  public KvStore store() {
    return store;
  }

  /**
   * Stores {@code secret} as generation {@code generation} of {@code ownerId} unless that
   * generation exists, and notes it as an orphan candidate in the same transaction (cleared when
   * the owner publishes it). Safe to re-run after a commit with unknown result: the body recognises
   * its own ciphertext.
   *
   * @return whether this call stored it (false: the generation was taken)
   * @throws IcegateException FENCED once the account's deletion fence is installed: a secret
   *     prepared after its cleanup walked past the candidate notes would stay forever
   */
  public boolean putIfAbsent(String accountId, String ownerId, long generation,
      SecretValues secret) {
    requireGeneration(generation);
    byte[] sealed = seal(ownerId, generation, secret);
    byte[] credentialKey = KeyLayout.credential(ownerId, generation);
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      FENCES.assertAbsent(tx, ResourceRef.account(accountId));
      byte[] existing = tx.get(credentialKey);
      if (existing != null) {
        return Arrays.equals(existing, sealed);
      }
      tx.set(credentialKey, sealed);
      noteCandidate(tx, accountId, ownerId, generation, "prepared");
      return true;
    });
  }

  /** The secret of {@code ownerId} at {@code generation}, if stored (a serializable read). */
  public Optional<SecretValues> read(ReadTransaction tx, String ownerId, long generation) {
    byte[] sealed = tx.get(KeyLayout.credential(ownerId, generation));
    return sealed == null ? Optional.empty() : Optional.of(open(ownerId, generation, sealed));
  }

  /** Own-transaction form of {@link #read(ReadTransaction, String, long)}. */
  public Optional<SecretValues> read(String ownerId, long generation) {
    return store.read(tx -> read(tx, ownerId, generation));
  }

  /** Whether generation {@code generation} of {@code ownerId} is stored (serializable read). */
  public boolean exists(ReadTransaction tx, String ownerId, long generation) {
    return tx.get(KeyLayout.credential(ownerId, generation)) != null;
  }

  /** The highest stored generation of {@code ownerId}, 0 when none. */
  public long highestGeneration(String ownerId) {
    Range range = KeyLayout.credentials(ownerId).range();
    return store.read(tx -> {
      List<KeyValue> last = tx.getRange(range.begin, range.end, 1, Direction.REVERSE);
      return last.isEmpty() ? 0L
          : KeyLayout.credentials(ownerId).unpack(last.get(0).key()).getLong(0);
    });
  }

  /** Notes generation {@code generation} of {@code ownerId} as an orphan candidate. */
  public void noteCandidate(Transaction tx, String accountId, String ownerId, long generation,
      String reason) {
    try {
      tx.set(KeyLayout.credentialCandidate(accountId, ownerId, generation),
          ModelJson.mapper().writeValueAsBytes(Map.of(
              "reason", reason, "notedAt", clock.instant().toString())));
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize a candidate note", e);
    }
  }

  /** Clears the orphan-candidate note of {@code ownerId}'s generation {@code generation}. */
  public void clearCandidate(Transaction tx, String accountId, String ownerId, long generation) {
    tx.clear(KeyLayout.credentialCandidate(accountId, ownerId, generation));
  }

  /** Removes generation {@code generation} of {@code ownerId} and its candidate note, in {@code tx}. */
  public void remove(Transaction tx, String accountId, String ownerId, long generation) {
    tx.clear(KeyLayout.credential(ownerId, generation));
    clearCandidate(tx, accountId, ownerId, generation);
  }

  /** Own-transaction form of {@link #remove(Transaction, String, String, long)}; idempotent. */
  public void remove(String accountId, String ownerId, long generation) {
    store.run(Idempotence.IDEMPOTENT, tx -> {
      remove(tx, accountId, ownerId, generation);
      return null;
    });
  }

  /** Removes every generation of {@code ownerId} and its notes, in {@code tx}. */
  public void removeAll(Transaction tx, String accountId, String ownerId) {
    Range secrets = KeyLayout.credentials(ownerId).range();
    tx.clearRange(secrets.begin, secrets.end);
    Range notes = KeyLayout.credentialCandidates(accountId, ownerId).range();
    tx.clearRange(notes.begin, notes.end);
  }

  /**
   * Removes every generation of {@code ownerId} but {@code kept}, with their notes, in {@code tx}:
   * when a resource is first published under a reserved id, any other generation under that id
   * was prepared by an earlier attempt that died before it could publish or discard it.
   */
  public void removeAllExcept(Transaction tx, String accountId, String ownerId, long kept) {
    clearAround(tx, KeyLayout.credentials(ownerId).range(), KeyLayout.credential(ownerId, kept));
    clearAround(tx, KeyLayout.credentialCandidates(accountId, ownerId).range(),
        KeyLayout.credentialCandidate(accountId, ownerId, kept));
  }

  /** Clears {@code range} except the key {@code kept}. */
  private static void clearAround(Transaction tx, Range range, byte[] kept) {
    tx.clearRange(range.begin, kept);
    tx.clearRange(Arrays.copyOf(kept, kept.length + 1), range.end);
  }

  /**
   * Removes, in {@code tx}, the orphan candidates of account {@code accountId} noted more than
   * {@code staleAfter} ago that belong to {@code ownerId} (except generations {@code published}
   * and {@code replaced}) or to an owner that has no record: generations kept after a publication
   * with an unknown result, or whose retire or discard failed. Their publication is long over, so
   * nothing can still publish them (one that tried would find its prepared secret gone and write
   * nothing). Snapshot reads: a stale note is not one a running publication writes, so the scan
   * adds no conflict to the owner's writes.
   *
   * @return how many generations were removed
   */
  public int reclaimStale(Transaction tx, String accountId, String ownerId, long published,
      long replaced, Duration staleAfter) {
    Instant staleBefore = clock.instant().minus(staleAfter);
    ReadTransaction snapshot = tx.snapshot();
    Subspace notes = KeyLayout.credentialCandidates(accountId);
    int removed = 0;
    for (KeyValue kv : snapshot.getRange(notes.range().begin, notes.range().end, 100_000,
        Direction.FORWARD)) {
      Tuple note = notes.unpack(kv.key());
      String owner = note.getString(0);
      long generation = note.getLong(1);
      boolean reclaimable = owner.equals(ownerId)
          ? generation != published && generation != replaced
          : !hasRecord(snapshot, accountId, owner);
      if (reclaimable && notedBefore(kv.value(), staleBefore)) {
        remove(tx, accountId, owner, generation);
        removed++;
      }
    }
    return removed;
  }

  private static boolean hasRecord(ReadTransaction tx, String accountId, String ownerId) {
    return tx.get(KeyLayout.resource(new ResourceRef(accountId, ResourceKind.INTEGRATION,
        ownerId))) != null
        || tx.get(KeyLayout.resource(new ResourceRef(accountId, ResourceKind.CATALOG, ownerId)))
        != null;
  }

  /** Whether a candidate note says it was noted before {@code instant} (unreadable: no). */
  private static boolean notedBefore(byte[] note, Instant instant) {
    try {
      String notedAt = ModelJson.mapper().readTree(note).path("notedAt").asText("");
      return Instant.parse(notedAt).isBefore(instant);
    } catch (IOException | java.time.format.DateTimeParseException e) {
      return false;
    }
  }

  /** The orphan candidates of account {@code accountId}: (owner id, generation) pairs. */
  public List<Candidate> candidates(ReadTransaction tx, String accountId) {
    Range range = KeyLayout.credentialCandidates(accountId).range();
    List<Candidate> out = new ArrayList<>();
    for (KeyValue kv : tx.getRange(range.begin, range.end, 100_000, Direction.FORWARD)) {
      Tuple t = KeyLayout.credentialCandidates(accountId).unpack(kv.key());
      out.add(new Candidate(t.getString(0), t.getLong(1)));
    }
    return out;
  }

  /** An orphan candidate: a generation that may be unreferenced. */
  public record Candidate(String ownerId, long generation) {}

  /**
   * The account-deletion step that removes the credentials of the account's integrations and
   * catalogs and every orphan candidate's secret, at most {@code maxKeys} owners' worth per call.
   * Runs while the account's records still exist (before the partition is cleared).
   */
  public CleanupStep accountCleanup() {
    return (tx, accountId, maxKeys) -> {
      int removed = 0;
      Range notes = KeyLayout.credentialCandidates(accountId).range();
      for (KeyValue kv : tx.getRange(notes.begin, notes.end, maxKeys, Direction.FORWARD)) {
        Tuple t = KeyLayout.credentialCandidates(accountId).unpack(kv.key());
        remove(tx, accountId, t.getString(0), t.getLong(1));
        removed++;
      }
      for (ResourceKind kind : List.of(ResourceKind.INTEGRATION, ResourceKind.CATALOG)) {
        Range records = KeyLayout.resources(accountId, kind).range();
        for (KeyValue kv : tx.getRange(records.begin, records.end, 100_000, Direction.FORWARD)) {
          if (removed >= maxKeys) {
            return removed;
          }
          String ownerId = KeyLayout.resources(accountId, kind).unpack(kv.key()).getString(0);
          if (kind == ResourceKind.CATALOG
              && tx.get(KeyLayout.generatedDeletedCatalog(accountId, ownerId)) != null) {
            // kept with the Catalog's record until its Delta tables' generated files are
            // collected (GeneratedFilesCollector removes it)
            continue;
          }
          Range secrets = KeyLayout.credentials(ownerId).range();
          List<KeyValue> stored = tx.getRange(secrets.begin, secrets.end, maxKeys - removed,
              Direction.FORWARD);
          for (KeyValue s : stored) {
            tx.clear(s.key());
            removed++;
          }
        }
      }
      return removed;
    };
  }

  private byte[] seal(String ownerId, long generation, SecretValues secret) {
    byte[] plain;
    try {
      plain = ModelJson.mapper().writeValueAsBytes(secret.values());
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize a credential");
    }
    try {
      return SealedBox.seal(key, aad(ownerId, generation), plain);
    } finally {
      Arrays.fill(plain, (byte) 0);
    }
  }

  private SecretValues open(String ownerId, long generation, byte[] sealed) {
    if (!SealedBox.wellFormed(sealed)) {
      throw new IllegalStateException(
          "credential of " + ownerId + " generation " + generation + " has an unknown format");
    }
    Optional<byte[]> plain = SealedBox.open(key, aad(ownerId, generation), sealed);
    if (plain.isPresent()) {
      try {
        Map<String, String> values = ModelJson.mapper().readValue(plain.get(),
            new TypeReference<Map<String, String>>() {});
        return new SecretValues(values);
      } catch (IOException e) {
        // No cause attached: a JSON parser's message could quote plaintext.
      } finally {
        Arrays.fill(plain.get(), (byte) 0);
      }
    }
    // The log line is what tells an operator which key is wrong (the answer to the client names
    // no source or path). Startup refuses a key the store's MasterKeyCheck does not accept, so
    // this is a store written under several keys, or one edited by hand.
    LOG.error("credential of {} generation {} cannot be decrypted with the master key from {}:"
        + " was the server started with another {} or key file?", ownerId, generation,
        key.source(), MasterKey.ENV);
    throw new IcegateException(ErrorCode.MASTER_KEY_MISMATCH, null, "credential of " + ownerId
        + " generation " + generation + " cannot be decrypted with the configured master key",
        null);
  }

  /** The authenticated data of generation {@code generation} of {@code ownerId}'s secret. */
  static byte[] aad(String ownerId, long generation) {
    return Tuple.from(ownerId, generation).pack();
  }

  private static void requireGeneration(long generation) {
    if (generation < 1) {
      throw new IllegalArgumentException("credential generations start at 1");
    }
  }

}
