package io.icegate.core.durability;

import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import java.time.Clock;
import java.util.List;

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
 * crashed half-way) instead of reporting success without doing it.
 */
public final class AccountDeletion {
  /** Default keys per cleanup transaction. */
  public static final int DEFAULT_BATCH_KEYS = 500;

  /** Deletion with the default batch and only the built-in cleanup of the account partition. */
  public AccountDeletion(Repositories repositories, Clock clock) {
    this(repositories, clock, DEFAULT_BATCH_KEYS, List.of());
  }

  /**
   * @param batchKeys keys per cleanup transaction (1 to 10,000)
   * @param extraSteps cleanup of data keyed outside the account partition, run before the
   *     partition itself is cleared
   */
  public AccountDeletion(
      Repositories repositories, Clock clock, int batchKeys, List<CleanupStep> extraSteps) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Deletes account {@code accountId} and everything in it.
   *
   * @throws io.icegate.core.error.IcegateException NOT_FOUND (no such account and no fence),
   *     GENERATION_MISMATCH (the fence is cleared again)
   */
  public AccountDeletionReport delete(String accountId, ExpectedGeneration expected) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Ids of deleted accounts whose cleanup has not completed (e.g. the process died), at most
   * {@code limit}; pass each to {@link #delete} to resume.
   */
  public List<String> incomplete(int limit) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
