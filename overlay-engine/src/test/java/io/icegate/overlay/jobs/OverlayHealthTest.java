package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
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
    world.w().overlays().update(world.account(), overlay, ExpectedGeneration.any(),
        new OverlayPatch(null, null, null, null, null, Optional.of("PT1M"), null, null));
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
    assertThat(failing.nextRunAt()).isGreaterThanOrEqualTo(healthy.nextRunAt());

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
}
