package io.icegate.core.overlay;

import io.icegate.core.model.CatalogOverlay;
import java.util.List;
import java.util.Optional;

/**
 * A PATCH of an Overlay: each {@code null} member keeps the stored value. The two durations can
 * also be removed, so they are {@link Optional}: {@code null} keeps, empty removes (back to
 * manual refresh, to the current capture only), a value sets.
 *
 * @param displayName a new name
 * @param integrationId must equal the stored one (IMMUTABLE_MEMBER)
 * @param catalogId must equal the stored one (IMMUTABLE_MEMBER)
 * @param include a new include list
 * @param exclude a new exclude list
 * @param refreshInterval keep, remove or set the refresh interval
 * @param retention keep, remove or set the retention
 * @param paused pause or resume
 */
public record OverlayPatch(String displayName, String integrationId, String catalogId,
    List<List<String>> include, List<List<String>> exclude, Optional<String> refreshInterval,
    Optional<String> retention, Boolean paused) {

  /** A patch of name and selection only. */
  public static OverlayPatch of(String displayName, String integrationId, String catalogId,
      List<List<String>> include, List<List<String>> exclude) {
    return new OverlayPatch(displayName, integrationId, catalogId, include, exclude, null, null,
        null);
  }

  /** {@code now} with this patch applied (bindings are checked by the caller). */
  CatalogOverlay applyTo(CatalogOverlay now) {
    return new CatalogOverlay(
        displayName == null ? now.displayName() : displayName,
        now.integrationId(), now.catalogId(),
        include == null ? now.includeNamespaces() : include,
        exclude == null ? now.excludeNamespaces() : exclude,
        refreshInterval == null ? now.refreshInterval() : refreshInterval.orElse(null),
        retention == null ? now.retention() : retention.orElse(null),
        paused == null ? now.paused() : paused);
  }
}
