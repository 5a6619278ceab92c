package io.icegate.core.overlay;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Resource;
import io.icegate.core.store.Transaction;

/**
 * Retires what an Overlay contributed to its target Catalog (seed 000, "Lifecycle and garbage
 * collection": its materialized tables and views, snapshot state and namespace claims; never the
 * Catalog, another Overlay's resources or directly managed content). Reconciliation fills it in;
 * until then {@link #NONE} is used and there is nothing to retire.
 *
 * <p>Called for an Overlay whose deletion fence is installed (so no reconcile can publish for it
 * any more), before its record is removed: on Overlay delete, on the replaced Overlay of a
 * replacing create, and for each Overlay of an Integration cascade. Implementations must be
 * idempotent: a crashed or failed delete is retried and calls it again.
 */
public interface ContributionRetirement {

  /** Retires nothing: no contributions exist before reconciliation does. */
  ContributionRetirement NONE = new ContributionRetirement() {
    @Override
    public void retire(Resource<CatalogOverlay> overlay) {}
  };

  /**
   * Retires the contributions of the fenced {@code overlay}, outside any transaction, in as many
   * transactions as it needs.
   *
   * @throws RuntimeException on failure; the delete then stops with the Overlay still fenced and
   *     a retry resumes
   */
  void retire(Resource<CatalogOverlay> overlay);

  /**
   * Account deletion's form: called inside a cleanup transaction of a deleted account (the body
   * may run more than once). Every contribution lives in the account's partition, which the
   * deletion clears right after, so the default does nothing; an implementation keeping state
   * outside the partition removes it here.
   */
  default void retireForAccountDeletion(Transaction tx, Resource<CatalogOverlay> overlay) {}
}
