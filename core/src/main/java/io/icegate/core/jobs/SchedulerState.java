package io.icegate.core.jobs;

/**
 * The scheduler state of one Integration (issue 27; seed 000 "scheduler state — leases, attempts,
 * progress, last success"), under {@link io.icegate.core.store.KeySubspace#SCHEDULES}: written when
 * a round ends, read when planning the next.
 *
 * @param attempts consecutive failed rounds (0 after a success)
 * @param lastAttemptAtMillis when the last round ended
 * @param lastSuccessAtMillis when the last successful round started (its discovery), or {@code
 *     null}
 * @param nextAttemptAtMillis no round is planned before this (exponential backoff after failures)
 * @param lastError why the last failed round failed, or {@code null} after a success
 */
public record SchedulerState(int attempts, long lastAttemptAtMillis, Long lastSuccessAtMillis,
    long nextAttemptAtMillis, Problem lastError) {

  /** The state before any round. */
  static final SchedulerState NONE = new SchedulerState(0, 0, null, 0, null);

  /**
   * A failure as the scheduler keeps it: the catalogue code and its secret-free message.
   *
   * @param code an {@link io.icegate.core.error.ErrorCode} name
   * @param message the message
   */
  public record Problem(String code, String message) {}

  /**
   * What the last round did for one Overlay, under its Integration's scheduler state.
   *
   * @param jobId the round
   * @param outcome SUCCEEDED, JOINED (a reconcile already held the Overlay), SUPERSEDED (a newer
   *     reconcile published) or FAILED
   * @param atMillis when the round ended
   * @param lastError the failure for FAILED, else {@code null}
   */
  public record OverlayRound(String jobId, String outcome, long atMillis, Problem lastError) {}
}
