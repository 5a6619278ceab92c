package io.icegate.overlay.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.Fence;
import io.icegate.core.jobs.SchedulerState;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.overlay.reconcile.JobWorld;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 27, "What invalidates a job" (seed 000): each change is made while a job sits between
 * discovery and publication (held in the reconcile hook), and the job then publishes nothing,
 * is cancelled, and leaves nothing behind; after a configuration change the next round is
 * planned afresh and publishes. Then cleanup: Overlay delete, Integration delete and cascade and
 * account deletion remove jobs and scheduler state. On the in-memory store (real conflicts) and
 * on SQLite, with a second process's view of the same store checking what was left.
 *
 * <p>Pause of an Overlay or an Integration is not here: the members arrive with issue 28, which
 * makes a pause change advance the configuration generation, the same fence the selection and
 * URI cases exercise.
 */
class JobInvalidationTest extends JobTestSupport {
  static Stream<Arguments> changes() {
    List<Arguments> out = new ArrayList<>();
    for (String kind : List.of("memory", "sqlite")) {
      for (String change : List.of("integration-uri", "integration-properties",
          "integration-credentials", "overlay-selection", "overlay-replacement",
          "catalog-deletion", "overlay-deletion", "integration-cascade", "account-deletion",
          "overlay-pause", "integration-pause")) {
        out.add(Arguments.of(kind, change));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("changes")
  void aChangeBetweenDiscoveryAndPublicationCancelsTheJobAndNothingIsPublished(String kind,
      String change) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    a.gate.arm();
    Future<RoundOutcome> round = threads.submit(() -> a.runner.runRound(world.account(),
        world.integration(), UpstreamJobRunner.EVERY_OVERLAY));
    a.gate.awaitArrival();

    apply(world, change);
    a.gate.release.countDown();
    RoundOutcome outcome = round.get(120, TimeUnit.SECONDS);

    assertThat(outcome.state()).isEqualTo(RoundOutcome.State.CANCELLED);
    assertThat(outcome.detail()).isNotBlank();
    assertThat(world.w().relations(world.catalog())).isEmpty();
    assertThat(a.jobs.job(world.account(), world.integration())).isEmpty();
    assertThat(a.jobs.state(world.account(), world.integration())).isEmpty();
    switch (change) {
      case "overlay-deletion", "integration-cascade" ->
          assertThat(world.w().repos().overlays(world.account()).get(world.overlay())).isEmpty();
      case "account-deletion" ->
          assertThat(InvariantChecker.of(store).keysOfAccount(world.account())).isZero();
      case "catalog-deletion" -> {
        clearCatalogFence(world); // the deletion "fails" and the Catalog stays
        assertThat(a.runner.runRound(world.account(), world.integration(),
            UpstreamJobRunner.EVERY_OVERLAY).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
      }
      case "overlay-selection", "overlay-replacement", "integration-credentials" -> {
        RoundOutcome next = a.runner.runRound(world.account(), world.integration(),
            UpstreamJobRunner.EVERY_OVERLAY);
        assertThat(next.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
        assertThat(next.jobId()).isNotEqualTo(outcome.jobId());
        assertThat(world.w().relations(world.catalog())).isNotEmpty();
      }
      default -> { }
    }
  }

  /** Deleting an Overlay removes its reconcile run record with its scheduler state. */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anOverlayDeleteRemovesItsRunRecord(String kind) throws Exception {
    World world = world(kind);
    JobProcess a = process(world, Instant.now());
    assertThat(a.runner.runRound(world.account(), world.integration(),
        UpstreamJobRunner.EVERY_OVERLAY).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    byte[] run = KeyLayout.run(world.account(), world.overlay());
    byte[] before = store.read(tx -> tx.get(run));
    assertThat(before).isNotNull();
    world.w().overlays().delete(world.account(), world.overlay(), ExpectedGeneration.any());
    byte[] after = store.read(tx -> tx.get(run));
    assertThat(after).isNull();
    assertThat(a.jobs.overlayRound(world.account(), world.integration(), world.overlay()))
        .isEmpty();
  }

  /**
   * Interval and retention are read when planning: changing them while a round sits between
   * discovery and publication neither advances the configuration generation nor cancels it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anIntervalOrRetentionChangeDoesNotSupersedeTheRunningRound(String kind) throws Exception {
    World world = world(kind);
    long configuration = world.w().overlays().get(world.account(), world.overlay())
        .configurationGeneration();
    JobProcess a = process(world, Instant.now());
    a.gate.arm();
    Future<RoundOutcome> round = threads.submit(() -> a.runner.runRound(world.account(),
        world.integration(), UpstreamJobRunner.EVERY_OVERLAY));
    a.gate.awaitArrival();
    world.w().overlays().update(world.account(), world.overlay(), ExpectedGeneration.any(),
        new OverlayPatch(null, null, null, null, null, Optional.of("PT10M"),
            Optional.of("P7D"), null));
    a.gate.release.countDown();

    assertThat(round.get(120, TimeUnit.SECONDS).state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(world.w().relations(world.catalog())).isNotEmpty();
    assertThat(world.w().overlays().get(world.account(), world.overlay())
        .configurationGeneration()).isEqualTo(configuration);
  }

  /**
   * The job's generations cover every participant: a selection change of the second Overlay,
   * made while the round sits after the first Overlay's discovery, stops the first Overlay's
   * publication too (its own run fence alone would let it publish), and the whole round.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aChangeToAnotherParticipantCancelsTheWholeRound(String kind) throws Exception {
    World world = world(kind);
    String secondCatalog = world.w().catalog("second");
    String second = world.w().overlay("emea", world.integration(), secondCatalog,
        List.of(List.of("sales", "emea")));
    JobProcess a = process(world, Instant.now());
    a.gate.arm();
    Future<RoundOutcome> round = threads.submit(() -> a.runner.runRound(world.account(),
        world.integration(), UpstreamJobRunner.EVERY_OVERLAY));
    a.gate.awaitArrival();
    world.w().overlays().update(world.account(), second, ExpectedGeneration.any(), null, null,
        null, List.of(List.of("Marketing")), null);
    a.gate.release.countDown();
    RoundOutcome outcome = round.get(120, TimeUnit.SECONDS);
    assertThat(outcome.state()).isEqualTo(RoundOutcome.State.CANCELLED);
    assertThat(outcome.detail()).contains(second);
    assertThat(world.w().relations(world.catalog())).isEmpty();
    assertThat(world.w().relations(secondCatalog)).isEmpty();
    RoundOutcome next = a.runner.runRound(world.account(), world.integration(),
        UpstreamJobRunner.EVERY_OVERLAY);
    assertThat(next.state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(world.w().relations(secondCatalog)).containsOnlyKeys("Marketing.Campaigns");
  }

  private void apply(World world, String change) {
    JobWorld w = world.w();
    String account = world.account();
    switch (change) {
      case "integration-uri" -> w.integrations().update(account, world.integration(),
          ExpectedGeneration.any(), null, null, upstream.uri() + "/", null);
      case "integration-properties" -> w.integrations().update(account, world.integration(),
          ExpectedGeneration.any(), null, null, null, Map.of("client.region", "eu-west-1"));
      case "integration-credentials" -> w.integrations().rotate(account, world.integration(),
          ExpectedGeneration.any(), new IntegrationAuthentication.Bearer(),
          new SecretValues(Map.of("token", "rotated")));
      case "overlay-selection" -> w.overlays().update(account, world.overlay(),
          ExpectedGeneration.any(), null, null, null, List.of(List.of("sales", "emea")), null);
      case "overlay-pause" -> w.overlays().update(account, world.overlay(),
          ExpectedGeneration.any(), new OverlayPatch(null, null, null, null, null, null, null,
              true));
      case "integration-pause" -> w.integrations().update(account, world.integration(),
          ExpectedGeneration.any(), null, null, null, null, true);
      case "overlay-replacement" -> w.overlays().create(account,
          new CatalogOverlay("sales", world.integration(), world.catalog(),
              List.of(List.of("sales")), List.of()),
          new CreateRequest(OnConflict.REPLACE, null));
      case "catalog-deletion" -> store.run(tx -> {
        // A Catalog delete is refused while Overlays reference it; its deletion fence is what a
        // job must respect, so the test installs it as a deletion in progress would.
        w.repos().fences().install(tx, new Fence(catalogRef(world), "catalog-delete",
            Instant.now(), null));
        return null;
      });
      case "overlay-deletion" -> w.overlays().delete(account, world.overlay(),
          ExpectedGeneration.any());
      case "integration-cascade" -> w.cascade().delete(account, world.integration(),
          ExpectedGeneration.any());
      case "account-deletion" -> w.accountDeletion().delete(account, ExpectedGeneration.any());
      default -> throw new IllegalArgumentException(change);
    }
  }

  private static ResourceRef catalogRef(World world) {
    return new ResourceRef(world.account(), ResourceKind.CATALOG, world.catalog());
  }

  private void clearCatalogFence(World world) {
    store.run(tx -> {
      world.w().repos().fences().clear(tx, catalogRef(world));
      return null;
    });
  }

  /**
   * After a round (scheduler state for the Integration and its Overlay) with the next job
   * planned: each deletion removes what belongs to what it deleted, and nothing else.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void deletionsCleanUpJobsAndSchedulerState(String kind) throws Exception {
    World world = world(kind);
    JobWorld w = world.w();
    String account = world.account();
    String second = w.overlay("emea", world.integration(), w.catalog("second"),
        List.of(List.of("sales", "emea")));
    JobProcess a = process(world, Instant.now());
    assertThat(a.runner.runRound(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY)
        .state()).isEqualTo(RoundOutcome.State.SUCCEEDED);
    assertThat(a.jobs.overlayRound(account, world.integration(), world.overlay())).isPresent();
    assertThat(a.jobs.overlayRound(account, world.integration(), second)).isPresent();
    a.jobs.plan(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY).orElseThrow();

    // Overlay delete: its job (it took part) and its own state go; the Integration's stays.
    w.overlays().delete(account, world.overlay(), ExpectedGeneration.any());
    assertThat(a.jobs.job(account, world.integration())).isEmpty();
    assertThat(a.jobs.overlayRound(account, world.integration(), world.overlay())).isEmpty();
    assertThat(a.jobs.overlayRound(account, world.integration(), second)).isPresent();
    SchedulerState kept = a.jobs.state(account, world.integration()).orElseThrow();
    assertThat(kept.lastSuccessAtMillis()).isNotNull();
    ContributionInvariants.checker(store).assertClean();

    // Integration cascade: everything of the Integration goes.
    a.jobs.plan(account, world.integration(), UpstreamJobRunner.EVERY_OVERLAY).orElseThrow();
    w.cascade().delete(account, world.integration(), ExpectedGeneration.any());
    assertThat(a.jobs.job(account, world.integration())).isEmpty();
    assertThat(a.jobs.state(account, world.integration())).isEmpty();
    assertThat(a.jobs.overlayRound(account, world.integration(), second)).isEmpty();
    ContributionInvariants.checker(store).assertClean();

    // Plain Integration delete (no Overlays left) and account deletion.
    String lone = w.integration("lone", upstream);
    String loneOverlay = w.overlay("lone", lone, world.catalog(), List.of(List.of("Marketing")));
    assertThat(a.runner.runRound(account, lone, UpstreamJobRunner.EVERY_OVERLAY).state())
        .isEqualTo(RoundOutcome.State.SUCCEEDED);
    w.overlays().delete(account, loneOverlay, ExpectedGeneration.any());
    assertThat(a.jobs.state(account, lone)).isPresent();
    w.integrations().delete(account, lone, ExpectedGeneration.any());
    assertThat(a.jobs.state(account, lone)).isEmpty();

    String last = w.integration("last", upstream);
    w.overlay("last", last, world.catalog(), List.of(List.of("sales")));
    assertThat(a.runner.runRound(account, last, UpstreamJobRunner.EVERY_OVERLAY).state())
        .isEqualTo(RoundOutcome.State.SUCCEEDED);
    a.jobs.plan(account, last, UpstreamJobRunner.EVERY_OVERLAY).orElseThrow();
    w.accountDeletion().delete(account, ExpectedGeneration.any());
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isZero();
  }
}
