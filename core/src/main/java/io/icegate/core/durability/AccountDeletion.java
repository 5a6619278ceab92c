package io.icegate.core.durability;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import io.icegate.core.catalog.WarehouseClaims;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.ReadTransaction.Direction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Account deletion (seed 000, "Account deletion fence"):
 *
 * <ol>
 *   <li>install the account's deletion fence in its own transaction; from its commit on, every
 *       create, update and rename in the account fails with FENCED;
 *   <li>delete the account record and its name-index entry in one transaction; if that delete
 *       definitely did not commit (precondition failed, store failure before commit), clear the
 *       fence again and report the failure;
 *   <li>clean the descendants in bounded transactions of at most {@code batchKeys} keys each, step
 *       by step ({@link CleanupStep}), then mark the fence cleaned.
 * </ol>
 *
 * <p>The fence stays after cleanup as the record that the account was deleted: a delete of an
 * account whose record is gone but whose fence is present replays the cleanup (resuming one that
 * crashed half-way) instead of reporting success without doing it. A fence whose account record
 * still exists (a deleter died between steps 1 and 2, or could not clear it) keeps the account
 * read-only until a delete is retried; {@link #incomplete} lists both cases. Thread-safe.
 */
public final class AccountDeletion {
  private static final Logger LOG = LoggerFactory.getLogger(AccountDeletion.class);
  /** Default keys per cleanup transaction. */
  public static final int DEFAULT_BATCH_KEYS = 500;
  private static final int UNKNOWN_RESULT_ATTEMPTS = 5;
  /**
   * How long a delete owns the fence it installed while it deletes the record (two transactions
   * apart). A delete that finds a fence owned by another one within this time works under it
   * without owning it; after it, the owner is taken to be dead and its fence is taken over.
   */
  public static final Duration FENCE_LEASE = Duration.ofSeconds(30);

  private final KvStore store;
  private final Clock clock;
  private final DeletionFences fences;
  private final ResourceRepository<Account> accounts;
  private final int batchKeys;
  private final List<CleanupStep> steps;

  /**
   * Deletion with the default batch and only the built-in cleanup: the warehouse claims of the
   * account's Catalogs, then the account partition.
   */
  public AccountDeletion(Repositories repositories, Clock clock) {
    this(repositories, clock, DEFAULT_BATCH_KEYS, List.of());
  }

  /**
   * @param batchKeys keys per cleanup transaction (1 to 10,000)
   * @param extraSteps cleanup of data keyed outside the account partition, run before the
   *     built-in steps (the warehouse claims, then the partition itself)
   */
  public AccountDeletion(
      Repositories repositories, Clock clock, int batchKeys, List<CleanupStep> extraSteps) {
    if (batchKeys < 1 || batchKeys > 10_000) {
      throw new IllegalArgumentException("batchKeys must be between 1 and 10000");
    }
    this.store = repositories.store();
    this.clock = clock;
    this.fences = repositories.fences();
    this.accounts = repositories.accounts();
    this.batchKeys = batchKeys;
    List<CleanupStep> all = new ArrayList<>(extraSteps);
    // Claims are keyed by warehouse, outside the partition; they are found through the Catalog
    // records, so they go before the partition.
    all.add(WarehouseClaims.accountCleanup());
    all.add(AccountDeletion::clearPartition);
    this.steps = List.copyOf(all);
  }

  /**
   * Deletes account {@code accountId} and everything in it, or resumes a deletion whose record
   * delete already committed.
   *
   * @throws IcegateException NOT_FOUND (no such account and no fence), GENERATION_MISMATCH (the
   *     fence is cleared again, when this delete owns it)
   * @throws KvStoreException a storage failure; retry the delete (it resumes)
   */
  public AccountDeletionReport delete(String accountId, ExpectedGeneration expected) {
    ResourceRef ref = ResourceRef.account(accountId);
    String operationId = UUID.randomUUID().toString();
    boolean recordPresent = installFence(ref, expected, operationId);
    boolean recordDeleted = recordPresent && deleteRecord(ref, expected, operationId);
    long cleared = 0;
    int transactions = 0;
    for (CleanupStep step : steps) {
      while (true) {
        int n = store.run(Idempotence.IDEMPOTENT, tx -> step.clean(tx, accountId, batchKeys));
        transactions++;
        cleared += n;
        if (n == 0) {
          break;
        }
      }
    }
    store.run(Idempotence.IDEMPOTENT, tx -> {
      fences.markCleaned(tx, ref, clock.instant());
      return null;
    });
    LOG.info("account {} deleted: {} keys cleared in {} transactions", accountId, cleared,
        transactions);
    return new AccountDeletionReport(accountId, recordDeleted, cleared, transactions);
  }

  /**
   * Ids of fenced accounts whose deletion has not completed (the process died, or the fence could
   * not be cleared after a failed record delete), at most {@code limit}; pass each to {@link
   * #delete} to resume.
   */
  public List<String> incomplete(int limit) {
    Range range = KeyLayout.fences(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT).range();
    return store.read(tx -> {
      List<String> ids = new ArrayList<>();
      byte[] begin = range.begin;
      while (ids.size() < limit) {
        List<KeyValue> chunk = tx.getRange(begin, range.end, 1000, Direction.FORWARD);
        for (KeyValue kv : chunk) {
          String id = KeyLayout.fences(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT)
              .unpack(kv.key()).getString(0);
          Optional<Fence> fence = fences.read(tx, ResourceRef.account(id));
          if (fence.isPresent() && !fence.get().cleaned() && ids.size() < limit) {
            ids.add(id);
          }
        }
        if (chunk.size() < 1000) {
          break;
        }
        byte[] last = chunk.get(chunk.size() - 1).key();
        begin = Arrays.copyOf(last, last.length + 1);
      }
      return ids;
    });
  }

  /**
   * Step 1. Returns whether the account record exists (false: replay cleanup of a deleted account).
   * Idempotent: a re-run after an unknown commit finds the fence and proceeds.
   */
  private boolean installFence(ResourceRef ref, ExpectedGeneration expected, String operationId) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<Resource<Account>> account = accounts.get(tx, ref.id());
      Optional<Fence> fence = fences.read(tx, ref);
      if (account.isEmpty()) {
        if (fence.isEmpty()) {
          throw new IcegateException(
              ErrorCode.NOT_FOUND, ResourceKind.ACCOUNT, ResourceKind.ACCOUNT.label(), ref.id());
        }
        return false;
      }
      if (!expected.matches(account.get().generation())) {
        throw new IcegateException(ErrorCode.GENERATION_MISMATCH, ResourceKind.ACCOUNT,
            ResourceKind.ACCOUNT.label(), ref.id(), account.get().generation(),
            expected.describe());
      }
      // A fence left by a deleter that died before deleting the record (its lease lapsed) is
      // taken over, so that this delete's failure path may clear it. A running deleter's fence
      // is not: this delete works under it without owning it, so its own failure cannot unfence
      // the account under the running one (clearFenceIfOurs finds another operation's id).
      Instant now = clock.instant();
      if (fence.isEmpty() || !fence.get().heldByAnother(operationId, now)) {
        fences.install(tx, new Fence(ref, operationId, now, null, now.plus(FENCE_LEASE)));
      }
      return true;
    });
  }

  /**
   * Step 2. Returns whether this call deleted the record; on a definite failure clears the fence
   * (if still ours and the record is still there) and rethrows.
   */
  private boolean deleteRecord(ResourceRef ref, ExpectedGeneration expected, String operationId) {
    for (int attempt = 1; ; attempt++) {
      try {
        store.run(tx -> accounts.delete(tx, ref.id(), expected));
        return true;
      } catch (CommitUnknownResultException e) {
        if (accounts.get(ref.id()).isEmpty()) {
          return true; // resolved by re-reading: the delete committed
        }
        if (attempt >= UNKNOWN_RESULT_ATTEMPTS) {
          clearFenceIfOurs(ref, operationId);
          throw e;
        }
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          return false; // a concurrent delete removed it; this call resumes its cleanup
        }
        clearFenceIfOurs(ref, operationId);
        throw e;
      } catch (KvStoreException e) {
        clearFenceIfOurs(ref, operationId);
        throw e;
      }
    }
  }

  private void clearFenceIfOurs(ResourceRef ref, String operationId) {
    try {
      store.run(Idempotence.IDEMPOTENT, tx -> {
        Optional<Fence> fence = fences.read(tx, ref);
        // Only while the record exists: once it is gone the fence guards the cleanup.
        if (fence.isPresent() && fence.get().operationId().equals(operationId)
            && accounts.get(tx, ref.id()).isPresent()) {
          fences.clear(tx, ref);
        }
        return null;
      });
    } catch (RuntimeException e) {
      LOG.warn("account {} stays fenced after a failed delete; retry the delete ({})", ref.id(),
          e.toString());
    }
  }

  /** The built-in step: clears the account partition of every subspace, a batch at a time. */
  private static int clearPartition(io.icegate.core.store.Transaction tx, String accountId,
      int maxKeys) {
    for (Subspace subspace : KeyLayout.accountPartitions(accountId)) {
      Range range = subspace.range();
      List<KeyValue> keys = tx.getRange(range.begin, range.end, maxKeys, Direction.FORWARD);
      if (!keys.isEmpty()) {
        byte[] last = keys.get(keys.size() - 1).key();
        tx.clearRange(range.begin, Arrays.copyOf(last, last.length + 1));
        return keys.size();
      }
    }
    return 0;
  }
}
