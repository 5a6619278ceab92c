package io.icegate.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.overlay.RecordingRetirement;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.FaultWorld;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The job protocol of {@link UpstreamJobs} on the in-memory store, step by step: planning keeps
 * a current job and replaces a stale one, leases and epochs, what a holder that lost its job can
 * still do (nothing), and an end racing a delete. Rounds over a real upstream and two processes
 * (in-memory and SQLite) are overlay-engine's {@code UpstreamJobRunnerTest}.
 */
class UpstreamJobsTest {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(10), Duration.ofMinutes(1));

  private FaultWorld world;
  private IntegrationService integrations;
  private OverlayService overlays;
  private UpstreamJobs jobs;
  private String account;
  private String integration;
  private String catalog;
  private String overlay;

  @BeforeEach
  void setUp() {
    world = FaultWorld.open(InMemoryEngine.create());
    CredentialStore credentials =
        new CredentialStore(world.store, MasterKey.of(new byte[32]), world.clock);
    integrations = new IntegrationService(world.repos,
        new CredentialedWrites(new CredentialPublication(credentials), world.creates),
        credentials, host -> { });
    overlays = new OverlayService(world.repos, world.creates, new RecordingRetirement(world.store));
    account = world.repos.accounts().create(new Account("acme")).id();
    catalog = world.repos.catalogs(account).create(new Catalog("target", "file:/w", Map.of()))
        .id();
    integration = integrations.create(account, new Integration("up", IntegrationType.ICEBERG_REST,
        "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0),
        new SecretValues(Map.of("token", "t")), new CreateRequest(OnConflict.ERROR, null))
        .outcome().resource().id();
    overlay = overlay("o", List.of(List.of("sales")));
    jobs = new UpstreamJobs(world.repos, world.clock, LEASE, BACKOFF);
  }

  @AfterEach
  void check() {
    world.checker().assertClean();
    world.close();
  }

  private String overlay(String name, List<List<String>> include) {
    return overlays.create(account, new CatalogOverlay(name, integration, catalog, include,
        List.of()), new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
  }

  private UpstreamJob plan() {
    return jobs.plan(account, integration, o -> true).orElseThrow();
  }

  @Test
  void planningKeepsACurrentJobAndReplacesOneThatNoLongerMatches() {
    UpstreamJob first = plan();
    assertThat(first.participants()).extracting(UpstreamJob.Participant::overlayId)
        .containsExactly(overlay);
    assertThat(plan().jobId()).isEqualTo(first.jobId());
    overlays.update(account, overlay, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales", "emea")), null);
    UpstreamJob second = plan();
    assertThat(second.jobId()).isNotEqualTo(first.jobId());
    assertThat(second.participants().get(0).configurationGeneration())
        .isGreaterThan(first.participants().get(0).configurationGeneration());
    // Demand is read when planning: a planned job stays until it runs or goes stale.
    assertThat(jobs.plan(account, integration, o -> false)).contains(second);
    jobs.cancel(jobs.acquire(account, integration, "a").orElseThrow());
    assertThat(jobs.plan(account, integration, o -> false)).isEmpty();
    assertThat(jobs.job(account, integration)).isEmpty();
  }

  @Test
  void aLeaseIsExclusiveUntilItLapsesAndATakeoverFencesTheEarlierHolderOut() {
    plan();
    UpstreamJob a = jobs.acquire(account, integration, "a").orElseThrow();
    assertThat(a.epoch()).isEqualTo(1);
    assertThat(jobs.acquire(account, integration, "a").orElseThrow().epoch()).isEqualTo(1);
    assertThat(jobs.acquire(account, integration, "b")).isEmpty();
    world.clock.advance(LEASE.minusSeconds(1));
    a = jobs.renew(a).orElseThrow();
    world.clock.advance(LEASE.minusSeconds(1));
    assertThat(jobs.acquire(account, integration, "b")).isEmpty();
    world.clock.advance(Duration.ofSeconds(1));
    UpstreamJob b = jobs.acquire(account, integration, "b").orElseThrow();
    assertThat(b.epoch()).isEqualTo(2);
    assertThat(b.jobId()).isEqualTo(a.jobId());

    UpstreamJob stale = a;
    assertThat(jobs.renew(stale)).isEmpty();
    assertThat(jobs.whatMoved(stale)).isPresent();
    assertThatThrownBy(() -> world.store.read(tx -> {
      jobs.fence().assertCurrent(tx, stale);
      return null;
    })).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED));
    assertThat(jobs.end(stale, Map.of(), null)).isFalse();
    jobs.cancel(stale);
    assertThat(jobs.job(account, integration).orElseThrow().lease().holder()).isEqualTo("b");
    assertThat(jobs.whatMoved(b)).isEmpty();
    assertThat(jobs.end(b, Map.of(overlay, new SchedulerState.OverlayRound(b.jobId(),
        "SUCCEEDED", 0, null)), null)).isTrue();
    assertThat(jobs.job(account, integration)).isEmpty();
    assertThat(jobs.state(account, integration).orElseThrow().lastSuccessAtMillis())
        .isEqualTo(b.lease().acquiredAtMillis());
  }

  /** Issue 28's idle cost: planning and leasing a round is one write transaction. */
  @Test
  void planningWithAHolderLeasesTheJobInTheSameTransaction() {
    long before = world.store.stats().committedWrites();
    UpstreamJob a = jobs.plan(account, integration, o -> true, "a").orElseThrow();
    assertThat(world.store.stats().committedWrites() - before).isEqualTo(1);
    assertThat(a.lease().holder()).isEqualTo("a");
    assertThat(a.epoch()).isEqualTo(1);
    UpstreamJob seenByB = jobs.plan(account, integration, o -> true, "b").orElseThrow();
    assertThat(seenByB.lease().holder()).isEqualTo("a"); // a's lease lives: b is busy
    world.clock.advance(LEASE);
    UpstreamJob b = jobs.plan(account, integration, o -> true, "b").orElseThrow();
    assertThat(b.lease().holder()).isEqualTo("b");
    assertThat(b.epoch()).isEqualTo(2);
    assertThat(b.jobId()).isEqualTo(a.jobId());
  }

  /** An Overlay's own failure backs off that Overlay only; the Integration does not. */
  @Test
  void anOverlaysOwnFailureBacksOffOnlyThatOverlay() {
    String other = overlay("other", List.of(List.of("Marketing")));
    UpstreamJob a = jobs.plan(account, integration, o -> true, "a").orElseThrow();
    SchedulerState.Problem conflict = new SchedulerState.Problem("RECONCILE_CONFLICT", "x");
    assertThat(jobs.end(a, Map.of(overlay, new SchedulerState.OverlayRound(a.jobId(),
        "SUCCEEDED", 0, null), other, new SchedulerState.OverlayRound(a.jobId(), "FAILED", 0,
        conflict)), null)).isTrue();
    assertThat(jobs.state(account, integration).orElseThrow().attempts()).isZero();
    SchedulerState.OverlayRound failed = jobs.overlayRound(account, integration, other)
        .orElseThrow();
    assertThat(failed.attempts()).isEqualTo(1);
    assertThat(failed.lastSuccessAtMillis()).isNull();
    assertThat(failed.nextAttemptAtMillis()).isEqualTo(world.clock.millis()
        + BACKOFF.after(1).toMillis());
    assertThat(jobs.overlayRound(account, integration, overlay).orElseThrow()
        .lastSuccessAtMillis()).isEqualTo(a.lease().acquiredAtMillis());
    UpstreamJob next = jobs.plan(account, integration, o -> true).orElseThrow();
    assertThat(next.includes(overlay)).isTrue();
    assertThat(next.includes(other)).isFalse(); // sits out until its backoff ends
  }

  private void interval(String overlayId, String interval) {
    overlays.update(account, overlayId, ExpectedGeneration.any(), new OverlayPatch(null, null,
        null, null, null, Optional.of(interval), null, null));
  }

  /**
   * The schedule views forecast what the planner plans (a tryout saw the Integration's schedule
   * answer the interval of an Overlay sitting rounds out in its own backoff, and a next run in
   * the past): the backing-off Overlay, though its interval is the shorter, shapes neither the
   * Integration's interval nor its next run; it is listed with its retry, which is its own
   * nextRunAt; and the planner plans nothing before that retry or that next run.
   */
  @Test
  void theScheduleForecastsTheRoundsThePlannerPlans() {
    Duration floor = Duration.ofSeconds(5);
    String other = overlay("other", List.of(List.of("Marketing")));
    interval(overlay, "PT1M");
    interval(other, "PT5S");
    Schedules schedules = new Schedules(world.repos, world.clock, floor);
    UpstreamJob a = jobs.planDue(account, integration, floor, "a").orElseThrow();
    assertThat(a.participants()).hasSize(2);
    assertThat(jobs.end(a, Map.of(overlay, new SchedulerState.OverlayRound(a.jobId(),
        "SUCCEEDED", 0, null), other, new SchedulerState.OverlayRound(a.jobId(), "FAILED", 0,
        new SchedulerState.Problem("RECONCILE_CONFLICT", "x"))), null)).isTrue();
    long start = a.lease().acquiredAtMillis();
    long retry = jobs.overlayRound(account, integration, other).orElseThrow()
        .nextAttemptAtMillis();

    world.clock.advance(Duration.ofSeconds(6)); // past the backing-off Overlay's interval
    Schedules.IntegrationSchedule plan = schedules.integration(account, integration);
    assertThat(plan.interval()).isEqualTo("PT1M");
    assertThat(plan.overlays()).containsExactly(overlay);
    assertThat(plan.retries()).containsExactly(Map.entry(other, retry));
    assertThat(plan.nextRunAt()).isEqualTo(start + 60_000).isGreaterThan(world.clock.millis());
    assertThat(schedules.overlay(account, overlay).nextRunAt()).isEqualTo(start + 60_000);
    assertThat(schedules.overlay(account, other).nextRunAt()).isEqualTo(retry);
    assertThat(jobs.planDue(account, integration, floor)).isEmpty(); // as forecast: nothing due

    // Its backoff over, the Overlay is eligible again: retried alone, as its nextRunAt said.
    world.clock.advance(Duration.ofMillis(retry - world.clock.millis()));
    assertThat(schedules.integration(account, integration).retries()).isEmpty();
    UpstreamJob retried = jobs.planDue(account, integration, floor).orElseThrow();
    assertThat(retried.participants()).extracting(UpstreamJob.Participant::overlayId)
        .containsExactly(other);
  }

  /**
   * Before the first round nothing is stored but the round is due: the schedule views say now, not
   * the epoch (a tryout's console showed a next run in 1970).
   */
  @Test
  void beforeTheFirstRoundTheNextRunIsNowNotTheEpoch() {
    interval(overlay, "PT1M");
    Schedules schedules = new Schedules(world.repos, world.clock, Duration.ofSeconds(5));
    long now = world.clock.millis();
    assertThat(schedules.integration(account, integration).nextRunAt()).isEqualTo(now);
    assertThat(schedules.overlay(account, overlay).nextRunAt()).isEqualTo(now);
    world.clock.advance(Duration.ofSeconds(3)); // still due: still now
    assertThat(schedules.overlay(account, overlay).nextRunAt()).isEqualTo(now + 3_000);
  }

  @Test
  void aHolderWhoseLeaseLapsedByItsOwnClockMayNotPublish() {
    plan();
    UpstreamJob a = jobs.acquire(account, integration, "a").orElseThrow();
    world.clock.advance(LEASE);
    assertThat(jobs.whatMoved(a)).contains("its lease lapsed");
  }

  @Test
  void failuresBackOffAndPlanningWaits() {
    plan();
    UpstreamJob a = jobs.acquire(account, integration, "a").orElseThrow();
    SchedulerState.Problem problem = new SchedulerState.Problem("UPSTREAM_UNAVAILABLE", "down");
    assertThat(jobs.end(a, Map.of(), problem)).isTrue();
    SchedulerState state = jobs.state(account, integration).orElseThrow();
    assertThat(state.attempts()).isEqualTo(1);
    assertThat(state.lastError()).isEqualTo(problem);
    assertThat(jobs.plan(account, integration, o -> true)).isEmpty();
    world.clock.advance(BACKOFF.after(1));
    assertThat(jobs.plan(account, integration, o -> true)).isPresent();
  }

  /**
   * A fence whose Integration or Overlay record is gone says it was deleted (a tryout was told a
   * deleted Integration "changed its configuration or credentials"), as RunFence does.
   */
  @Test
  void aFenceSaysTheIntegrationOrOverlayWasDeletedOnceItsRecordIsGone() {
    UpstreamJob job = plan();
    overlays.delete(account, overlay, ExpectedGeneration.any());
    assertThat(moved(job))
        .contains("overlay " + overlay + " was deleted");
    integrations.delete(account, integration, ExpectedGeneration.any());
    assertThat(moved(job))
        .contains("integration " + integration + " was deleted");
  }

  private Optional<String> moved(UpstreamJob job) {
    return world.store.read(tx -> jobs.fence().plannedMoved(tx, job));
  }

  /**
   * The schedule views read the backoff as the planner does: once the credentials were rotated
   * after the failing round, nextRunAt says now and the Integration no longer counts as backing
   * off, while the failure still shows until a round ends.
   */
  @Test
  void aBackoffRecordedForOlderGenerationsIsOverInTheScheduleViews() {
    Duration floor = Duration.ofSeconds(5);
    interval(overlay, "PT1M");
    Schedules schedules = new Schedules(world.repos, world.clock, floor);
    UpstreamJob a = jobs.planDue(account, integration, floor, "a").orElseThrow();
    SchedulerState.Problem down = new SchedulerState.Problem("UPSTREAM_UNAVAILABLE", "down");
    assertThat(jobs.end(a, Map.of(), down)).isTrue();
    long until = world.clock.millis() + BACKOFF.after(1).toMillis();
    assertThat(schedules.integration(account, integration).nextRunAt()).isEqualTo(until);
    assertThat(schedules.overview().backingOff()).isEqualTo(1);
    assertThat(jobs.planDue(account, integration, floor)).isEmpty();

    integrations.rotate(account, integration, ExpectedGeneration.any(),
        new IntegrationAuthentication.Bearer(), new SecretValues(Map.of("token", "t2")));
    long now = world.clock.millis();
    assertThat(schedules.integration(account, integration).nextRunAt()).isEqualTo(now);
    assertThat(schedules.integration(account, integration).lastError()).isEqualTo(down);
    assertThat(schedules.overlay(account, overlay).nextRunAt()).isEqualTo(now);
    assertThat(schedules.overlay(account, overlay).state()).isEqualTo("backoff");
    assertThat(schedules.overview().backingOff()).isZero();
    assertThat(jobs.planDue(account, integration, floor)).isPresent();
  }

  @Test
  void anEndRacingAnOverlayDeleteNeverWritesTheDeletedOverlaysStateBack() {
    String other = overlay("other", List.of(List.of("Marketing")));
    plan();
    UpstreamJob a = jobs.acquire(account, integration, "a").orElseThrow();
    overlays.delete(account, other, ExpectedGeneration.any()); // drops the job: it took part
    assertThat(jobs.job(account, integration)).isEmpty();
    assertThat(jobs.end(a, Map.of(other, new SchedulerState.OverlayRound(a.jobId(), "SUCCEEDED",
        0, null)), null)).isFalse();
    assertThat(jobs.overlayRound(account, integration, other)).isEmpty();
    assertThat(jobs.state(account, integration)).isEmpty();
  }
}
