package io.icegate.overlay.reconcile;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.List;
import java.util.Optional;

/**
 * What every publication of a run asserts in its own transaction (seed 000 "Refresh and
 * reconciliation ownership"): no deletion fence on the account, the Integration, the Overlay or
 * the target Catalog; the Integration's configuration and credential generations and the
 * Overlay's configuration generation as observed when the run started; and the run still allowed
 * to publish by the Overlay's run record ({@link ReconcileRuns}). Any change makes the stale run
 * stop with RECONCILE_SUPERSEDED.
 *
 * <p>The run record is written lazily: {@link #assertAndRenew} in the run's first publishing
 * transaction writes it (taking generation G+1 when the record still shows the generation G the
 * run observed at start, or shows a run that started before this one, which this newer run then
 * supersedes), and in every later one asserts it is still the run's own and renews its lease. A
 * record of a run started at or after this one's start supersedes this run. {@link
 * #assertCurrent} checks the same without writing, so a run that publishes nothing (an unchanged
 * re-run) commits no write at all.
 *
 * @param ticket what the run observed at start ({@link ReconcileRuns#start})
 * @param guard what the run asserts besides (an upstream job's fence, issue 27)
 */
record RunFence(Repositories repositories, ReconcileRuns runs, Resource<Integration> integration,
    Resource<CatalogOverlay> overlay, ReconcileRuns.Ticket ticket, RunGuard guard) {

  String accountId() {
    return overlay.accountId();
  }

  /**
   * The fence without writing, for reads that must not act for a superseded run.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED naming what changed
   */
  void assertCurrent(ReadTransaction tx) {
    assertObserved(tx);
    runs.assertCurrent(tx, ticket);
  }

  /**
   * The fence, then the run record written in {@code tx} (taken at the first call, renewed later);
   * for a transaction that publishes.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED naming what changed
   */
  void assertAndRenew(Transaction tx) {
    assertObserved(tx);
    runs.record(tx, ticket);
  }

  /** Deletion fences and the configuration and credential generations observed at start. */
  private void assertObserved(ReadTransaction tx) {
    guard.assertCurrent(tx);
    String account = accountId();
    DeletionFences fences = repositories.fences();
    for (ResourceRef ref : List.of(ResourceRef.account(account), integration.ref(), overlay.ref(),
        new ResourceRef(account, ResourceKind.CATALOG, overlay.spec().catalogId()))) {
      if (fences.read(tx, ref).isPresent()) {
        throw superseded(ref.kind().label() + " " + ref.id() + " is being deleted");
      }
    }
    // A finished deletion has cleared its fence: the record is gone, which says "deleted"
    Optional<Resource<Integration>> nowIntegration =
        repositories.integrations(account).get(tx, integration.id());
    if (nowIntegration.isEmpty()) {
      throw superseded("integration " + integration.id() + " was deleted");
    }
    if (nowIntegration.get().configurationGeneration() != integration.configurationGeneration()
        || nowIntegration.get().spec().credentialGeneration()
            != integration.spec().credentialGeneration()) {
      throw superseded("integration " + integration.id() + " changed its configuration or "
          + "credentials");
    }
    Optional<Resource<CatalogOverlay>> nowOverlay =
        repositories.overlays(account).get(tx, overlay.id());
    if (nowOverlay.isEmpty()) {
      throw superseded("overlay " + overlay.id() + " was deleted");
    }
    if (nowOverlay.get().configurationGeneration() != overlay.configurationGeneration()) {
      throw superseded("overlay " + overlay.id() + " changed its configuration");
    }
  }

  private static IcegateException superseded(String what) {
    return new IcegateException(ErrorCode.RECONCILE_SUPERSEDED, ResourceKind.OVERLAY, what);
  }
}
