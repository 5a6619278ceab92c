package io.icegate.core.jobs;

import java.util.List;
import java.util.Objects;

/**
 * One round of upstream work for one Integration (issue 27): discovery of the scope its
 * participating Overlays select, then publication into each of them. Stored under {@link
 * io.icegate.core.store.KeySubspace#JOBS}, never on the Integration or Overlay record. It carries
 * what it was planned under, so every publication can assert nothing it depends on moved ({@link
 * JobFence}).
 *
 * @param jobId identity of this planned round; a replanned round is a new job
 * @param accountId the account
 * @param integrationId the Integration whose upstream the round reads
 * @param integrationConfigurationGeneration the Integration's configuration generation as planned
 * @param credentialGeneration the Integration's credential generation as planned
 * @param participants the Overlays the round publishes into, each with its generation as planned
 * @param plannedAtMillis when the round was planned (the planner's clock)
 * @param epoch how many holders took the lease so far; a takeover takes the next epoch, which
 *     fences every earlier holder out
 * @param lease the current holder, or {@code null} while nobody ran the job yet
 * @param kind the Integration's round, or a retry of Overlays whose own backoff ended ({@code
 *     null} in jobs stored before retries existed: a round)
 */
public record UpstreamJob(String jobId, String accountId, String integrationId,
    long integrationConfigurationGeneration, long credentialGeneration,
    List<Participant> participants, long plannedAtMillis, long epoch, Lease lease, Kind kind) {

  public UpstreamJob {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(integrationId, "integrationId");
    participants = List.copyOf(participants);
    kind = kind == null ? Kind.ROUND : kind;
  }

  /** What a job is for. */
  public enum Kind {
    /** The Integration's round: due by its effective plan, or asked for directly. */
    ROUND,
    /**
     * Between the Integration's rounds, only the Overlays whose own backoff ended (issue 28): an
     * Overlay's retry does not wait for its Integration's next interval, and starts no upstream
     * work for the others. Its end records no Integration success, so the cadence of the
     * Integration's rounds (and the others' lag) is unchanged.
     */
    RETRY
  }

  /**
   * An Overlay taking part in the round.
   *
   * @param overlayId the Overlay
   * @param catalogId its target Catalog (its deletion fence also fences the job)
   * @param configurationGeneration its configuration generation as planned
   */
  public record Participant(String overlayId, String catalogId, long configurationGeneration) {
    public Participant {
      Objects.requireNonNull(overlayId, "overlayId");
      Objects.requireNonNull(catalogId, "catalogId");
    }
  }

  /**
   * Who runs the job and until when, by that holder's own clock: others may take over once it
   * lapsed by theirs, so the holder renews it well before (a heartbeat; the clocks of the
   * processes must agree within the lease, as for reconcile run records).
   *
   * @param holder the scheduler instance holding the job
   * @param acquiredAtMillis when this holder took it (the start of its round)
   * @param expiresAtMillis when it lapses
   */
  public record Lease(String holder, long acquiredAtMillis, long expiresAtMillis) {
    public Lease {
      Objects.requireNonNull(holder, "holder");
    }
  }

  /** Whether {@code overlayId} takes part. */
  public boolean includes(String overlayId) {
    return participants.stream().anyMatch(p -> p.overlayId().equals(overlayId));
  }

  /** Whether {@code other} is this job as held by the same holder at the same epoch. */
  public boolean sameHolding(UpstreamJob other) {
    return other.jobId.equals(jobId) && other.epoch == epoch && other.lease != null
        && lease != null && other.lease.holder().equals(lease.holder());
  }

  /** This job leased to {@code next} at {@code epoch}. */
  UpstreamJob leasedTo(Lease next, long epoch) {
    return new UpstreamJob(jobId, accountId, integrationId, integrationConfigurationGeneration,
        credentialGeneration, participants, plannedAtMillis, epoch, next, kind);
  }
}
