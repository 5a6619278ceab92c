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
 * Overlay's configuration generation as observed when the run started; and the run still the
 * Overlay's current one. Any change makes the stale run stop with RECONCILE_SUPERSEDED.
 *
 * @param run the run record this run holds
 */
record RunFence(Repositories repositories, ReconcileRuns runs, Resource<Integration> integration,
    Resource<CatalogOverlay> overlay, ReconcileRuns.Run run) {

  String accountId() {
    return overlay.accountId();
  }

  /**
   * @throws IcegateException RECONCILE_SUPERSEDED naming what changed
   */
  void assertCurrent(ReadTransaction tx) {
    String account = accountId();
    DeletionFences fences = repositories.fences();
    for (ResourceRef ref : List.of(ResourceRef.account(account), integration.ref(), overlay.ref(),
        new ResourceRef(account, ResourceKind.CATALOG, overlay.spec().catalogId()))) {
      if (fences.read(tx, ref).isPresent()) {
        throw superseded(ref.kind().label() + " " + ref.id() + " is being deleted");
      }
    }
    Optional<Resource<Integration>> nowIntegration =
        repositories.integrations(account).get(tx, integration.id());
    if (nowIntegration.isEmpty()
        || nowIntegration.get().configurationGeneration() != integration.configurationGeneration()
        || nowIntegration.get().spec().credentialGeneration()
            != integration.spec().credentialGeneration()) {
      throw superseded("integration " + integration.id() + " changed its configuration or "
          + "credentials");
    }
    Optional<Resource<CatalogOverlay>> nowOverlay =
        repositories.overlays(account).get(tx, overlay.id());
    if (nowOverlay.isEmpty()
        || nowOverlay.get().configurationGeneration() != overlay.configurationGeneration()) {
      throw superseded("overlay " + overlay.id() + " changed its configuration");
    }
    runs.assertCurrent(tx, account, overlay.id(), run.generation());
  }

  /** {@link #assertCurrent} plus a lease renewal, for a transaction that publishes. */
  void assertAndRenew(Transaction tx) {
    assertCurrent(tx);
    runs.renew(tx, accountId(), overlay.id(), run);
  }

  private static IcegateException superseded(String what) {
    return new IcegateException(ErrorCode.RECONCILE_SUPERSEDED, ResourceKind.OVERLAY, what);
  }
}
