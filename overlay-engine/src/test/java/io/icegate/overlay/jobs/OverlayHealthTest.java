package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.overlay.reconcile.ReconcileOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: an Overlay's schedule health is its own. One Overlay of an Integration failing on its
 * own (a local table in its Catalog: RECONCILE_CONFLICT) backs off only that Overlay and shows
 * its error only there; the Integration and its other Overlays stay healthy, each with its own
 * last success, and an Overlay created after a round shows no success. (An upstream failure still
 * backs off the whole Integration: RefreshSchedulerTest.)
 */
class OverlayHealthTest extends JobTestSupport {
  private static final Duration FLOOR = Duration.ofSeconds(5);

  private static void interval(World world, String overlay) {
    interval(world, overlay, "PT1M");
  }

  private static void interval(World world, String overlay, String interval) {
    world.w().overlays().update(world.account(), overlay, ExpectedGeneration.any(),
        new OverlayPatch(null, null, null, null, null, Optional.of(interval), null, null));
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void oneOverlaysFailureBacksOffOnlyThatOverlay(String kind) throws Exception {
    World world = world(kind);
    String other = world.w().catalog("other");
    world.w().localTable(other, List.of("sales"), "orders"); // in the way of the upstream's
    String conflicted = world.w().overlay("conflicted", world.integration(), other,
        List.of(List.of("sales")));
    interval(world, world.overlay());
    interval(world, conflicted);
    JobProcess a = process(world, Instant.now());
    Schedules schedules = new Schedules(world.w().repos(), a.clock, FLOOR);

    RoundOutcome round = a.runner.runDueRound(world.account(), world.integration(), FLOOR);
    assertThat(round.state()).isEqualTo(RoundOutcome.State.FAILED);
    assertThat(round.overlays().get(world.overlay()).outcome()).isEqualTo("SUCCEEDED");
    assertThat(round.overlays().get(conflicted).lastError().code())
        .isEqualTo(ErrorCode.RECONCILE_CONFLICT.name());

    var integration = a.jobs.state(world.account(), world.integration()).orElseThrow();
    assertThat(integration.attempts()).isZero(); // the Integration does not back off
    assertThat(integration.lastError()).isNull();
    Schedules.OverlaySchedule healthy = schedules.overlay(world.account(), world.overlay());
    assertThat(healthy.state()).isEqualTo("idle");
    assertThat(healthy.lastError()).isNull();
    assertThat(healthy.lastSuccessAt()).isNotNull();
    Schedules.OverlaySchedule failing = schedules.overlay(world.account(), conflicted);
    assertThat(failing.state()).isEqualTo("backoff");
    assertThat(failing.lastError().code()).isEqualTo(ErrorCode.RECONCILE_CONFLICT.name());
    assertThat(failing.lastSuccessAt()).isNull();
    assertThat(failing.lagMillis()).isNull();
    // retried when its own backoff ends, before the Integration's next round
    assertThat(failing.nextRunAt()).isEqualTo(a.jobs.overlayRound(world.account(),
        world.integration(), conflicted).orElseThrow().nextAttemptAtMillis())
        .isLessThan(healthy.nextRunAt());

    // An Overlay created after that round has no success of its own yet.
    String late = world.w().overlay("late", world.integration(), world.w().catalog("late"),
        List.of(List.of("sales")));
    interval(world, late);
    Schedules.OverlaySchedule newcomer = schedules.overlay(world.account(), late);
    assertThat(newcomer.lastSuccessAt()).isNull();
    assertThat(newcomer.lagMillis()).isNull();
    assertThat(newcomer.lastError()).isNull();

    // While it backs off, the failed Overlay sits rounds out; the others take part.
    RoundOutcome next = a.runner.runRound(world.account(), world.integration(),
        UpstreamJobRunner.EVERY_OVERLAY);
    assertThat(next.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(next.overlays()).containsOnlyKeys(world.overlay(), late);
    assertThat(schedules.overlay(world.account(), late).lastSuccessAt()).isNotNull();

    // Once its backoff ended it takes part again (and fails again on its own).
    a.clock.advance(JobProcess.BACKOFF.base().plusSeconds(1));
    RoundOutcome retry = a.runner.runRound(world.account(), world.integration(),
        UpstreamJobRunner.EVERY_OVERLAY);
    assertThat(retry.overlays()).containsKey(conflicted);
    assertThat(a.jobs.state(world.account(), world.integration()).orElseThrow().attempts())
        .isZero();
    assertThat(a.jobs.overlayRound(world.account(), world.integration(), conflicted)
        .orElseThrow().attempts()).isEqualTo(2);
  }

  /** Two Overlays of the world's Integration, the second failing on its own (RECONCILE_CONFLICT). */
  private record Conflicted(World world, String overlay, String local) {}

  private Conflicted conflicted(String kind, String name) {
    World world = world(kind);
    String other = world.w().catalog("other");
    String local = world.w().localTable(other, List.of("sales"), "orders");
    String conflicted = world.w().overlay(name, world.integration(), other,
        List.of(List.of("sales")));
    interval(world, world.overlay());
    interval(world, conflicted);
    return new Conflicted(world, conflicted, local);
  }

  /**
   * Issue 28: an Overlay backing off on its own is retried when its backoff ends, in a round of
   * its own, not at its Integration's next interval round; that retry reads upstream for it alone
   * and leaves the Integration's cadence as it was. Until a round succeeds it shows backoff (never
   * idle), and its lastError is the problem the manual reconcile answers, details included.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anOverlaysOwnBackoffEndsInARetryOfItsOwn(String kind) throws Exception {
    Conflicted c = conflicted(kind, "conflicted");
    World world = c.world();
    String account = world.account();
    JobProcess a = process(world, Instant.now());
    Schedules schedules = new Schedules(world.w().repos(), a.clock, FLOOR);
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.FAILED);
    long roundStart = a.jobs.state(account, world.integration()).orElseThrow()
        .lastSuccessAtMillis();
    long healthyNext = schedules.overlay(account, world.overlay()).nextRunAt();

    Schedules.OverlaySchedule failing = schedules.overlay(account, c.overlay());
    assertThat(failing.lastError().details()).isNotEmpty();
    assertThatThrownBy(() -> a.operations.reconcile(account, c.overlay()))
        .isInstanceOfSatisfying(IcegateException.class, manual -> {
          assertThat(manual.code()).isEqualTo(ErrorCode.RECONCILE_CONFLICT);
          assertThat(failing.lastError().details()).isEqualTo(manual.details());
          assertThat(failing.lastError().message()).isEqualTo(manual.getMessage());
        });

    // Its backoff ended, its retry not run yet: still backoff, never idle before a success.
    a.clock.advance(JobProcess.BACKOFF.base().plusSeconds(1));
    assertThat(schedules.overlay(account, c.overlay()).state()).isEqualTo("backoff");
    // The Integration's interval (PT1M) has not passed: a retry of that Overlay alone.
    RoundOutcome retry = a.runner.runDueRound(account, world.integration(), FLOOR);
    assertThat(retry.state()).isEqualTo(RoundOutcome.State.FAILED);
    assertThat(retry.overlays()).containsOnlyKeys(c.overlay());
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.IDLE); // backing off again, and the others not due
    assertThat(a.jobs.overlayRound(account, world.integration(), c.overlay()).orElseThrow()
        .attempts()).isEqualTo(2);

    // The conflict gone, the next retry succeeds; the Integration's cadence did not move.
    world.w().repos().tables(account).delete(c.local(), ExpectedGeneration.any());
    a.clock.advance(JobProcess.BACKOFF.after(2).plusSeconds(1));
    RoundOutcome fixed = a.runner.runDueRound(account, world.integration(), FLOOR);
    assertThat(fixed.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(fixed.overlays()).containsOnlyKeys(c.overlay());
    Schedules.OverlaySchedule recovered = schedules.overlay(account, c.overlay());
    assertThat(recovered.state()).isEqualTo("idle");
    assertThat(recovered.lastError()).isNull();
    assertThat(recovered.lagMillis()).isNotNull();
    var integration = a.jobs.state(account, world.integration()).orElseThrow();
    assertThat(integration.lastSuccessAtMillis()).isEqualTo(roundStart);
    assertThat(integration.attempts()).isZero();
    assertThat(schedules.overlay(account, world.overlay()).nextRunAt()).isEqualTo(healthyNext);
  }

  /**
   * The schedule answers what the planner runs (a tryout saw the Integration's schedule answer
   * the shorter interval of an Overlay backing off on its own, and a next run in the past): the
   * Integration's interval and next run are its healthy Overlays', the failing Overlay's next run
   * is its retry, and at that retry it runs alone, its shorter interval starting no round for
   * the others.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void theScheduleForecastsWhatThePlannerRunsWhileAnOverlayBacksOff(String kind)
      throws Exception {
    Conflicted c = conflicted(kind, "conflicted");
    World world = c.world();
    String account = world.account();
    interval(world, c.overlay(), "PT5S");
    JobProcess a = process(world, Instant.now());
    Schedules schedules = new Schedules(world.w().repos(), a.clock, FLOOR);
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.FAILED);
    long start = a.jobs.state(account, world.integration()).orElseThrow().lastSuccessAtMillis();
    long retry = a.jobs.overlayRound(account, world.integration(), c.overlay()).orElseThrow()
        .nextAttemptAtMillis();

    a.clock.advance(FLOOR.plusSeconds(1));
    Schedules.IntegrationSchedule plan = schedules.integration(account, world.integration());
    assertThat(plan.interval()).isEqualTo("PT1M");
    assertThat(plan.overlays()).containsExactly(world.overlay());
    assertThat(plan.retries()).containsExactly(java.util.Map.entry(c.overlay(), retry));
    assertThat(plan.nextRunAt()).isEqualTo(start + 60_000);
    assertThat(schedules.overlay(account, world.overlay()).nextRunAt()).isEqualTo(start + 60_000);
    assertThat(schedules.overlay(account, c.overlay()).nextRunAt()).isEqualTo(retry);
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.IDLE); // as forecast: nothing due yet

    a.clock.advance(Duration.ofMillis(retry - a.clock.millis()));
    RoundOutcome retried = a.runner.runDueRound(account, world.integration(), FLOOR);
    assertThat(retried.overlays()).containsOnlyKeys(c.overlay());
    assertThat(a.jobs.state(account, world.integration()).orElseThrow().lastSuccessAtMillis())
        .isEqualTo(start);
  }

  /**
   * Issue 28: a successful manual reconcile, synchronous or asynchronous, ends the Overlay's own
   * backoff at once (state, attempts, lastError, lastSuccessAt, lag), not at the next scheduled
   * round; the count of Overlays backing off (the {@code /metrics} gauge) follows.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aSuccessfulManualReconcileEndsTheOverlaysBackoff(String kind) throws Exception {
    Conflicted c = conflicted(kind, "conflicted");
    World world = c.world();
    String account = world.account();
    String other = world.w().catalog("third");
    String local = world.w().localTable(other, List.of("sales"), "orders");
    String async = world.w().overlay("async", world.integration(), other,
        List.of(List.of("sales")));
    interval(world, async);
    JobProcess a = process(world, Instant.now());
    Schedules schedules = new Schedules(world.w().repos(), a.clock, FLOOR);
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.FAILED);
    assertThat(schedules.overview().overlaysBackingOff()).isEqualTo(2);
    assertThat(schedules.overlay(account, async).state()).isEqualTo("backoff");

    world.w().repos().tables(account).delete(c.local(), ExpectedGeneration.any());
    world.w().repos().tables(account).delete(local, ExpectedGeneration.any());
    long before = a.clock.millis();
    a.operations.reconcile(account, c.overlay());
    String operation = a.operations.submit(account, async).id();
    awaitUntil(() -> a.operations.get(account, operation).orElseThrow().state()
        == ReconcileOperation.State.SUCCEEDED);

    for (String overlay : List.of(c.overlay(), async)) {
      Schedules.OverlaySchedule cleared = schedules.overlay(account, overlay);
      assertThat(cleared.state()).as(overlay).isEqualTo("idle");
      assertThat(cleared.lastError()).as(overlay).isNull();
      assertThat(cleared.lastSuccessAt()).as(overlay).isGreaterThanOrEqualTo(before);
      assertThat(cleared.lagMillis()).as(overlay).isNotNull();
      assertThat(a.jobs.overlayRound(account, world.integration(), overlay).orElseThrow()
          .attempts()).as(overlay).isZero();
    }
    assertThat(schedules.overview().overlaysBackingOff()).isZero();
    a.clock.advance(JobProcess.BACKOFF.base().plusSeconds(1));
    assertThat(a.runner.runDueRound(account, world.integration(), FLOOR).state())
        .isEqualTo(RoundOutcome.State.IDLE); // nothing left to retry, the interval not up
  }
}
