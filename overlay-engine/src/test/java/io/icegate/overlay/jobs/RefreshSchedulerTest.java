package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.PaginationFaultFilter;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28's scheduler: two "gateways" (each its own clock, reconciler, runner and scheduler)
 * over one store run each due round once between them, by the effective plan read at each
 * planning step: an Overlay without an interval or paused adds no demand, a paused Integration
 * starts no work, an interval change takes effect at the next planning step. The clocks are
 * moved by hand, so "due" is decided by the test, not by sleeping.
 */
class RefreshSchedulerTest extends JobTestSupport {
  private static final Duration TICK = Duration.ofMillis(20);

  private RefreshScheduler scheduler(World world, JobProcess p) {
    RefreshScheduler s = new RefreshScheduler(world.w().repos(), p.runner, Duration.ofSeconds(5),
        TICK, 2);
    closing.add(0, s); // closed before its process
    return s;
  }

  private static void demand(World world, String interval, Boolean paused) {
    world.w().overlays().update(world.account(), world.overlay(), ExpectedGeneration.any(),
        new OverlayPatch(null, null, null, null, null,
            interval == null ? null : Optional.of(interval), null, paused));
  }

  private static long rounds(RefreshScheduler a, RefreshScheduler b) {
    return a.metrics().succeeded() + b.metrics().succeeded();
  }

  /** Several ticks of both schedulers, during which nothing may start. */
  private static void quiet() throws InterruptedException {
    Thread.sleep(TICK.toMillis() * 15);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void twoGatewaysRunEachDueRoundOnceByTheInterval(String kind) throws Exception {
    World world = world(kind);
    Instant start = Instant.now();
    JobProcess a = process(world, start);
    JobProcess b = process(world, start);
    RefreshScheduler sa = scheduler(world, a);
    RefreshScheduler sb = scheduler(world, b);

    quiet(); // manual only: no demand, no round, no scheduler state
    assertThat(rounds(sa, sb)).isZero();
    assertThat(a.jobs.state(world.account(), world.integration())).isEmpty();

    demand(world, "PT10S", null);
    awaitUntil(() -> rounds(sa, sb) == 1);
    assertThat(world.w().relations(world.catalog())).isNotEmpty();
    quiet(); // not due again before the interval passed, on either clock
    assertThat(rounds(sa, sb)).isEqualTo(1);

    // A round in which nothing changed upstream writes scheduler state only (issue 28): one
    // transaction plans and leases the job, one ends it (Integration and Overlay state). The run
    // writes no run record and no operation record, reconcile writes nothing.
    long writesBefore = store.stats().committedWrites();
    a.clock.advance(Duration.ofSeconds(11));
    b.clock.advance(Duration.ofSeconds(11));
    awaitUntil(() -> rounds(sa, sb) == 2);
    quiet();
    assertThat(rounds(sa, sb)).isEqualTo(2);
    long idleRoundWrites = store.stats().committedWrites() - writesBefore;
    System.out.println("committed writes of a change-free round (" + kind + "): "
        + idleRoundWrites);
    assertThat(idleRoundWrites).isEqualTo(2);
    assertThat(sa.metrics().running() + sb.metrics().running()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void pausesRemoveDemandAndIntervalChangesApplyAtTheNextPlanning(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    demand(world, "PT1H", true); // paused: no demand
    RefreshScheduler s = scheduler(world, a);
    quiet();
    assertThat(s.metrics().succeeded()).isZero();
    assertThat(world.w().relations(world.catalog())).isEmpty();

    demand(world, null, false); // resumed
    awaitUntil(() -> s.metrics().succeeded() == 1);
    a.clock.advance(Duration.ofMinutes(2));
    quiet(); // an hour is not up
    assertThat(s.metrics().succeeded()).isEqualTo(1);
    demand(world, "PT1M", null); // read at the next planning step: now overdue
    awaitUntil(() -> s.metrics().succeeded() == 2);

    world.w().integrations().update(world.account(), world.integration(),
        ExpectedGeneration.any(), null, null, null, null, true);
    a.clock.advance(Duration.ofMinutes(5));
    quiet(); // a paused Integration starts no work
    assertThat(s.metrics().succeeded()).isEqualTo(2);
    world.w().integrations().update(world.account(), world.integration(),
        ExpectedGeneration.any(), null, null, null, null, false);
    awaitUntil(() -> s.metrics().succeeded() == 3);

    s.close(); // stops cleanly, nothing left running
    assertThat(s.metrics().running()).isZero();
    a.clock.advance(Duration.ofMinutes(5));
    quiet();
    assertThat(s.metrics().succeeded()).isEqualTo(3);
  }

  /**
   * A round failing upstream backs off (the schedule says so, with the error); once the upstream
   * answers again the first round after the backoff succeeds and the error is gone.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aFailingUpstreamBacksOffAndRecoversWhenItReturns(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    Schedules schedules = new Schedules(world.w().repos(), a.clock, Duration.ofSeconds(5));
    upstream.pagination().mode(PaginationFaultFilter.Mode.STUCK); // namespace listing never ends
    try {
      demand(world, "PT5S", null);
      RefreshScheduler s = scheduler(world, a);
      awaitUntil(() -> s.metrics().failed() >= 1);
      Schedules.OverlaySchedule failing = schedules.overlay(world.account(), world.overlay());
      assertThat(failing.state()).isEqualTo("backoff");
      assertThat(failing.lastError()).isNotNull();
      assertThat(failing.lastSuccessAt()).isNull();
      assertThat(world.w().relations(world.catalog())).isEmpty();
      quiet(); // backing off: no new attempt before the backoff ends
      assertThat(s.metrics().failed()).isEqualTo(1);

      upstream.pagination().mode(PaginationFaultFilter.Mode.OFF);
      // A manual reconcile succeeding meanwhile shows at once (the Integration still backs off:
      // its next round waits for the backoff's end, which nextRunAt says).
      a.clock.advance(Duration.ofMillis(1));
      a.operations.reconcile(world.account(), world.overlay());
      Schedules.OverlaySchedule manual = schedules.overlay(world.account(), world.overlay());
      assertThat(manual.state()).isEqualTo("idle");
      assertThat(manual.lastError()).isNull();
      assertThat(manual.lagMillis()).isNotNull();
      assertThat(manual.nextRunAt()).isEqualTo(a.jobs.state(world.account(),
          world.integration()).orElseThrow().nextAttemptAtMillis());
      assertThat(s.metrics().succeeded()).isZero();
      a.clock.advance(JobProcess.BACKOFF.base().plusSeconds(1));
      awaitUntil(() -> s.metrics().succeeded() == 1);
      Schedules.OverlaySchedule recovered = schedules.overlay(world.account(), world.overlay());
      assertThat(recovered.state()).isIn("idle", "running");
      assertThat(recovered.lastError()).isNull();
      assertThat(recovered.lagMillis()).isNotNull();
      assertThat(world.w().relations(world.catalog())).isNotEmpty();
    } finally {
      upstream.pagination().mode(PaginationFaultFilter.Mode.OFF);
    }
  }
}
