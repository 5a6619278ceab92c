package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KeyLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An Integration's backoff does not outlive a fix of its configuration or credentials (a tryout
 * killed the upstream, restarted it on another port, PATCHed the uri, and the next round stayed
 * 15 minutes away): a failure records the generations its round was planned at, and a backoff
 * recorded for generations the Integration no longer has is over at the next plan. An unchanged
 * Integration, and a state stored before the generations were recorded, keep their backoff. A
 * successful manual reconcile, which read the upstream again, ends the backoff too. On the
 * in-memory store (real optimistic conflicts) and on SQLite, over the Iceberg REST fixture on
 * loopback.
 */
class BackoffGenerationsTest extends JobTestSupport {

  /** Its upstream a closed port; its Overlay of namespace sales, never reconciled. */
  private record Broken(World world, String integration, String overlay, JobProcess process) {
    RoundOutcome round() {
      return process.runner.runRound(world.account(), integration,
          UpstreamJobRunner.EVERY_OVERLAY);
    }

    SchedulerState state() {
      return process.jobs.state(world.account(), integration).orElseThrow();
    }
  }

  /** A world whose Integration "broken" failed one round (the upstream unreachable). */
  private Broken failedOnce(String kind) throws Exception {
    World world = world(kind);
    String broken;
    try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      broken = world.w().integration("broken", "http://127.0.0.1:" + closed.getLocalPort());
    }
    String overlay = world.w().overlay("dead", broken, world.catalog(), List.of(List.of("sales")));
    Broken b = new Broken(world, broken, overlay, process(world, Instant.now()));
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.FAILED);
    assertThat(b.state().attempts()).isEqualTo(1);
    assertThat(b.state().lastError().code()).isEqualTo("UPSTREAM_UNAVAILABLE");
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.IDLE); // backing off
    return b;
  }

  private void patchUri(Broken b, String uri) {
    b.world().w().integrations().update(b.world().account(), b.integration(),
        ExpectedGeneration.any(), null, null, uri, null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aPatchOfTheUriEndsTheBackoffAndTheNextRoundRunsAtOnce(String kind) throws Exception {
    Broken b = failedOnce(kind);
    patchUri(b, upstream.uri().toString());
    RoundOutcome next = b.round();
    assertThat(next.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(b.state().attempts()).isZero();
    assertThat(b.state().lastError()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCredentialRotationEndsTheBackoffAndAFurtherFailureCountsFromOne(String kind)
      throws Exception {
    Broken b = failedOnce(kind);
    b.world().w().integrations().rotate(b.world().account(), b.integration(),
        ExpectedGeneration.any(), new IntegrationAuthentication.Bearer(),
        new SecretValues(Map.of("token", "rotated")));
    RoundOutcome next = b.round(); // planned at once: the upstream is still down, so it fails
    assertThat(next.state()).isEqualTo(RoundOutcome.State.FAILED);
    assertThat(b.state().attempts()).isEqualTo(1); // the new credentials' first failure
    assertThat(b.state().nextAttemptAtMillis() - b.state().lastAttemptAtMillis())
        .isEqualTo(JobProcess.BACKOFF.after(1).toMillis());
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.IDLE); // backing off again
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anUnchangedIntegrationKeepsItsBackoff(String kind) throws Exception {
    Broken b = failedOnce(kind);
    // a change that is not the connection (display name): metadata, no generation moves
    b.world().w().integrations().update(b.world().account(), b.integration(),
        ExpectedGeneration.any(), "renamed", null, null, null);
    b.process().clock.advance(JobProcess.BACKOFF.after(1).minusMillis(1));
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.IDLE);
    b.process().clock.advance(Duration.ofMillis(1));
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.FAILED);
    assertThat(b.state().attempts()).isEqualTo(2);
  }

  /** A state stored before the generations were recorded reads, and backs off as it did. */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aStateStoredWithoutGenerationsKeepsTodaysBackoff(String kind) throws Exception {
    Broken b = failedOnce(kind);
    SchedulerState now = b.state();
    assertThat(now.failedConfigurationGeneration()).isNotNull();
    String old = "{\"attempts\":1,\"lastAttemptAtMillis\":" + now.lastAttemptAtMillis()
        + ",\"lastSuccessAtMillis\":null,\"nextAttemptAtMillis\":" + now.nextAttemptAtMillis()
        + ",\"lastError\":{\"code\":\"UPSTREAM_UNAVAILABLE\",\"message\":\"down\"}}";
    store.run(tx -> {
      tx.set(KeyLayout.schedule(b.world().account(), b.integration()),
          old.getBytes(StandardCharsets.UTF_8));
      return null;
    });
    patchUri(b, upstream.uri().toString());
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.IDLE);
    SchedulerState read = b.state();
    assertThat(read.failedConfigurationGeneration()).isNull();
    assertThat(read.lastError().message()).isEqualTo("down");
    b.process().clock.advance(JobProcess.BACKOFF.after(1));
    assertThat(b.round().state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
  }

  /**
   * A manual reconcile that succeeded after the failing round proves the upstream answers: the
   * Integration's next round is due at once (as Polaris- or Gravitino-like users expect).
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aSuccessfulManualReconcileEndsTheIntegrationsBackoff(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    String account = world.account();
    var held = a.jobs.plan(account, world.integration(), o -> true, "a").orElseThrow();
    // the upstream was unreachable for that round (it answers again now)
    assertThat(a.jobs.end(held, Map.of(), new SchedulerState.Problem("UPSTREAM_UNAVAILABLE",
        "down"))).isTrue();
    assertThat(a.runner.runRound(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY)
        .state()).isEqualTo(RoundOutcome.State.IDLE);
    a.clock.advance(Duration.ofMillis(1));
    a.operations.reconcile(account, world.overlay());
    SchedulerState after = a.jobs.state(account, world.integration()).orElseThrow();
    assertThat(after.nextAttemptAtMillis()).isEqualTo(a.clock.millis());
    assertThat(after.attempts()).isEqualTo(1); // until the next round ends
    assertThat(a.runner.runRound(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY)
        .state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(a.jobs.state(account, world.integration()).orElseThrow().attempts()).isZero();
  }
}
