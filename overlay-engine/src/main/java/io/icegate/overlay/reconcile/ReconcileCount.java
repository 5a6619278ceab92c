package io.icegate.overlay.reconcile;

/**
 * What a run counts. Each kind has the member name it carries in JSON: in the operation's counts
 * so far ({@link ReconcileOperation#counts()}) and, for the kinds {@link #inReport()}, as a member
 * of the report ({@link ReconcileReport}); the admin API's OpenAPI document lists the same names.
 */
public enum ReconcileCount {
  /** Upstream objects whose definition discovery loaded (progress only, not in the report). */
  LOADED("loaded", false),
  /** Tables and Views created. */
  CREATED("created", true),
  /** Tables and Views whose definition or path changed. */
  UPDATED("updated", true),
  /** Tables and Views left as they were (no write). */
  UNCHANGED("unchanged", true),
  /** Managed relations absent from the inventory, deleted. */
  RETIRED("retired", true),
  /** Claims written (new uses of a Namespace by the Overlay). */
  NAMESPACES_CLAIMED("namespacesClaimed", true),
  /** Namespaces created for materialization. */
  NAMESPACES_CREATED("namespacesCreated", true),
  /** Namespaces deleted after their last claim was released. */
  NAMESPACES_PRUNED("namespacesPruned", true),
  /** Managed Tables whose upstream state was captured anew. */
  CAPTURED("captured", true),
  /** Managed Tables whose capture already named the upstream state (no write). */
  CAPTURE_UNCHANGED("captureUnchanged", true),
  /** Managed Tables whose capture failed (each with a warning). */
  CAPTURE_FAILED("captureFailed", true),
  /** Managed Tables whose new capture validated with no error. */
  VALIDATED("validated", true),
  /** Managed Tables whose validation found errors or could not run (each with a warning). */
  VALIDATION_FAILED("validationFailed", true);

  private final String member;
  private final boolean inReport;

  ReconcileCount(String member, boolean inReport) {
    this.member = member;
    this.inReport = inReport;
  }

  /** The JSON member name, e.g. {@code namespacesClaimed}. */
  public String member() {
    return member;
  }

  /** Whether the report of a completed run carries this count (every kind but {@link #LOADED}). */
  public boolean inReport() {
    return inReport;
  }
}
