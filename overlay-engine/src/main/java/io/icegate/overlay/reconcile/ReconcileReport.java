package io.icegate.overlay.reconcile;

import java.util.List;

/**
 * The answer of a completed run (DESIGN.md, reconcile route).
 *
 * @param overlayId the reconciled Overlay
 * @param runGeneration the run generation this run recorded; a run that published nothing records
 *     none and reports the generation it observed at start (the last recorded run's, 0 if none)
 * @param created Tables and Views created
 * @param updated Tables and Views whose definition or path changed
 * @param unchanged Tables and Views left as they were (no write)
 * @param retired managed relations absent from the inventory, deleted
 * @param namespacesClaimed claims written (new uses of a Namespace by the Overlay)
 * @param namespacesCreated Namespaces created for materialization
 * @param namespacesPruned Namespaces deleted after their last claim was released
 * @param captured managed Iceberg Tables whose upstream state was captured anew
 * @param captureUnchanged managed Iceberg Tables whose capture already named the upstream
 *     metadata location (no write)
 * @param captureFailed managed Iceberg Tables whose capture failed (each with a warning)
 * @param validated managed Iceberg Tables whose new capture validated with no error
 * @param validationFailed managed Iceberg Tables whose validation found errors or could not run
 *     (each with a warning)
 * @param held listed upstream objects that published nothing this run and kept what was
 *     materialized of them (issue 21 "Held objects"), each naming who is to blame
 * @param warnings e.g. a stable identity shared by two upstream paths, a failed capture
 * @param durationMillis wall time of the run
 */
public record ReconcileReport(
    String overlayId,
    long runGeneration,
    long created,
    long updated,
    long unchanged,
    long retired,
    long namespacesClaimed,
    long namespacesCreated,
    long namespacesPruned,
    long captured,
    long captureUnchanged,
    long captureFailed,
    long validated,
    long validationFailed,
    List<Held> held,
    List<String> warnings,
    long durationMillis) {

  /**
   * One held object of the report.
   *
   * @param kind {@code table}, {@code view} or {@code namespace}
   * @param path its namespace segments and name (a namespace: its segments)
   * @param code an error catalogue code: {@code NOT_REPRESENTABLE} (a limit of icegate's), {@code
   *     UPSTREAM_OBJECT_INVALID}, {@code STORAGE_CREDENTIALS_FAILED}, {@code
   *     PATH_HELD_BY_HELD_OBJECT}, or an upstream failure ({@code UPSTREAM_FAILED}, {@code
   *     UPSTREAM_UNAVAILABLE}, {@code NOT_FOUND}, {@code INTEGRATION_NOT_USABLE})
   * @param message what happened, naming the object (no secrets)
   */
  public record Held(String kind, List<String> path, String code, String message) {
    public Held {
      path = List.copyOf(path);
    }
  }

  public ReconcileReport {
    // a report stored before issue 21 has no held member
    held = held == null ? List.of() : List.copyOf(held);
    warnings = List.copyOf(warnings);
  }

  static ReconcileReport of(String overlayId, long generation, ReconcileProgress p,
      List<HeldObject> held, List<String> warnings, long durationMillis) {
    return new ReconcileReport(overlayId, generation, p.created.get(), p.updated.get(),
        p.unchanged.get(), p.retired.get(), p.namespacesClaimed.get(), p.namespacesCreated.get(),
        p.namespacesPruned.get(), p.captured.get(), p.captureUnchanged.get(),
        p.captureFailed.get(), p.validated.get(), p.validationFailed.get(),
        held.stream().map(HeldObject::toReport).toList(), warnings, durationMillis);
  }
}
