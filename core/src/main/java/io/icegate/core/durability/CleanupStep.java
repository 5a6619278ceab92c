package io.icegate.core.durability;

import io.icegate.core.store.Transaction;

/**
 * One part of an account's descendant cleanup, run in bounded transactions after the account
 * record is deleted. Steps must be idempotent and resumable: a step is called again until it
 * reports no more work, possibly by another process after a crash. Later issues add steps for
 * data keyed outside the account partition (credentials, claims).
 */
@FunctionalInterface
public interface CleanupStep {

  /**
   * Removes at most {@code maxKeys} keys of account {@code accountId}'s data.
   *
   * @return how many keys were removed; {@code 0} means this step is done
   */
  int clean(Transaction tx, String accountId, int maxKeys);
}
