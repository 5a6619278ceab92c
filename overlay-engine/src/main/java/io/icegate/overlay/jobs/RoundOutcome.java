package io.icegate.overlay.jobs;

import io.icegate.core.jobs.SchedulerState;
import java.util.Map;

/**
 * What one call of {@link UpstreamJobRunner#runRound} did.
 *
 * @param state how the round went
 * @param jobId the job, or {@code null} when none was planned
 * @param overlays each participating Overlay's outcome (empty unless the round ran)
 * @param detail why it failed or was cancelled, or {@code null}
 */
public record RoundOutcome(State state, String jobId,
    Map<String, SchedulerState.OverlayRound> overlays, String detail) {

  public RoundOutcome {
    overlays = Map.copyOf(overlays);
  }

  /** How a round went. */
  public enum State {
    /** Nothing to do: no Overlay with demand, backing off, or the Integration is gone. */
    IDLE,
    /** Another holder's lease on the job lives. */
    BUSY,
    /** Every participating Overlay was published (or was being reconciled already). */
    SUCCEEDED,
    /**
     * At least one Overlay failed: the upstream failing backs off the Integration, an Overlay's
     * own failure that Overlay only.
     */
    FAILED,
    /** Something the job depended on moved, or another holder took it: nothing more published. */
    CANCELLED
  }

  static RoundOutcome of(State state, String jobId) {
    return new RoundOutcome(state, jobId, Map.of(), null);
  }
}
