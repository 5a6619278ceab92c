package io.icegate.core.jobs;

import com.apple.foundationdb.Range;
import io.icegate.core.model.Account;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Durations;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the scheduler state says about an Overlay and an Integration (issue 28's schedule routes
 * and the lag metric), each read in one transaction. Times are epoch milliseconds.
 *
 * <p>An Overlay's health is its own (issue 28): its last success is the start (the discovery)
 * of the last round that published it, its backoff and last error those of its own failures,
 * plus its Integration's backoff and error when the upstream itself failed (which concerns every
 * Overlay of the Integration). Another Overlay's failure never shows on it.
 *
 * <p>The scheduler state is read as the planner reads it ({@link SchedulerState#forGenerations}):
 * a backoff recorded before a change of the Integration's configuration or credentials is over,
 * so {@code nextRunAt} says now (the failure and its attempts still show until a round ends).
 */
public final class Schedules {
  private final Repositories repositories;
  private final Clock clock;
  private final Duration floor;

  /** @param floor the shortest interval the server runs */
  public Schedules(Repositories repositories, Clock clock, Duration floor) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.floor = Objects.requireNonNull(floor, "floor");
  }

  /**
   * An Overlay's schedule.
   *
   * @param state {@code manual} (no interval), {@code paused} (the Overlay or its Integration),
   *     {@code running}, {@code backoff} (its last round, or its Integration's, failed and no
   *     success followed yet, including the moment between the end of the backoff and the retry)
   *     or {@code idle}
   * @param lastSuccessAt start of the last successful round it took part in, or null
   * @param lastAttemptAt end of the last round it took part in, or null
   * @param nextRunAt when the next round is due, or null without demand; for an Overlay failing
   *     on its own, when its backoff ends (it is retried then, between its Integration's rounds,
   *     and not before its Integration's own backoff ends)
   * @param lagMillis now minus {@code lastSuccessAt}, or null
   * @param lastError why its last round (or its Integration's) failed, or null
   */
  public record OverlaySchedule(String state, Long lastSuccessAt, Long lastAttemptAt,
      Long nextRunAt, Long lagMillis, SchedulerState.Problem lastError) {}

  /**
   * An Integration's effective plan and scheduler state, as the planner plans its next round: over
   * the Overlays eligible now ({@link RoundEligibility}), so Overlays backing off on their own
   * (which sit rounds out and are retried alone) shape neither the interval nor the next run.
   *
   * @param interval the interval rounds run at: the shortest requested by the healthy Overlays
   *     of the round (those being retried only when no other has demand; ISO-8601, never below
   *     the server's floor), or null without demand
   * @param retention the longest requested retention, or null (the current capture only)
   * @param scope the union of the round's Overlays' include paths (empty: the whole tree)
   * @param overlays the Overlays with demand taking part in the next round
   * @param retries the Overlays with demand backing off on their own, each with when it is
   *     retried (as {@link OverlaySchedule#nextRunAt}), in id order
   * @param paused whether the Integration is paused
   * @param nextRunAt when the next round is due ({@link RoundEligibility#nextRoundAtMillis}), or
   *     null when none is (no demand, or only Overlays retried alone)
   * @param lastSuccessAt start of the last successful round, or null
   * @param lastError why the last round failed while backing off, or null
   */
  public record IntegrationSchedule(String interval, String retention, List<List<String>> scope,
      List<String> overlays, Map<String, Long> retries, boolean paused, Long nextRunAt,
      Long lastSuccessAt, SchedulerState.Problem lastError) {}

  /** @throws io.icegate.core.error.IcegateException NOT_FOUND */
  public OverlaySchedule overlay(String accountId, String overlayId) {
    return repositories.store().read(tx -> {
      Resource<CatalogOverlay> overlay = repositories.overlays(accountId).require(tx, overlayId);
      Resource<Integration> integration = repositories.integrations(accountId)
          .require(tx, overlay.spec().integrationId());
      long now = clock.millis();
      return overlay(tx, integration, overlay, forecast(tx, integration, now), now);
    });
  }

  /** @throws io.icegate.core.error.IcegateException NOT_FOUND */
  public IntegrationSchedule integration(String accountId, String integrationId) {
    return repositories.store().read(tx -> {
      Resource<Integration> integration =
          repositories.integrations(accountId).require(tx, integrationId);
      long now = clock.millis();
      Forecast forecast = forecast(tx, integration, now);
      EffectivePlan plan = forecast.plan();
      Optional<SchedulerState> state = StoredJobs.state(tx, integration);
      Map<String, Long> retries = new LinkedHashMap<>();
      for (RoundEligibility.Waiting waiting : forecast.waiting()) {
        retries.put(waiting.overlay().id(), notBefore(now, retryAt(state, waiting.retryAtMillis())));
      }
      return new IntegrationSchedule(forecast.cadence().map(Durations::canonical).orElse(null),
          plan.retention().map(Durations::canonical).orElse(null), plan.scope(),
          plan.participants().stream().map(Resource::id).toList(), retries, plan.paused(),
          forecast.nextRoundAtMillis().map(at -> notBefore(now, at)).orElse(null),
          state.map(SchedulerState::lastSuccessAtMillis).orElse(null),
          state.filter(s -> s.attempts() > 0).map(SchedulerState::lastError).orElse(null));
    });
  }

  /**
   * Across every account (one transaction each): the lag of every Overlay with demand that took
   * part in a successful round, by Overlay id, how many Integrations are backing off, and how
   * many Overlays are backing off on their own.
   *
   * @param lags Overlay id to lag in milliseconds
   * @param backingOff Integrations whose last round failed and whose backoff has not ended
   * @param overlaysBackingOff Overlays with demand whose own last round failed (a failure of
   *     their own, not their upstream's) and no success followed: waiting for their retry, or
   *     retried now
   */
  public record Overview(Map<String, Long> lags, int backingOff, int overlaysBackingOff) {}

  /** The {@link Overview} now. */
  public Overview overview() {
    Map<String, Long> lags = new LinkedHashMap<>();
    int backingOff = 0;
    int overlaysBackingOff = 0;
    for (String accountId : accountIds(repositories)) {
      // Built from the read's answer: the read may be retried, which would count twice.
      record Counts(Map<String, Long> lags, int integrations, int overlays) {}
      Counts counts = repositories.store().read(tx -> {
        Map<String, Long> found = new LinkedHashMap<>();
        int integrations = 0;
        int overlays = 0;
        long now = clock.millis();
        for (Resource<Integration> integration : integrationsOf(tx, repositories, accountId)) {
          Forecast forecast = forecast(tx, integration, now);
          for (Resource<CatalogOverlay> overlay : forecast.withDemand()) {
            Long lag = overlay(tx, integration, overlay, forecast, now).lagMillis();
            if (lag != null) {
              found.put(overlay.id(), lag);
            }
            if (StoredJobs.overlayRound(tx, accountId, integration.id(), overlay.id())
                .map(SchedulerState.OverlayRound::failing).orElse(false)) {
              overlays++;
            }
          }
          Optional<SchedulerState> state = StoredJobs.state(tx, integration);
          if (state.isPresent() && state.get().attempts() > 0
              && state.get().nextAttemptAtMillis() > now) {
            integrations++;
          }
        }
        return new Counts(found, integrations, overlays);
      });
      lags.putAll(counts.lags());
      backingOff += counts.integrations();
      overlaysBackingOff += counts.overlays();
    }
    return new Overview(lags, backingOff, overlaysBackingOff);
  }

  /** The ids of every account, read in one transaction. */
  public static List<String> accountIds(Repositories repositories) {
    ResourceRepository<Account> accounts = repositories.accounts();
    Range range = KeyLayout.resources(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT).range();
    return repositories.store().read(tx -> {
      List<String> ids = new ArrayList<>();
      for (KeyValue kv : ReadConsistency.EVENTUAL_ALLOWED.view(tx)
          .getRange(range.begin, range.end)) {
        ids.add(accounts.codec().read(kv.value()).id());
      }
      return ids;
    });
  }

  /** The Integrations of {@code accountId}, read in {@code tx}. */
  public static List<Resource<Integration>> integrationsOf(ReadTransaction tx,
      Repositories repositories, String accountId) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    Range range = KeyLayout.resources(accountId, ResourceKind.INTEGRATION).range();
    List<Resource<Integration>> out = new ArrayList<>();
    for (KeyValue kv : ReadConsistency.EVENTUAL_ALLOWED.view(tx)
        .getRange(range.begin, range.end)) {
      out.add(integrations.codec().read(kv.value()));
    }
    return out;
  }

  /**
   * What the planner would plan at {@code now}: the effective plan over the eligible Overlays,
   * and the Overlays with demand waiting in their own backoff (in id order).
   */
  private record Forecast(EffectivePlan plan, Optional<Duration> cadence,
      Optional<Long> nextRoundAtMillis, List<RoundEligibility.Waiting> waiting) {
    /** The Overlays with demand: the round's and the waiting ones. */
    List<Resource<CatalogOverlay>> withDemand() {
      List<Resource<CatalogOverlay>> all = new ArrayList<>(plan.participants());
      waiting.forEach(w -> all.add(w.overlay()));
      return all;
    }
  }

  private Forecast forecast(ReadTransaction tx, Resource<Integration> integration, long now) {
    RoundEligibility eligibility = RoundEligibility.read(tx, repositories, integration,
        ReadConsistency.EVENTUAL_ALLOWED, now);
    List<RoundEligibility.Waiting> waiting = eligibility.waiting().stream()
        .filter(w -> EffectivePlan.hasDemand(w.overlay()))
        .sorted(Comparator.comparing((RoundEligibility.Waiting w) -> w.overlay().id()))
        .toList();
    Optional<SchedulerState> state = StoredJobs.state(tx, integration);
    EffectivePlan plan = eligibility.plan(integration, floor);
    return new Forecast(plan,
        eligibility.cadence(integration, floor).interval().or(plan::interval),
        eligibility.nextRoundAtMillis(integration, state, floor), waiting);
  }

  /**
   * When an Overlay whose own backoff ends at {@code retryAtMillis} is retried: then, but not
   * while its Integration backs off (the planner retries no Overlay then, UpstreamJobs#planDue).
   */
  /**
   * A time the answer gives as when something runs next: a round already due (before the first
   * round the stored attempt time is the epoch; after a backoff ended, the retry time is past) is
   * due now, so the answer says now, never a time in the past (a tryout's console showed 1970).
   */
  private static long notBefore(long now, long atMillis) {
    return Math.max(now, atMillis);
  }

  private static long retryAt(Optional<SchedulerState> state, long retryAtMillis) {
    return state.filter(s -> s.attempts() > 0)
        .map(s -> Math.max(s.nextAttemptAtMillis(), retryAtMillis)).orElse(retryAtMillis);
  }

  /** The Overlays of {@code accountId} bound to Integration {@code integrationId}, read in tx. */
  static List<Resource<CatalogOverlay>> overlaysOf(ReadTransaction tx, Repositories repositories,
      String accountId, String integrationId, ReadConsistency consistency) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    Range range = KeyLayout.resources(accountId, ResourceKind.OVERLAY).range();
    List<Resource<CatalogOverlay>> found = new ArrayList<>();
    for (KeyValue kv : consistency.view(tx).getRange(range.begin, range.end)) {
      Resource<CatalogOverlay> overlay = overlays.codec().read(kv.value());
      if (overlay.spec().integrationId().equals(integrationId)) {
        found.add(overlay);
      }
    }
    return found;
  }

  private static OverlaySchedule overlay(ReadTransaction tx, Resource<Integration> integration,
      Resource<CatalogOverlay> overlay, Forecast forecast, long now) {
    String account = integration.accountId();
    Optional<SchedulerState> state = StoredJobs.state(tx, integration);
    Optional<SchedulerState.OverlayRound> round =
        StoredJobs.overlayRound(tx, account, integration.id(), overlay.id());
    Optional<UpstreamJob> job = StoredJobs.job(tx, account, integration.id());
    // The Overlay's own health: its last success is the start of the last round that published
    // it, and only its own failures or its upstream's show here.
    Long lastSuccess = round.map(SchedulerState.OverlayRound::lastSuccessAtMillis).orElse(null);
    // Failing until a round succeeds, also between the end of a backoff and the retry: an
    // Overlay whose last round failed is never shown idle. Its upstream's failure shows only if
    // the Overlay has not succeeded since (a manual reconcile may have, ManualRuns).
    boolean integrationFailing = state.isPresent() && state.get().attempts() > 0
        && (lastSuccess == null || state.get().lastAttemptAtMillis() > lastSuccess);
    boolean ownFailing = round.isPresent() && round.get().failing();
    String name;
    if (overlay.spec().paused() || integration.spec().paused()) {
      name = "paused";
    } else if (overlay.spec().refreshInterval() == null) {
      name = "manual";
    } else if (job.isPresent() && job.get().includes(overlay.id()) && job.get().lease() != null
        && job.get().lease().expiresAtMillis() > now) {
      name = "running";
    } else if (integrationFailing || ownFailing) {
      name = "backoff";
    } else {
      name = "idle";
    }
    SchedulerState.Problem error = round.map(SchedulerState.OverlayRound::lastError)
        .orElse(null);
    if (error == null && integrationFailing) {
      error = state.get().lastError(); // the upstream failing, which concerns every Overlay
    }
    // Forecast as the planner plans (RoundEligibility): an Overlay failing on its own is retried
    // on its own when its backoff ends, not at the Integration's next round; the others take part
    // in the Integration's next round.
    Long next = null;
    boolean participant = forecast.plan().participants().stream()
        .anyMatch(o -> o.id().equals(overlay.id()));
    boolean waiting = forecast.waiting().stream()
        .anyMatch(w -> w.overlay().id().equals(overlay.id()));
    if ((participant || waiting) && ownFailing) {
      next = notBefore(now, retryAt(state, round.get().nextAttemptAtMillis()));
    } else if (participant) {
      next = forecast.nextRoundAtMillis().map(at -> notBefore(now, at)).orElse(null);
    }
    return new OverlaySchedule(name, lastSuccess,
        round.map(SchedulerState.OverlayRound::atMillis).orElse(null), next,
        lastSuccess == null ? null : now - lastSuccess, error);
  }
}
