package io.icegate.overlay.reconcile;

import java.util.List;
import java.util.Map;

/**
 * An asynchronous reconcile as {@code GET .../operations/{id}} shows it (DESIGN.md, reconcile
 * route): phase and counts so far while it runs, then the report or the problem.
 *
 * @param id the operation id
 * @param overlayId the reconciled Overlay
 * @param state RUNNING, SUCCEEDED or FAILED
 * @param phase the run's phase ({@link ReconcileProgress.Phase})
 * @param counts counts so far by member name ({@link ReconcileCounts#asMap()})
 * @param report the report once SUCCEEDED, else {@code null}
 * @param problem the failure once FAILED, else {@code null}
 * @param startedAtMillis epoch milliseconds of the start
 * @param finishedAtMillis epoch milliseconds of the end, or {@code null} while running; for a run
 *     found interrupted, its last heartbeat (the last time it was known alive)
 * @param updatedAtMillis epoch milliseconds of the last store of this record: at start, at each
 *     phase change, at every heartbeat of the running process (every 10 s by default) and at the
 *     end. A RUNNING record
 *     not renewed for the staleness bound (30 s by default) is answered FAILED with {@code
 *     RECONCILE_INTERRUPTED} ({@link ReconcileOperations}). {@code null} in records stored before
 *     the heartbeat existed, which then count from {@code startedAtMillis}
 */
public record ReconcileOperation(
    String id,
    String overlayId,
    State state,
    String phase,
    Map<String, Long> counts,
    ReconcileReport report,
    Problem problem,
    long startedAtMillis,
    Long finishedAtMillis,
    Long updatedAtMillis) {

  /** Where an operation is. */
  public enum State { RUNNING, SUCCEEDED, FAILED }

  /**
   * Why an operation failed: the catalogue code, its HTTP status, the message and any itemized
   * details (e.g. every conflict). Secret-free like every catalogue message.
   */
  public record Problem(String code, int status, String detail, List<String> details) {
    public Problem {
      details = details == null ? List.of() : List.copyOf(details);
    }
  }

  public ReconcileOperation {
    counts = Map.copyOf(counts);
  }
}
