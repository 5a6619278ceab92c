package io.icegate.overlay.jobs;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.jobs.UpstreamJob;
import io.icegate.core.jobs.UpstreamJobs;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Resource;
import io.icegate.core.store.KvStoreException;
import io.icegate.overlay.discovery.SharedDiscovery;
import io.icegate.overlay.reconcile.ReconcileOperation;
import io.icegate.overlay.reconcile.ReconcileOperations;
import io.icegate.overlay.reconcile.RunGuard;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs rounds of durable upstream jobs (issue 27) in one gateway process: plan the Integration's
 * job, take its lease, publish into each participating Overlay through the reconcile pipeline,
 * end the round. One instance per process, each with its own holder id; instances in several
 * processes over one store never run the same job at once ({@link UpstreamJobs}).
 *
 * <p>Each Overlay's publication is an ordinary reconcile run ({@link
 * ReconcileOperations#runAttached}): the same run record ({@code ReconcileRuns}), the same fences,
 * and on top the job's fence ({@link io.icegate.core.jobs.JobFence}) in every fenced
 * transaction, so a job whose Integration, Overlays, Catalogs or account moved stops publishing
 * at its next transaction. A reconcile already holding an Overlay is joined, not fought (the
 * round counts that Overlay JOINED); a newer reconcile that publishes first supersedes the
 * round's run for that Overlay by the run-record rules (SUPERSEDED). A round whose job moved is
 * cancelled: the job is dropped and the next plan starts afresh. A failed round backs off.
 *
 * <p>A round that fails outside any Overlay's run (the store failing between publications) ends
 * as a failed round when the store lets it, so the Integration backs off rather than retrying at
 * once. A failure of the upstream backs off the Integration; an Overlay's own failure backs off
 * that Overlay only. Planning and leasing a round is one transaction and ending it another, so a
 * round in which nothing changed upstream writes only that scheduler state. Discovery is shared
 * by the round's Overlays ({@link SharedDiscovery}): each namespace is listed and each table
 * loaded once per round, each Overlay publishing from it into its own Catalog. Thread-safe.
 */
