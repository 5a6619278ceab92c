package io.icegate.core.jobs;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.Transaction;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a manual reconcile tells the scheduler (issue 28): a successful run published the Overlay
 * as a round would have, so its own schedule health follows at once instead of at the next
 * scheduled round: its backoff ends, its attempts and last error are cleared, and its last
 * success (and so its lag) is the manual run's start. The Integration's own backoff (an upstream
 * failure backing off every Overlay) ends too when the run started after the failing round
 * ended: its next round, which alone reads the whole union scope, is due at once; its attempts
 * and last error are left to that round. The Overlay's schedule shows that failure no more,
 * since the Overlay succeeded after it ({@link Schedules}).
 */
public final class ManualRuns {
  private static final Logger LOG = LoggerFactory.getLogger(ManualRuns.class);

  private ManualRuns() {}

  /**
   * Records that a manual reconcile of {@code overlayId} started at {@code startedAtMillis}
   * succeeded at {@code endedAtMillis}, in one transaction; nothing is written for an Overlay that
   * is gone or being deleted, for one without demand and without schedule record (manual only:
   * no schedule to clear, so an unchanged manual re-run still writes nothing), or when its record
   * already says as much. Best effort: the run has succeeded whatever this does, and the next
   * round records the Overlay's health anyway, so a store failure here is a WARN line.
   */
  public static void succeeded(Repositories repositories, String accountId, String overlayId,
      long startedAtMillis, long endedAtMillis) {
    try {
      record(repositories, accountId, overlayId, startedAtMillis, endedAtMillis);
    } catch (RuntimeException e) {
      LOG.warn("recording the manual reconcile of overlay {} in its schedule failed: {}",
          overlayId, e.getClass().getName());
    }
  }

  private static void record(Repositories repositories, String accountId, String overlayId,
      long startedAtMillis, long endedAtMillis) {
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      Optional<Resource<CatalogOverlay>> overlay =
          repositories.overlays(accountId).get(tx, overlayId);
      if (overlay.isEmpty() || repositories.fences().read(tx, overlay.get().ref()).isPresent()) {
        return null;
      }
      String integration = overlay.get().spec().integrationId();
      endIntegrationBackoff(tx, repositories, accountId, integration, startedAtMillis,
          endedAtMillis);
      Optional<SchedulerState.OverlayRound> before =
          StoredJobs.overlayRound(tx, accountId, integration, overlayId);
      if (before.isEmpty() && !EffectivePlan.hasDemand(overlay.get())) {
        return null;
      }
      Long lastSuccess = before.map(SchedulerState.OverlayRound::lastSuccessAtMillis)
          .orElse(null);
      if (before.isPresent() && !before.get().failing() && before.get().lastError() == null
          && lastSuccess != null && lastSuccess >= startedAtMillis) {
        return null; // a later round already recorded more
      }
      long success = lastSuccess == null ? startedAtMillis
          : Math.max(lastSuccess, startedAtMillis);
      StoredJobs.putOverlayRound(tx, accountId, integration, overlayId,
          new SchedulerState.OverlayRound(
              before.map(SchedulerState.OverlayRound::jobId).orElse(null), "SUCCEEDED",
              endedAtMillis, null, success, 0, 0));
      return null;
    });
  }

  /**
   * Ends the Integration's backoff when the manual run started after its failing round ended:
   * the run read the upstream as the Integration is configured now (its fence checked its
   * generations when it published), so the upstream answers again, and the Integration's next
   * round is due at once rather than when the backoff would have ended (users of other catalogs
   * expect a successful manual run to prove the upstream is back). The attempts and the last
   * error stay until that round ends: a round failing again backs off longer, and the other
   * Overlays show the failure until a round succeeded for them.
   */
  private static void endIntegrationBackoff(Transaction tx, Repositories repositories,
      String accountId, String integrationId, long startedAtMillis, long endedAtMillis) {
    Optional<Resource<Integration>> integration =
        repositories.integrations(accountId).get(tx, integrationId);
    if (integration.isEmpty()
        || repositories.fences().read(tx, integration.get().ref()).isPresent()) {
      return; // never writes back a key its deletion removes
    }
    Optional<SchedulerState> state = StoredJobs.state(tx, accountId, integrationId);
    if (state.isPresent() && state.get().attempts() > 0
        && state.get().lastAttemptAtMillis() <= startedAtMillis
        && state.get().nextAttemptAtMillis() > endedAtMillis) {
      StoredJobs.putState(tx, accountId, integrationId,
          state.get().backoffEndedAt(endedAtMillis));
    }
  }
}
