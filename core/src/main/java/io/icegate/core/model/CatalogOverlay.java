package io.icegate.core.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.icegate.core.error.IcegateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * A CatalogOverlay (seed 000, "Catalog overlay"): one Integration's selection of upstream
 * namespaces, exposed in an existing Catalog of the same account. Display names are unique among
 * the account's Overlays and reserve no Catalog or Integration name (each kind has its own
 * name-index range). {@code integrationId} and {@code catalogId} bind by immutable id, so renaming
 * either resource leaves the binding valid; both are immutable through update (IMMUTABLE_MEMBER)
 * because changing them would retarget everything the Overlay materialized. Changing the selection
 * is a configuration change (advances the configuration generation); a rename is not.
 *
 * <p>Selection paths go from the upstream catalog root to a namespace, are matched
 * case-sensitively and keep their segment boundaries ({@code ["a.b"]} and {@code ["a","b"]} differ).
 * The constructor normalizes both lists: exact duplicates are dropped and the paths sorted
 * segment by segment, so equal selections are equal records (and equal request fingerprints). An
 * empty include list selects the whole upstream tree; exclusion wins over inclusion.
 *
 * @param displayName display name, 1 to 255 characters
 * @param integrationId id of the Integration in the same account
 * @param catalogId id of the target Catalog in the same account
 * @param includeNamespaces selected paths; never {@code null}, each 1 to 16 non-empty segments
 * @param excludeNamespaces excluded paths; same shape
 * @param refreshInterval refresh demand (issue 28): an ISO-8601 duration of at least {@link
 *     #MIN_REFRESH_INTERVAL}, normalized ({@code PT300S} is stored as {@code PT5M}); {@code null}
 *     refreshes on request only. Read when planning, so changing it supersedes nothing.
 * @param retention captured history to keep (issue 28): an ISO-8601 duration; {@code null} keeps
 *     the current capture only. Read when pruning.
 * @param paused whether the Overlay's demand is withdrawn; a pause change is a configuration
 *     change (seed 000 lists pause among the changes that invalidate older work)
 * @throws IcegateException INVALID_ARGUMENT on a bad name, id, path, duration (naming the
 *     member) or more than {@link #MAX_PATHS} paths per list
 */
public record CatalogOverlay(
    String displayName,
    String integrationId,
    String catalogId,
    List<List<String>> includeNamespaces,
    List<List<String>> excludeNamespaces,
    // omitted while unset: records of Overlays without demand keep their stored bytes
    @JsonInclude(JsonInclude.Include.NON_NULL) String refreshInterval,
    @JsonInclude(JsonInclude.Include.NON_NULL) String retention,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean paused)
    implements ResourceSpec {

  /** The shortest refresh interval an Overlay may request (a server flag may raise it). */
  public static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(5);

  /** Most paths in one selection list; keeps the record far below the store's value limit. */
  public static final int MAX_PATHS = 100;

  private static final Comparator<List<String>> PATH_ORDER = (a, b) -> {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  };

  public CatalogOverlay {
    Names.requireName(displayName, "displayName");
    Names.requireId(integrationId, "integrationId");
    Names.requireId(catalogId, "catalogId");
    includeNamespaces = normalize(includeNamespaces, "includeNamespaces");
    excludeNamespaces = normalize(excludeNamespaces, "excludeNamespaces");
    refreshInterval = Durations.normalize(refreshInterval, "refreshInterval",
        MIN_REFRESH_INTERVAL);
    retention = Durations.normalize(retention, "retention", Duration.ofMillis(1));
  }

  /** An Overlay without refresh demand or retention, not paused (manual reconcile only). */
  public CatalogOverlay(String displayName, String integrationId, String catalogId,
      List<List<String>> includeNamespaces, List<List<String>> excludeNamespaces) {
    this(displayName, integrationId, catalogId, includeNamespaces, excludeNamespaces, null, null,
        false);
  }

  /** The refresh interval, or empty for manual refresh only. */
  @JsonIgnore
  public Optional<Duration> refreshEvery() {
    return Optional.ofNullable(refreshInterval).map(Duration::parse);
  }

  /** The retention, or empty for the current capture only. */
  @JsonIgnore
  public Optional<Duration> retentionPeriod() {
    return Optional.ofNullable(retention).map(Duration::parse);
  }

  /** This overlay with other demand (interval, retention, pause). */
  public CatalogOverlay withDemand(String interval, String keep, boolean pause) {
    return new CatalogOverlay(displayName, integrationId, catalogId, includeNamespaces,
        excludeNamespaces, interval, keep, pause);
  }

  /**
   * Whether a change from {@code other} to this is a configuration change: the selection or the
   * pause (interval and retention are read when planning and pruning, so they are not).
   */
  public boolean configurationDiffers(CatalogOverlay other) {
    return selectionDiffers(other) || paused != other.paused;
  }

  @Override
  public ResourceKind kind() {
    return ResourceKind.OVERLAY;
  }

  @Override
  public NameScope nameScope() {
    return NameScope.ACCOUNT_WIDE;
  }

  @Override
  public CatalogOverlay withName(NameScope scope, String name) {
    if (!(scope instanceof NameScope.AccountWide)) {
      throw IcegateException.invalidArgument("an overlay name is account-wide");
    }
    return new CatalogOverlay(name, integrationId, catalogId, includeNamespaces,
        excludeNamespaces, refreshInterval, retention, paused);
  }

  /** This overlay with another selection (a configuration change). */
  public CatalogOverlay withSelection(List<List<String>> include, List<List<String>> exclude) {
    return new CatalogOverlay(displayName, integrationId, catalogId, include, exclude,
        refreshInterval, retention, paused);
  }

  /** Whether this overlay's selection differs from {@code other}'s. */
  public boolean selectionDiffers(CatalogOverlay other) {
    return !includeNamespaces.equals(other.includeNamespaces)
        || !excludeNamespaces.equals(other.excludeNamespaces);
  }

  private static List<List<String>> normalize(List<List<String>> paths, String what) {
    if (paths == null) {
      return List.of();
    }
    if (paths.size() > MAX_PATHS) {
      throw IcegateException.invalidArgument(what + " holds more than " + MAX_PATHS + " paths");
    }
    LinkedHashSet<List<String>> unique = new LinkedHashSet<>();
    for (List<String> path : paths) {
      if (path == null) {
        throw IcegateException.invalidArgument(what + " must not hold null paths");
      }
      unique.add(Names.requirePath(path, false));
    }
    List<List<String>> sorted = new ArrayList<>(unique);
    sorted.sort(PATH_ORDER);
    return List.copyOf(sorted);
  }
}
