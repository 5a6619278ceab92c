package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.jobs.UpstreamJobs;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import io.icegate.overlay.reconcile.JobWorld;
import io.icegate.overlay.reconcile.ReconcileHook;
import io.icegate.overlay.reconcile.ReconcileOperations;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fault sweep extended to upstream jobs (issue 27): every commit of a job round (plan, lease,
 * the operation records, the publications with their run record, the run's end, the round's end
 * with its scheduler state) fails once with every fault kind, commit-unknown included. Whatever
 * the faulted round left (a job whose holder vanished, a run record still RUNNING, an operation
 * never ended), later rounds converge once leases lapse: the Overlay holds exactly the selected
 * relations, no job is left, the scheduler state records the success, and the invariant checker
 * (jobs and scheduler state included) is clean.
 */
class JobFaultTest {
  private static final Duration PAST_EVERY_LEASE = Duration.ofMinutes(11);

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  @BeforeAll
  static void start() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects).seed();
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
    objects.close();
  }

  /** The world before the faulted round and the process that runs it. */
  private record Setup(JobWorld w, String integration, String catalog,
      ReconcileOperations operations, UpstreamJobs jobs, UpstreamJobRunner runner)
      implements AutoCloseable {
    @Override
    public void close() {
      runner.close();
      operations.close();
    }
  }

  private static Setup setUp(FaultWorld world) {
    JobWorld w = new JobWorld(world.store, world.clock);
    String integration = w.integration("a", upstream);
    String catalog = w.catalog("analytics");
    w.overlay("sales", integration, catalog, List.of(List.of("sales")));
    ReconcileOperations operations = w.process(ReconcileHook.NONE, world.clock);
    UpstreamJobs jobs = new UpstreamJobs(w.repos(), world.clock, JobProcess.LEASE,
        JobProcess.BACKOFF);
    return new Setup(w, integration, catalog, operations, jobs,
        new UpstreamJobRunner(jobs, operations, world.clock));
  }

  private static RoundOutcome round(Setup s) {
    return s.runner().runRound(s.w().account(), s.integration(),
        UpstreamJobRunner.EVERY_OVERLAY);
  }

  private static void converge(Setup s, FaultWorld world) {
    RoundOutcome last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      world.clock.advance(PAST_EVERY_LEASE);
      last = round(s);
      if (last.state() == RoundOutcome.State.SUCCEEDED) {
        break;
      }
    }
    assertThat(last.state()).as("rounds after the fault").isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(s.w().relations(s.catalog())).containsOnlyKeys("sales.orders",
        "sales.order_summary", "sales.emea.customers");
    assertThat(s.jobs().job(s.w().account(), s.integration())).isEmpty();
    assertThat(s.jobs().state(s.w().account(), s.integration()).orElseThrow().attempts())
        .isZero();
    world.checker().assertClean();
  }

  @Test
  void everyCommitOfARoundFailsOnceWithEveryFaultThenLaterRoundsConverge() {
    int commits;
    try (FaultWorld clean = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
        new ContributionInvariants()); Setup s = setUp(clean)) {
      int before = clean.faults.commitsSeen();
      assertThat(round(s).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
      commits = clean.faults.commitsSeen() - before;
      converge(s, clean);
    }
    // Plan, lease, operation start, one publication batch with the run record, the run's end,
    // the operation's end, the round's end; phase changes store the operation too.
    assertThat(commits).isGreaterThanOrEqualTo(7);
    int fired = 0;
    for (int commit = 1; commit <= commits; commit++) {
      for (Fault fault : Fault.values()) {
        try (FaultWorld world = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
            new ContributionInvariants()); Setup s = setUp(world)) {
          world.faults.failAt(world.faults.commitsSeen() + commit, fault);
          try {
            round(s);
          } catch (RuntimeException expected) {
            // the faulted round may fail outright; what it left must converge
          }
          fired += world.faults.injected().size();
          converge(s, world);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("commit " + commit + " fault " + fault, e);
        }
      }
    }
    assertThat(fired).isEqualTo(commits * Fault.values().length);
  }
}
