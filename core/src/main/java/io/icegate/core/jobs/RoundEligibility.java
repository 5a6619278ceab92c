package io.icegate.core.jobs;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which of an Integration's Overlays a job planned at {@code now} may take part in (issue 28).
 * The one definition the planner ({@link UpstreamJobs#planDue}) plans by and the schedule views
 * ({@link Schedules}) forecast by, so an answer never describes rounds the planner would not run
 * (a tryout saw the schedule answer the interval of Overlays sitting rounds out).
 *
 * <ul>
 *   <li>a paused Integration has no eligible Overlay (it starts no upstream work);
 *   <li>an Overlay being deleted, or whose Catalog is, never takes part;
 *   <li>an Overlay backing off on its own sits rounds out until its backoff ends ({@link
 *       #waiting}); once it ended, the Overlay is eligible again and {@link #retrying}.
 * </ul>
 *
 * <p>The Integration's rounds run at the cadence of its healthy Overlays ({@link #cadence}): an
 * Overlay being retried joins a round that is due, but its own (perhaps shorter) interval makes
 * no round due, so a failing Overlay's retry starts no upstream work for the others.
 *
 * @param eligible the Overlays that may take part now (demand aside: {@link EffectivePlan}
 *     picks those with demand)
 * @param retrying the ids of those among them whose last own round failed (their backoff ended)
 * @param waiting the Overlays backing off on their own now, each with when its backoff ends
 */
public record RoundEligibility(List<Resource<CatalogOverlay>> eligible, Set<String> retrying,
    List<Waiting> waiting) {

  public RoundEligibility {
    eligible = List.copyOf(eligible);
    retrying = Set.copyOf(retrying);
    waiting = List.copyOf(waiting);
  }

  /**
   * An Overlay sitting rounds out in its own backoff.
   *
   * @param overlay the Overlay
   * @param retryAtMillis when its backoff ends: it is retried then
   */
  public record Waiting(Resource<CatalogOverlay> overlay, long retryAtMillis) {}

  /**
   * The eligibility of {@code integration}'s Overlays at {@code now}, read in {@code tx}.
   *
   * @param consistency how the Overlays are listed (the planner reads STRONG)
   */
  public static RoundEligibility read(ReadTransaction tx, Repositories repositories,
      Resource<Integration> integration, ReadConsistency consistency, long now) {
    List<Resource<CatalogOverlay>> eligible = new ArrayList<>();
    Set<String> retrying = new HashSet<>();
    List<Waiting> waiting = new ArrayList<>();
    if (integration.spec().paused()) {
      return new RoundEligibility(eligible, retrying, waiting);
    }
    String accountId = integration.accountId();
    for (Resource<CatalogOverlay> overlay : Schedules.overlaysOf(tx, repositories, accountId,
        integration.id(), consistency)) {
      if (fenced(tx, repositories, overlay.ref()) || fenced(tx, repositories,
          new ResourceRef(accountId, ResourceKind.CATALOG, overlay.spec().catalogId()))) {
        continue;
      }
      Optional<SchedulerState.OverlayRound> own =
          StoredJobs.overlayRound(tx, accountId, integration.id(), overlay.id());
      if (own.isPresent() && own.get().backingOff(now)) {
        waiting.add(new Waiting(overlay, own.get().nextAttemptAtMillis()));
        continue;
      }
      eligible.add(overlay);
      if (own.isPresent() && own.get().failing()) {
        retrying.add(overlay.id());
      }
    }
    return new RoundEligibility(eligible, retrying, waiting);
  }

  /** The plan of the next round: over every eligible Overlay with demand, retried ones too. */
  public EffectivePlan plan(Resource<Integration> integration, Duration floor) {
    return EffectivePlan.of(integration, eligible, floor);
  }

  /** The plan over the healthy eligible Overlays (not being retried): it sets the cadence. */
  public EffectivePlan cadence(Resource<Integration> integration, Duration floor) {
    return EffectivePlan.of(integration, eligible.stream()
        .filter(o -> !retrying.contains(o.id())).toList(), floor);
  }

  /**
   * When the Integration's next round is due ({@link EffectivePlan#nextRunAtMillis}): before its
   * first round and while it backs off by its own state, for every eligible Overlay; else by the
   * cadence of its healthy Overlays. Empty without demand, and when only Overlays being retried
   * have demand (they are retried alone).
   */
  public Optional<Long> nextRoundAtMillis(Resource<Integration> integration,
      Optional<SchedulerState> state, Duration floor) {
    SchedulerState s = state.orElse(SchedulerState.NONE);
    return s.attempts() > 0 || s.lastSuccessAtMillis() == null
        ? plan(integration, floor).nextRunAtMillis(state)
        : cadence(integration, floor).nextRunAtMillis(state);
  }

  /** When {@code overlayId} is retried, if it is waiting in its own backoff. */
  public Optional<Long> retryAtMillis(String overlayId) {
    return waiting.stream().filter(w -> w.overlay().id().equals(overlayId))
        .map(Waiting::retryAtMillis).findFirst();
  }

  private static boolean fenced(ReadTransaction tx, Repositories repositories, ResourceRef ref) {
    return repositories.fences().read(tx, ref).isPresent();
  }
}
