package io.icegate.core.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.icegate.core.error.ErrorCode;
import java.util.List;

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
 * @param failedConfigurationGeneration the Integration's configuration generation the last failed
 *     round was planned at, or {@code null} (after a success, and in states stored before it was
 *     recorded: their backoff holds whatever changed, as it always did)
 * @param failedCredentialGeneration likewise, its credential generation
 */
public record SchedulerState(int attempts, long lastAttemptAtMillis, Long lastSuccessAtMillis,
    long nextAttemptAtMillis, Problem lastError,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long failedConfigurationGeneration,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long failedCredentialGeneration) {

  /** The state before any round. */
  static final SchedulerState NONE = new SchedulerState(0, 0, null, 0, null);

  /** A state that records no generations (a success, or none yet). */
  public SchedulerState(int attempts, long lastAttemptAtMillis, Long lastSuccessAtMillis,
      long nextAttemptAtMillis, Problem lastError) {
    this(attempts, lastAttemptAtMillis, lastSuccessAtMillis, nextAttemptAtMillis, lastError,
        null, null);
  }

  /**
   * Whether the last failure was recorded for other generations than {@code configuration} and
   * {@code credential} (the Integration's now): a PATCH of its uri or properties, or a rotation
   * of its credentials, came after the failing round was planned, so its backoff, which waited
   * for the upstream as configured then, no longer applies (a tryout fixed the uri of an
   * Integration backing off and waited out 15 minutes). False when no generations are recorded.
   */
  public boolean failedForOtherGenerations(long configuration, long credential) {
    return attempts > 0 && failedConfigurationGeneration != null
        && failedCredentialGeneration != null
        && (failedConfigurationGeneration != configuration
            || failedCredentialGeneration != credential);
  }

  /**
   * This state as the planner and the schedule views judge it for an Integration now at {@code
   * configuration} and {@code credential}: a backoff recorded for other generations is over
   * (due since the failure); the attempts and last error stay until a round ends, so the
   * failure is still shown, and a further failure counts from one again ({@link UpstreamJobs#end}).
   */
  public SchedulerState forGenerations(long configuration, long credential) {
    if (!failedForOtherGenerations(configuration, credential)
        || nextAttemptAtMillis <= lastAttemptAtMillis) {
      return this;
    }
    return new SchedulerState(attempts, lastAttemptAtMillis, lastSuccessAtMillis,
        lastAttemptAtMillis, lastError, failedConfigurationGeneration,
        failedCredentialGeneration);
  }

  /** This state with its backoff over at {@code atMillis} (attempts and last error kept). */
  SchedulerState backoffEndedAt(long atMillis) {
    return new SchedulerState(attempts, lastAttemptAtMillis, lastSuccessAtMillis,
        Math.min(nextAttemptAtMillis, atMillis), lastError, failedConfigurationGeneration,
        failedCredentialGeneration);
  }

  /**
   * A failure as the scheduler keeps it: the catalogue code, its secret-free message and any
   * itemized details (every conflict of a RECONCILE_CONFLICT, as the manual reconcile answers
   * them), so the schedule's {@code lastError} is the same problem object a reconcile answers.
   *
   * @param code an {@link io.icegate.core.error.ErrorCode} name
   * @param message the message
   * @param details the itemized details, empty when there are none (left out of the JSON)
   */
  public record Problem(String code, String message,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> details) {
    public Problem {
      details = details == null ? List.of() : List.copyOf(details);
    }

    /** A failure without itemized details. */
    public Problem(String code, String message) {
      this(code, message, List.of());
    }
  }

  /**
   * Whether a failure with catalogue code {@code code} concerns the whole Integration (its
   * upstream unreachable, failing, or not usable as configured, its secret unreadable), so the Integration backs off;
   * any other failure (a conflict in one Catalog, a mass retirement refused, ...) concerns only
   * the Overlay that met it, which backs off on its own.
   */
  public static boolean integrationWide(String code) {
    return INTEGRATION_WIDE.contains(code);
  }

  private static final java.util.Set<String> INTEGRATION_WIDE = java.util.Set.of(
      ErrorCode.UPSTREAM_UNAVAILABLE.name(), ErrorCode.UPSTREAM_FAILED.name(),
      ErrorCode.INTEGRATION_NOT_USABLE.name(),
      // the Integration's stored secret cannot be decrypted by this process: no Overlay of it
      // can run (a tryout saw each Overlay back off alone while the Integration looked healthy)
      ErrorCode.MASTER_KEY_MISMATCH.name());

  /**
   * What the rounds did for one Overlay, under its Integration's scheduler state: its own health
   * (issue 28), so one Overlay's failure neither backs off nor shows on the Integration's others.
   *
   * @param jobId the last round it took part in, or {@code null} when only a manual reconcile
   *     recorded its health ({@link ManualRuns})
   * @param outcome SUCCEEDED, JOINED (a reconcile already held the Overlay), SUPERSEDED (a newer
   *     reconcile published) or FAILED
   * @param atMillis when that round (or a later successful manual reconcile) ended
   * @param lastError the failure for FAILED, else {@code null}
   * @param lastSuccessAtMillis start of the last round that published it successfully, or null
   * @param attempts its consecutive failed rounds of its own (failures that are not {@link
   *     #integrationWide}: those back off the Integration instead)
   * @param nextAttemptAtMillis it takes part in no round planned before this
   */
  public record OverlayRound(String jobId, String outcome, long atMillis, Problem lastError,
      Long lastSuccessAtMillis, int attempts, long nextAttemptAtMillis) {

    /** What one round did, before it is merged with the Overlay's earlier rounds. */
    public OverlayRound(String jobId, String outcome, long atMillis, Problem lastError) {
      this(jobId, outcome, atMillis, lastError, null, 0, 0);
    }

    /** Whether the Overlay is backing off on its own at {@code now}. */
    public boolean backingOff(long now) {
      return failing() && nextAttemptAtMillis > now;
    }

    /**
     * Whether its last own round failed and no success followed yet: it backs off, then is
     * retried on its own when the backoff ends ({@link UpstreamJob.Kind#RETRY}).
     */
    public boolean failing() {
      return attempts > 0;
    }
  }
}
