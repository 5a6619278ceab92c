package io.icegate.core.jobs;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Durable upstream jobs and their leases in the store (issue 27): plan a round for an
 * Integration, take its lease, renew it, end the round. Several gateway processes over one store
 * (FoundationDB in production) each run an instance with its own holder id; the lease, a field
 * of the job record written in serializable transactions, makes sure only one runs a job at a
 * time.
 *
 * <ul>
 *   <li><b>Plan</b> ({@link #plan}): one transaction reads the Integration, its Overlays (STRONG)
 *       and its scheduler state, and stores a job recording the generations of each when there is
 *       work: no deletion fence, not backing off, at least one Overlay with demand. A stored job
 *       that is still current is returned as it is; one that is no longer (see {@link JobFence})
 *       is replaced by a new job.
 *   <li><b>Lease</b> ({@link #acquire}): taken when free or lapsed by this instance's clock; a
 *       new holder takes the next epoch, so the previous holder (crashed, or only stalled) fails
 *       its next fenced transaction and the new one starts the round from a clean state: nothing
 *       of a round lives outside the job record, whose planned generations are re-checked by
 *       every publication. Renewal ({@link #renew}) rewrites one key.
 *   <li><b>End</b> ({@link #end}, {@link #cancel}): removes the job and, for an ended round,
 *       writes the scheduler state (attempts, exponential capped backoff, last error, last
 *       success) and each Overlay's outcome, only while the holder still holds the job and only
 *       for an Integration and Overlays still present and unfenced, so an end racing a delete
 *       never writes back a key the delete removed.
 * </ul>
 *
 * Every transaction here decides from what it reads, so it is safe to retry after an unknown
 * commit result. Thread-safe.
 */
public final class UpstreamJobs {
  private final Repositories repositories;
  private final KvStore store;
  private final Clock clock;
  private final Duration lease;
  private final Backoff backoff;
  private final JobFence fence;
  private final DeletionFences fences;

  /**
   * @param clock this holder's clock: leases are taken and judged lapsed by it
   * @param lease how long a holder keeps a job without renewing
   */
  public UpstreamJobs(Repositories repositories, Clock clock, Duration lease, Backoff backoff) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.store = repositories.store();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = Objects.requireNonNull(lease, "lease");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.fence = new JobFence(repositories, clock);
    this.fences = repositories.fences();
  }

  /** The fence publications of jobs taken here assert. */
  public JobFence fence() {
    return fence;
  }

  /** How long a lease lasts without renewal. */
  public Duration lease() {
    return lease;
  }

  /**
   * Plans a round for Integration {@code integrationId} with the Overlays {@code demand} picks,
   * or returns the current planned one; a round is planned whenever the Integration is not
   * backing off (rounds on request, and tests).
   *
   * @param demand which of the Integration's Overlays take part; read in the planning transaction
   * @return the job, or empty when there is no work: the account or Integration is gone, being
   *     deleted or paused, the Integration is backing off, or no Overlay has demand
   */
  public Optional<UpstreamJob> plan(String accountId, String integrationId,
      Predicate<Resource<CatalogOverlay>> demand) {
    return plan(accountId, integrationId, demand, null);
  }

  /**
   * As {@link #plan(String, String, Predicate)}, and in the same transaction takes the job's
   * lease for {@code holder} as {@link #acquire} would: planning and leasing a round is one write.
   *
   * @param holder who runs the round, or {@code null} to plan without leasing
   * @return the job (leased to {@code holder} unless another holder's lease lives), or empty
   */
  public Optional<UpstreamJob> plan(String accountId, String integrationId,
      Predicate<Resource<CatalogOverlay>> demand, String holder) {
    return plan(accountId, integrationId, (integration, eligibility, state, now) ->
        new Choice(UpstreamJob.Kind.ROUND,
            state.orElse(SchedulerState.NONE).nextAttemptAtMillis() > now ? List.of()
                : eligibility.eligible().stream().filter(demand).toList()), holder);
  }

  /**
   * Plans the next round of Integration {@code integrationId} by its {@link EffectivePlan} when
   * it is due, or returns the current planned one: the demand, the interval and the pauses are
   * read in the planning transaction, so a change takes effect at the next planning step, and of
   * several processes planning at once only one plans the round.
   *
   * <p>Between the Integration's rounds, the Overlays whose own backoff ended (their last own
   * round failed) are retried at once in a {@link UpstreamJob.Kind#RETRY} job of their own, unless
   * the Integration itself backs off: an Overlay's retry does not wait for the interval. The
   * round's cadence is that of the healthy Overlays ({@link RoundEligibility#nextRoundAtMillis}):
   * a retried Overlay's shorter interval does not make the others' round due.
   *
   * @param floor the shortest interval this server runs
   * @return the job, or empty when there is none to run now
   */
  public Optional<UpstreamJob> planDue(String accountId, String integrationId, Duration floor) {
    return planDue(accountId, integrationId, floor, null);
  }

  /**
   * As {@link #planDue(String, String, Duration)}, leasing the job to {@code holder} in the same
   * transaction (see {@link #plan(String, String, Predicate, String)}).
   */
  public Optional<UpstreamJob> planDue(String accountId, String integrationId, Duration floor,
      String holder) {
    return plan(accountId, integrationId, (integration, eligibility, state, now) -> {
      EffectivePlan plan = eligibility.plan(integration, floor);
      Optional<Long> next = eligibility.nextRoundAtMillis(integration, state, floor);
      if (next.isPresent() && next.get() <= now) {
        return new Choice(UpstreamJob.Kind.ROUND, plan.participants());
      }
      // Between the Integration's rounds, an Overlay whose own backoff ended is retried at once,
      // alone (issue 28); not while the Integration itself backs off (its upstream failing).
      if (state.orElse(SchedulerState.NONE).attempts() > 0) {
        return new Choice(UpstreamJob.Kind.RETRY, List.of());
      }
      return new Choice(UpstreamJob.Kind.RETRY, plan.participants().stream()
          .filter(o -> eligibility.retrying().contains(o.id())).toList());
    }, holder);
  }

  /** Which Overlays take part in a job planned now, given the stored scheduler state. */
  private interface Participation {
    /** @param eligibility which of the Integration's Overlays may take part now */
    Choice choose(Resource<Integration> integration, RoundEligibility eligibility,
        Optional<SchedulerState> state, long now);
  }

  /** A job to plan: its kind and participants (none: no job). */
  private record Choice(UpstreamJob.Kind kind, List<Resource<CatalogOverlay>> overlays) {}

  private Optional<UpstreamJob> plan(String accountId, String integrationId,
      Participation participation, String holder) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<Resource<Integration>> integration =
          repositories.integrations(accountId).get(tx, integrationId);
      if (integration.isEmpty() || fenced(tx, ResourceRef.account(accountId))
          || fenced(tx, integration.get().ref())) {
        return Optional.<UpstreamJob>empty();
      }
      Optional<UpstreamJob> stored = StoredJobs.job(tx, accountId, integrationId);
      long now = clock.millis();
      if (stored.isPresent() && isPlannedCurrent(tx, stored.get())) {
        return holder == null ? stored : Optional.of(lease(tx, stored.get(), holder, now));
      }
      // The one eligibility the schedule views forecast by too (RoundEligibility).
      RoundEligibility eligibility = RoundEligibility.read(tx, repositories, integration.get(),
          ReadConsistency.STRONG, now);
      // A backoff recorded for generations the Integration no longer has is over: a fix of its
      // uri, properties or credentials is tried at once (read here, in this transaction).
      Choice choice = participation.choose(integration.get(), eligibility,
          StoredJobs.state(tx, integration.get()), now);
      List<UpstreamJob.Participant> participants = new ArrayList<>();
      for (Resource<CatalogOverlay> overlay : choice.overlays()) {
        participants.add(new UpstreamJob.Participant(overlay.id(), overlay.spec().catalogId(),
            overlay.configurationGeneration()));
      }
      if (participants.isEmpty()) {
        stored.ifPresent(j -> StoredJobs.clearJob(tx, accountId, integrationId));
        return Optional.<UpstreamJob>empty();
      }
      UpstreamJob job = new UpstreamJob(UUID.randomUUID().toString(), accountId, integrationId,
          integration.get().configurationGeneration(),
          integration.get().spec().credentialGeneration(), participants, now, 0, null,
          choice.kind());
      if (holder != null) {
        return Optional.of(lease(tx, job, holder, now)); // planned and leased: one write
      }
      StoredJobs.putJob(tx, job);
      return Optional.of(job);
    });
  }

  /**
   * {@code job} leased to {@code holder} and stored when nobody holds it, its lease lapsed at
   * {@code now}, or {@code holder} holds it already; else {@code job} as it is (another holder's
   * lease lives).
   */
  private UpstreamJob lease(Transaction tx, UpstreamJob job, String holder, long now) {
    boolean own = job.lease() != null && job.lease().holder().equals(holder);
    if (job.lease() != null && !own && job.lease().expiresAtMillis() > now) {
      return job;
    }
    // A retry after an unknown commit finds its own lease and keeps the epoch it took.
    UpstreamJob held = own
        ? job.leasedTo(new UpstreamJob.Lease(holder, job.lease().acquiredAtMillis(),
            now + lease.toMillis()), job.epoch())
        : job.leasedTo(new UpstreamJob.Lease(holder, now, now + lease.toMillis()),
            job.epoch() + 1);
    StoredJobs.putJob(tx, held);
    return held;
  }

  /**
   * Takes the lease of Integration {@code integrationId}'s job for {@code holder}: when nobody
   * holds it, its lease lapsed by this instance's clock, or {@code holder} holds it already.
   *
   * @return the job as held, or empty when there is none or another holder's lease lives
   */
  public Optional<UpstreamJob> acquire(String accountId, String integrationId, String holder) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<UpstreamJob> stored = StoredJobs.job(tx, accountId, integrationId);
      if (stored.isEmpty()) {
        return Optional.<UpstreamJob>empty();
      }
      UpstreamJob held = lease(tx, stored.get(), holder, clock.millis());
      return held.lease() != null && held.lease().holder().equals(holder)
          ? Optional.of(held) : Optional.<UpstreamJob>empty();
    });
  }

  /**
   * Renews the lease of {@code held} if it still holds the job: one read and one write.
   *
   * @return the job with its new expiry, or empty when it no longer holds the job
   */
  public Optional<UpstreamJob> renew(UpstreamJob held) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<UpstreamJob> stored = StoredJobs.job(tx, held.accountId(), held.integrationId());
      if (stored.isEmpty() || !stored.get().sameHolding(held)) {
        return Optional.<UpstreamJob>empty();
      }
      UpstreamJob renewed = held.leasedTo(new UpstreamJob.Lease(held.lease().holder(),
          held.lease().acquiredAtMillis(), clock.millis() + lease.toMillis()), held.epoch());
      StoredJobs.putJob(tx, renewed);
      return Optional.of(renewed);
    });
  }

  /** Whether {@code held} may still publish ({@link JobFence}), read in its own transaction. */
  public Optional<String> whatMoved(UpstreamJob held) {
    return store.read(tx -> fence.whatMoved(tx, held));
  }

  /**
   * Ends the round of {@code held}: removes the job and records the outcome, if it still holds
   * the job. A round's success resets the attempts and records its start as the last success
   * (a {@link UpstreamJob.Kind#RETRY}'s leaves the Integration's state as it was); a failure
   * counts an attempt, records {@code failure} and backs off ({@link Backoff}), recording the
   * Integration generations the round was planned at: once either moves, the backoff is over
   * ({@link SchedulerState#forGenerations}) and a further failure counts from one.
   *
   * @param overlays each participating Overlay's outcome this round
   * @param failure why the round failed for the whole Integration (its upstream unreachable, or
   *     the round failing outside the Overlays' runs), or {@code null}: an Overlay's own failure
   *     is in {@code overlays} and backs off that Overlay only
   * @return whether the end was recorded (false: the job was taken over or cancelled meanwhile)
   */
  public boolean end(UpstreamJob held, Map<String, SchedulerState.OverlayRound> overlays,
      SchedulerState.Problem failure) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      String account = held.accountId();
      Optional<UpstreamJob> stored = StoredJobs.job(tx, account, held.integrationId());
      if (stored.isEmpty() || !stored.get().sameHolding(held)) {
        return false; // includes a retry whose first attempt committed
      }
      StoredJobs.clearJob(tx, account, held.integrationId());
      Optional<Resource<Integration>> integration =
          repositories.integrations(account).get(tx, held.integrationId());
      if (integration.isEmpty() || fenced(tx, ResourceRef.account(account))
          || fenced(tx, integration.get().ref())) {
        return true;
      }
      long now = clock.millis();
      SchedulerState was = StoredJobs.state(tx, account, held.integrationId())
          .orElse(SchedulerState.NONE);
      if (failure != null) {
        // A failure for other generations than the earlier ones starts the count afresh: the
        // earlier attempts tried another configuration or other credentials.
        int attempts = (was.failedForOtherGenerations(held.integrationConfigurationGeneration(),
            held.credentialGeneration()) ? 0 : was.attempts()) + 1;
        StoredJobs.putState(tx, account, held.integrationId(), new SchedulerState(attempts, now,
            was.lastSuccessAtMillis(), now + backoff.after(attempts).toMillis(), failure,
            held.integrationConfigurationGeneration(), held.credentialGeneration()));
      } else if (held.kind() == UpstreamJob.Kind.ROUND) {
        StoredJobs.putState(tx, account, held.integrationId(),
            new SchedulerState(0, now, held.lease().acquiredAtMillis(), now, null));
      } // a retry's success leaves the Integration's cadence (and the others' lag) as it was
      for (Map.Entry<String, SchedulerState.OverlayRound> e : overlays.entrySet()) {
        Optional<Resource<CatalogOverlay>> overlay =
            repositories.overlays(account).get(tx, e.getKey());
        if (overlay.isPresent() && !fenced(tx, overlay.get().ref())) {
          Optional<SchedulerState.OverlayRound> before =
              StoredJobs.overlayRound(tx, account, held.integrationId(), e.getKey());
          StoredJobs.putOverlayRound(tx, account, held.integrationId(), e.getKey(),
              merged(before, e.getValue(), held.lease().acquiredAtMillis(), now));
        }
      }
      return true;
    });
  }

  /**
   * An Overlay's health after {@code round}, given its record {@code before}: a success records
   * the round's start as its last success and ends its own backoff; a failure of its own (not
   * {@link SchedulerState#integrationWide}) counts an attempt and backs it off; anything else
   * (joined, superseded, an Integration-wide failure, which backs off the Integration) keeps its
   * attempts and last success.
   */
  private SchedulerState.OverlayRound merged(Optional<SchedulerState.OverlayRound> before,
      SchedulerState.OverlayRound round, long startedAtMillis, long now) {
    Long lastSuccess = before.map(SchedulerState.OverlayRound::lastSuccessAtMillis).orElse(null);
    int attempts = before.map(SchedulerState.OverlayRound::attempts).orElse(0);
    long next = before.map(SchedulerState.OverlayRound::nextAttemptAtMillis).orElse(0L);
    if ("SUCCEEDED".equals(round.outcome())) {
      lastSuccess = startedAtMillis;
      attempts = 0;
      next = 0;
    } else if ("FAILED".equals(round.outcome()) && round.lastError() != null
        && !SchedulerState.integrationWide(round.lastError().code())) {
      attempts++;
      next = now + backoff.after(attempts).toMillis();
    }
    return new SchedulerState.OverlayRound(round.jobId(), round.outcome(), round.atMillis(),
        round.lastError(), lastSuccess, attempts, next);
  }

  /**
   * Drops the job of {@code held} without recording a round (something it depends on moved; the
   * next plan starts afresh), if it still holds it.
   */
  public void cancel(UpstreamJob held) {
    store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<UpstreamJob> stored = StoredJobs.job(tx, held.accountId(), held.integrationId());
      if (stored.isPresent() && stored.get().sameHolding(held)) {
        StoredJobs.clearJob(tx, held.accountId(), held.integrationId());
      }
      return null;
    });
  }

  /** The job of Integration {@code integrationId}, if one is planned. */
  public Optional<UpstreamJob> job(String accountId, String integrationId) {
    return store.read(tx -> StoredJobs.job(tx, accountId, integrationId));
  }

  /** The scheduler state of Integration {@code integrationId}, if a round ever ended. */
  public Optional<SchedulerState> state(String accountId, String integrationId) {
    return store.read(tx -> StoredJobs.state(tx, accountId, integrationId));
  }

  /** What the last round did for Overlay {@code overlayId}, if it took part in one. */
  public Optional<SchedulerState.OverlayRound> overlayRound(String accountId,
      String integrationId, String overlayId) {
    return store.read(tx -> StoredJobs.overlayRound(tx, accountId, integrationId, overlayId));
  }

  /** Whether planned job {@code job} (held or not) still matches the world, lease aside. */
  private boolean isPlannedCurrent(ReadTransaction tx, UpstreamJob job) {
    return fence.plannedMoved(tx, job).isEmpty();
  }

  private boolean fenced(ReadTransaction tx, ResourceRef ref) {
    return fences.read(tx, ref).isPresent();
  }
}
