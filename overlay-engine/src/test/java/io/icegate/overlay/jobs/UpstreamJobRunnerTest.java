package io.icegate.overlay.jobs;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.jobs.UpstreamJob;
import io.icegate.overlay.reconcile.ReconcileOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27: durable upstream jobs run by two scheduler instances ("processes") over one store in
 * one JVM, on the in-memory store (real optimistic conflicts) and on SQLite: only one runs a job
 * at a time, a crashed holder's lease lapses and the other takes over from a clean state (the
 * crashed one, woken, publishes nothing), a manual reconcile joins or supersedes a job's run by
 * the run-record rules and an asynchronous one reports the job's progress, and failures back off
 * exponentially with the last error kept. The upstream is the Iceberg REST fixture over HTTP on
 * loopback.
 */
class UpstreamJobRunnerTest extends JobTestSupport {
  private Future<RoundOutcome> round(JobProcess p, World world) {
    return threads.submit(() -> p.runner.runRound(world.w().account(), world.integration(),
        UpstreamJobRunner.EVERY_OVERLAY));
  }

  private static RoundOutcome done(Future<RoundOutcome> round) throws Exception {
    return round.get(120, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aRoundPublishesEveryParticipantAndRecordsItsSuccess(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    RoundOutcome outcome = done(round(a, world));
    assertThat(outcome.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(outcome.overlays().get(world.overlay()).outcome()).isEqualTo("SUCCEEDED");
    assertThat(world.w().relations(world.catalog())).containsOnlyKeys("sales.orders",
        "sales.order_summary", "sales.emea.customers");
    assertThat(a.jobs.job(world.w().account(), world.integration())).isEmpty();
    SchedulerState state = a.jobs.state(world.w().account(), world.integration()).orElseThrow();
    assertThat(state.attempts()).isZero();
    assertThat(state.lastError()).isNull();
    assertThat(state.lastSuccessAtMillis()).isNotNull();
  }

  /** While one process holds the job (between discovery and publication), the other is BUSY. */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void onlyOneProcessRunsAJobAtATime(String kind) throws Exception {
    World world = world(kind);
    Instant now = Instant.now();
    JobProcess a = process(world, now);
    JobProcess b = process(world, now);
    a.gate.arm();
    Future<RoundOutcome> first = round(a, world);
    a.gate.awaitArrival();
    RoundOutcome second = done(round(b, world));
    assertThat(second.state()).isEqualTo(RoundOutcome.State.BUSY);
    assertThat(world.w().relations(world.catalog())).isEmpty();
    a.gate.release.countDown();
    assertThat(done(first).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(world.w().relations(world.catalog())).hasSize(3);
  }

  /** Two processes racing for the same planned job: exactly one takes each lease. */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void racingAcquisitionsGiveEachJobExactlyOneHolder(String kind) throws Exception {
    World world = world(kind);
    Instant now = Instant.now();
    JobProcess a = process(world, now);
    JobProcess b = process(world, now);
    String account = world.w().account();
    for (int i = 0; i < 20; i++) {
      UpstreamJob planned = a.jobs.plan(account, world.integration(),
          UpstreamJobRunner.EVERY_OVERLAY).orElseThrow();
      CyclicBarrier barrier = new CyclicBarrier(2);
      Future<Optional<UpstreamJob>> byA = threads.submit(() -> {
        barrier.await();
        return a.jobs.acquire(account, world.integration(), a.runner.holder());
      });
      Future<Optional<UpstreamJob>> byB = threads.submit(() -> {
        barrier.await();
        return b.jobs.acquire(account, world.integration(), b.runner.holder());
      });
      Optional<UpstreamJob> heldByA = byA.get(30, TimeUnit.SECONDS);
      Optional<UpstreamJob> heldByB = byB.get(30, TimeUnit.SECONDS);
      assertThat(heldByA.isPresent() ^ heldByB.isPresent()).as("round " + i).isTrue();
      UpstreamJob held = heldByA.orElseGet(heldByB::orElseThrow);
      assertThat(held.jobId()).isEqualTo(planned.jobId());
      assertThat(held.epoch()).isEqualTo(1);
      assertThat(a.jobs.job(account, world.integration()).orElseThrow().lease().holder())
          .isEqualTo(held.lease().holder());
      (heldByA.isPresent() ? a : b).jobs.cancel(held);
    }
  }

  /**
   * A process dies holding the job after discovery (held in the hook, never renewing). Once its
   * lease lapsed by the other's clock, the other takes the job over at the next epoch and runs
   * the round from discovery on; the dead one, woken, is fenced out and publishes nothing.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCrashedHoldersLeaseLapsesAndAnotherProcessTakesOver(String kind) throws Exception {
    World world = world(kind);
    Instant now = Instant.now();
    JobProcess dead = process(world, now);
    JobProcess b = process(world, now);
    dead.gate.arm();
    Future<RoundOutcome> crashed = round(dead, world);
    dead.gate.awaitArrival();

    b.clock.advance(JobProcess.LEASE.minusSeconds(1));
    assertThat(done(round(b, world)).state()).isEqualTo(RoundOutcome.State.BUSY);
    b.clock.advance(Duration.ofSeconds(1));
    RoundOutcome takenOver = done(round(b, world));
    assertThat(takenOver.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(world.w().relations(world.catalog())).hasSize(3);
    var published = world.w().relations(world.catalog());

    dead.gate.release.countDown(); // its own clock says its lease lives: the epoch fences it
    RoundOutcome woken = done(crashed);
    assertThat(woken.state()).isEqualTo(RoundOutcome.State.CANCELLED);
    assertThat(world.w().relations(world.catalog())).isEqualTo(published);
    SchedulerState state = b.jobs.state(world.w().account(), world.integration()).orElseThrow();
    assertThat(state.attempts()).isZero();
    assertThat(b.jobs.job(world.w().account(), world.integration())).isEmpty();
  }

  /** Renewal keeps a live holder's job: the other process never takes it over. */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aRenewedLeaseIsNeverTakenOver(String kind) throws Exception {
    World world = world(kind);
    Instant now = Instant.now();
    JobProcess a = process(world, now);
    JobProcess b = process(world, now);
    a.gate.arm();
    Future<RoundOutcome> first = round(a, world);
    a.gate.awaitArrival();
    for (int i = 0; i < 3; i++) {
      a.clock.advance(JobProcess.LEASE.dividedBy(2));
      b.clock.advance(JobProcess.LEASE.dividedBy(2));
      a.runner.renewLeases();
      assertThat(done(round(b, world)).state()).isEqualTo(RoundOutcome.State.BUSY);
    }
    a.gate.release.countDown();
    assertThat(done(first).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(world.w().relations(world.catalog())).hasSize(3);
  }

  /**
   * A manual asynchronous reconcile while a job's run holds the Overlay joins the job's
   * operation and reports its progress; a synchronous one is refused, as for any running
   * reconcile.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aManualReconcileJoinsTheRunningJobAndReportsItsProgress(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    a.gate.arm();
    Future<RoundOutcome> job = round(a, world);
    a.gate.awaitArrival();
    ReconcileOperation joined = a.operations.submit(world.w().account(), world.overlay());
    assertThat(joined.state()).isEqualTo(ReconcileOperation.State.RUNNING);
    assertThat(joined.overlayId()).isEqualTo(world.overlay());
    assertThat(joined.phase()).isEqualTo("DISCOVERY");
    assertThat(joined.counts().get("loaded")).isEqualTo(3L); // the job discovered three
    assertThatThrownBy(() -> a.operations.reconcile(world.w().account(), world.overlay()))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_IN_PROGRESS));
    a.gate.release.countDown();
    assertThat(done(job).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    ReconcileOperation finished =
        a.operations.get(world.w().account(), joined.id()).orElseThrow();
    assertThat(finished.state()).isEqualTo(ReconcileOperation.State.SUCCEEDED);
    assertThat(finished.report().count(CREATED)).isEqualTo(3);
  }

  /**
   * A manual reconcile in another process, started after the job's run but publishing first,
   * supersedes the job's run for that Overlay by the run-record rules (the newer start wins):
   * the job publishes nothing there and counts the Overlay SUPERSEDED; the round still succeeds.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aNewerManualReconcileSupersedesTheJobsRun(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    a.gate.arm();
    Future<RoundOutcome> job = round(a, world);
    a.gate.awaitArrival();
    Thread.sleep(2); // the manual run's start (wall clock) is later than the job run's
    assertThat(world.w().reconcile(world.overlay()).count(CREATED)).isEqualTo(3);
    var published = world.w().relations(world.catalog());
    a.gate.release.countDown();
    RoundOutcome outcome = done(job);
    assertThat(outcome.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(outcome.overlays().get(world.overlay()).outcome()).isEqualTo("SUPERSEDED");
    assertThat(world.w().relations(world.catalog())).isEqualTo(published);
  }

  /**
   * An unreachable upstream fails the round: the error is kept, attempts count, and no round is
   * planned before the backoff (10 s, then 20 s, then capped at 40 s) has passed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void failedRoundsBackOffExponentiallyUpToTheCapAndKeepTheLastError(String kind)
      throws Exception {
    World world = world(kind);
    String broken;
    try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      broken = world.w().integration("broken", "http://127.0.0.1:" + closed.getLocalPort());
    }
    world.w().overlay("dead", broken, world.catalog(), List.of(List.of("sales")));
    JobProcess a = process(world, Instant.now());
    String account = world.w().account();
    long[] expected = {10, 20, 40, 40};
    for (int attempt = 1; attempt <= expected.length; attempt++) {
      RoundOutcome failed = a.runner.runRound(account, broken, UpstreamJobRunner.EVERY_OVERLAY);
      assertThat(failed.state()).isEqualTo(RoundOutcome.State.FAILED);
      SchedulerState state = a.jobs.state(account, broken).orElseThrow();
      assertThat(state.attempts()).isEqualTo(attempt);
      assertThat(state.lastError().code()).startsWith("UPSTREAM_");
      assertThat(state.nextAttemptAtMillis() - state.lastAttemptAtMillis())
          .isEqualTo(Duration.ofSeconds(expected[attempt - 1]).toMillis());
      a.clock.advance(Duration.ofSeconds(expected[attempt - 1]).minusMillis(1));
      assertThat(a.runner.runRound(account, broken, UpstreamJobRunner.EVERY_OVERLAY).state())
          .isEqualTo(RoundOutcome.State.IDLE);
      a.clock.advance(Duration.ofMillis(1));
    }
    // The other Integration's rounds are unaffected.
    assertThat(a.runner.runRound(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY)
        .state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
  }
}
