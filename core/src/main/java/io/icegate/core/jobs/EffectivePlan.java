package io.icegate.core.jobs;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The effective plan of one Integration (seed 000 "Refresh and reconciliation ownership", issue
 * 28), computed from the Integration and its Overlays as one planning transaction reads them:
 *
 * <ul>
 *   <li>an Overlay has demand when it is not paused and requests a refresh interval; a paused
 *       Integration has no demand at all (it starts no upstream work);
 *   <li>the interval is the shortest requested (never below the server's floor), the retention
 *       the longest requested;
 *   <li>the discovery scope is the union of the active Overlays' include paths: a path under
 *       another is covered by it, and any Overlay selecting the whole tree makes the scope the
 *       whole tree (each Overlay's exclusions still apply to what it publishes).
 * </ul>
 *
 * @param integrationId the Integration
 * @param paused whether the Integration is paused
 * @param participants the Overlays with demand, in id order
 * @param interval the shortest requested interval, or empty without demand
 * @param retention the longest requested retention, or empty (the current capture only)
 * @param scope the union of the participants' include paths; empty means the whole tree when
 *     there are participants
 */
public record EffectivePlan(String integrationId, boolean paused,
    List<Resource<CatalogOverlay>> participants, Optional<Duration> interval,
    Optional<Duration> retention, List<List<String>> scope) {

  public EffectivePlan {
    Objects.requireNonNull(integrationId, "integrationId");
    participants = List.copyOf(participants);
    scope = List.copyOf(scope);
  }

  /**
   * The plan of {@code integration} over {@code overlays} (its Overlays: those of other
   * Integrations are ignored).
   *
   * @param floor the shortest interval the server runs (its minimum, which may be above the
   *     Overlays' own minimum)
   */
  public static EffectivePlan of(Resource<Integration> integration,
      List<Resource<CatalogOverlay>> overlays, Duration floor) {
    boolean paused = integration.spec().paused();
    List<Resource<CatalogOverlay>> active = new ArrayList<>();
    if (!paused) {
      for (Resource<CatalogOverlay> overlay : overlays) {
        if (overlay.spec().integrationId().equals(integration.id()) && hasDemand(overlay)) {
          active.add(overlay);
        }
      }
    }
    active.sort(Comparator.comparing(Resource::id));
    Optional<Duration> interval = active.stream()
        .map(o -> o.spec().refreshEvery().orElseThrow())
        .min(Comparator.naturalOrder())
        .map(d -> d.compareTo(floor) < 0 ? floor : d);
    Optional<Duration> retention = active.stream()
        .flatMap(o -> o.spec().retentionPeriod().stream())
        .max(Comparator.naturalOrder());
    return new EffectivePlan(integration.id(), paused, active, interval, retention,
        union(active));
  }

  /** Whether {@code overlay} asks to be refreshed: not paused, with an interval. */
  public static boolean hasDemand(Resource<CatalogOverlay> overlay) {
    return !overlay.spec().paused() && overlay.spec().refreshInterval() != null;
  }

  /**
   * When the next round is due, or empty when none is (no demand): at once before any round;
   * after a failure when the backoff ends; else one interval after the start of the last
   * successful round (so the lag stays within the interval plus a round).
   */
  public Optional<Long> nextRunAtMillis(Optional<SchedulerState> stored) {
    SchedulerState state = stored.orElse(SchedulerState.NONE);
    if (interval.isEmpty()) {
      return Optional.empty();
    }
    if (state.attempts() > 0 || state.lastSuccessAtMillis() == null) {
      return Optional.of(state.nextAttemptAtMillis());
    }
    return Optional.of(Math.max(state.nextAttemptAtMillis(),
        state.lastSuccessAtMillis() + interval.get().toMillis()));
  }

  private static List<List<String>> union(List<Resource<CatalogOverlay>> active) {
    List<List<String>> paths = new ArrayList<>();
    for (Resource<CatalogOverlay> overlay : active) {
      if (overlay.spec().includeNamespaces().isEmpty()) {
        return List.of(); // one Overlay selects the whole tree
      }
      paths.addAll(overlay.spec().includeNamespaces());
    }
    paths.sort(Comparator.comparingInt((List<String> p) -> p.size())
        .thenComparing(Object::toString));
    List<List<String>> covering = new ArrayList<>();
    for (List<String> path : paths) {
      if (covering.stream().noneMatch(c -> path.size() >= c.size()
          && path.subList(0, c.size()).equals(c))) {
        covering.add(path);
      }
    }
    return covering;
  }
}
