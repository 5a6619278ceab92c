package io.icegate.core.jobs;

import com.apple.foundationdb.Range;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.Transaction;

/**
 * Removes jobs and scheduler state with the resources they belong to (seed 000's lifecycle table,
 * deferred column: "Cancel and drain durable jobs", "Fence integration-owned jobs"), inside the
 * transaction that removes the resource, so the removal and the cleanup commit together and a
 * failed delete that is repeated repeats both. A holder still running a removed job fails its
 * next fenced transaction ({@link JobFence}: the record is gone), so a deleted Overlay never
 * comes back through it. Account deletion clears both subspaces with the account's partitions
 * ({@link KeyLayout#accountPartitions}).
 */
public final class JobCleanup {
  private JobCleanup() {}

  /**
   * In the transaction removing (or replacing) Overlay {@code overlayId} of Integration {@code
   * integrationId}: cancels the Integration's job if the Overlay takes part (the next plan leaves
   * it out) and removes the Overlay's scheduler state and its reconcile run record.
   */
  public static void forgetOverlay(Transaction tx, String accountId, String integrationId,
      String overlayId) {
    if (StoredJobs.job(tx, accountId, integrationId).map(j -> j.includes(overlayId))
        .orElse(false)) {
      StoredJobs.clearJob(tx, accountId, integrationId);
    }
    tx.clear(KeyLayout.overlaySchedule(accountId, integrationId, overlayId));
    // Its reconcile run record too: a run still going fails its next fenced transaction (the
    // Overlay is gone) and finishing writes nothing back to an absent record.
    tx.clear(KeyLayout.run(accountId, overlayId));
  }

  /**
   * In the transaction removing (or replacing) Integration {@code integrationId}: its job and all
   * of its scheduler state, its Overlays' included.
   */
  public static void forgetIntegration(Transaction tx, String accountId, String integrationId) {
    StoredJobs.clearJob(tx, accountId, integrationId);
    tx.clear(KeyLayout.schedule(accountId, integrationId));
    Range overlays = KeyLayout.schedules(accountId, integrationId).range();
    tx.clearRange(overlays.begin, overlays.end);
  }
}