public final class UpstreamJobRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UpstreamJobRunner.class);

  /**
   * Every Overlay of the Integration takes part: rounds asked for directly (tests); the scheduler
   * plans by the Overlays' demand ({@link #runDueRound}).
   */
  public static final Predicate<Resource<CatalogOverlay>> EVERY_OVERLAY = overlay -> true;

  private final UpstreamJobs jobs;
  private final ReconcileOperations operations;
  private final Clock clock;
  private final String holder;
  private final Map<String, AtomicReference<UpstreamJob>> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService heartbeat;

  /**
   * A runner whose leases the caller renews ({@link #renewLeases}).
   *
   * @param jobs the job store, on this process's clock
   */
  public UpstreamJobRunner(UpstreamJobs jobs, ReconcileOperations operations, Clock clock) {
    this(jobs, operations, clock, null);
  }

  /**
   * A runner that renews the leases of its rounds every {@code heartbeat}.
   *
   * @param heartbeat shorter than the lease (a third of it is usual), or {@code null} for none
   */
  public UpstreamJobRunner(UpstreamJobs jobs, ReconcileOperations operations, Clock clock,
      Duration heartbeat) {
    this.jobs = Objects.requireNonNull(jobs, "jobs");
    this.operations = Objects.requireNonNull(operations, "operations");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.holder = "runner-" + UUID.randomUUID();
    if (heartbeat == null) {
      this.heartbeat = null;
    } else {
      if (heartbeat.compareTo(jobs.lease()) >= 0) {
        throw new IllegalArgumentException("heartbeat " + heartbeat + " must be shorter than "
            + "the job lease " + jobs.lease());
      }
      this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "upstream-job-heartbeat");
        t.setDaemon(true);
        return t;
      });
      long period = heartbeat.toMillis();
      this.heartbeat.scheduleWithFixedDelay(this::renewLeases, period, period,
          TimeUnit.MILLISECONDS);
    }
  }

  /** This runner's holder id, as job leases name it. */
  public String holder() {
    return holder;
  }

  /**
   * One round for Integration {@code integrationId}: plans (or finds) its job, takes the lease,
   * publishes into each participating Overlay in turn, ends the round.
   *
   * @param demand which Overlays take part (read when planning)
   */
  public RoundOutcome runRound(String accountId, String integrationId,
      Predicate<Resource<CatalogOverlay>> demand) {
    return run(accountId, integrationId, jobs.plan(accountId, integrationId, demand, holder),
        () -> { });
  }

  /**
   * The round of Integration {@code integrationId} its {@link io.icegate.core.jobs.EffectivePlan}
   * calls for now, if any ({@link UpstreamJobs#planDue}): what the scheduler runs.
   *
   * @param floor the shortest interval this server runs
   */
  public RoundOutcome runDueRound(String accountId, String integrationId, Duration floor) {
    return runDueRound(accountId, integrationId, floor, () -> { });
  }

  /**
   * As {@link #runDueRound(String, String, Duration)}, telling {@code started} (on this thread)
   * when a round is planned and leased here, i.e. when work starts.
   */
  public RoundOutcome runDueRound(String accountId, String integrationId, Duration floor,
      Runnable started) {
    return run(accountId, integrationId, jobs.planDue(accountId, integrationId, floor, holder),
        started);
  }

  /** Runs {@code planned} (planned and leased in one transaction) if this runner holds it. */
  private RoundOutcome run(String accountId, String integrationId,
      Optional<UpstreamJob> planned, Runnable started) {
    if (planned.isEmpty()) {
      return RoundOutcome.of(RoundOutcome.State.IDLE, null);
    }
    if (planned.get().lease() == null || !planned.get().lease().holder().equals(holder)) {
      return RoundOutcome.of(RoundOutcome.State.BUSY, planned.get().jobId());
    }
    started.run();
    String key = accountId + "/" + integrationId;
    AtomicReference<UpstreamJob> current = new AtomicReference<>(planned.get());
    held.put(key, current);
    try {
      return publish(current);
    } catch (RuntimeException e) {
      endFailed(current.get(), e);
      throw e;
    } finally {
      held.remove(key, current);
    }
  }

  /**
   * Renews the lease of every round this runner holds, one small transaction each; a failure is
   * a WARN line and a lost lease is left to the round, whose next fenced transaction fails.
   */
  public void renewLeases() {
    for (AtomicReference<UpstreamJob> current : held.values()) {
      try {
        jobs.renew(current.get()).ifPresent(current::set);
      } catch (RuntimeException e) {
        LOG.warn("renewing the lease of upstream job {} failed: {}", current.get().jobId(),
            e.getClass().getName());
      }
    }
  }

  private RoundOutcome publish(AtomicReference<UpstreamJob> current) {
    UpstreamJob job = current.get();
    RunGuard guard = tx -> jobs.fence().assertCurrent(tx, current.get());
    Map<String, SchedulerState.OverlayRound> rounds = new LinkedHashMap<>();
    SchedulerState.Problem failure = null;
    SchedulerState.Problem firstError = null;
    // One discovery per round: the participants' runs share the round's upstream reads.
    try (SharedDiscovery discovery = new SharedDiscovery()) {
      for (UpstreamJob.Participant p : job.participants()) {
        Optional<String> moved = jobs.whatMoved(current.get());
        if (moved.isPresent()) {
          return cancel(current.get(), rounds, moved.get());
        }
        SchedulerState.OverlayRound round;
        try {
          round = outcome(job, operations.runAttached(job.accountId(), p.overlayId(), guard,
              discovery));
        } catch (IcegateException e) {
          round = failed(job, new SchedulerState.Problem(e.code().name(), e.getMessage(),
              e.details()));
        }
        if ("SUPERSEDED".equals(round.outcome()) || "FAILED".equals(round.outcome())) {
          moved = jobs.whatMoved(current.get());
          if (moved.isPresent()) {
            return cancel(current.get(), rounds, moved.get());
          }
        }
        if (round.lastError() != null) {
          // Only the upstream failing backs off the whole Integration; an Overlay's own failure
          // (a conflict in its Catalog, ...) backs off that Overlay (UpstreamJobs.end).
          if (failure == null && SchedulerState.integrationWide(round.lastError().code())) {
            failure = round.lastError();
          }
          if (firstError == null) {
            firstError = round.lastError();
          }
        }
        rounds.put(p.overlayId(), round);
      }
    }
    boolean recorded = jobs.end(current.get(), rounds, failure);
    if (!recorded) {
      return new RoundOutcome(RoundOutcome.State.CANCELLED, job.jobId(), rounds,
          "the job was cancelled or taken over before its end was recorded");
    }
    LOG.info("upstream job account={} integration={} job={} epoch={} outcome={} overlays={}",
        job.accountId(), job.integrationId(), job.jobId(), job.epoch(),
        firstError != null ? "failed" : "succeeded", rounds.size());
    return firstError == null
        ? new RoundOutcome(RoundOutcome.State.SUCCEEDED, job.jobId(), rounds, null)
        : new RoundOutcome(RoundOutcome.State.FAILED, job.jobId(), rounds,
            firstError.code() + ": " + firstError.message());
  }

  /** Records {@code held}'s round as failed by {@code e}, if the store lets it (best effort). */
  private void endFailed(UpstreamJob held, RuntimeException e) {
    ErrorCode code = e instanceof IcegateException coded ? coded.code()
        : e instanceof KvStoreException stored ? ErrorCode.forStoreFailure(stored.kind())
        : ErrorCode.INTERNAL;
    try {
      String message = e instanceof IcegateException ? e.getMessage()
          : "the round failed outside an overlay's run: " + e.getClass().getSimpleName();
      jobs.end(held, Map.of(), new SchedulerState.Problem(code.name(), message));
    } catch (RuntimeException again) {
      LOG.warn("recording the failure of upstream job {} failed: {}", held.jobId(),
          again.getClass().getName());
    }
  }

  private SchedulerState.OverlayRound outcome(UpstreamJob job,
      ReconcileOperations.Attached attached) {
    if (attached instanceof ReconcileOperations.Joined) {
      return new SchedulerState.OverlayRound(job.jobId(), "JOINED", clock.millis(), null);
    }
    ReconcileOperation op = ((ReconcileOperations.Ran) attached).operation();
    if (op.state() == ReconcileOperation.State.SUCCEEDED) {
      return new SchedulerState.OverlayRound(job.jobId(), "SUCCEEDED", clock.millis(), null);
    }
    if (op.problem() != null
        && ErrorCode.RECONCILE_SUPERSEDED.name().equals(op.problem().code())) {
      return new SchedulerState.OverlayRound(job.jobId(), "SUPERSEDED", clock.millis(), null);
    }
    // the problem as the manual reconcile answers it, its itemized details (conflicts) too
    return failed(job, op.problem() == null
        ? new SchedulerState.Problem(ErrorCode.INTERNAL.name(), "no problem recorded")
        : new SchedulerState.Problem(op.problem().code(), op.problem().detail(),
            op.problem().details()));
  }

  private SchedulerState.OverlayRound failed(UpstreamJob job, SchedulerState.Problem problem) {
    return new SchedulerState.OverlayRound(job.jobId(), "FAILED", clock.millis(), problem);
  }

  private RoundOutcome cancel(UpstreamJob job, Map<String, SchedulerState.OverlayRound> rounds,
      String why) {
    jobs.cancel(job);
    LOG.info("upstream job account={} integration={} job={} epoch={} cancelled: {}",
        job.accountId(), job.integrationId(), job.jobId(), job.epoch(), why);
    return new RoundOutcome(RoundOutcome.State.CANCELLED, job.jobId(), rounds, why);
  }

  @Override
  public void close() {
    if (heartbeat != null) {
      heartbeat.shutdownNow();
    }
  }
}
