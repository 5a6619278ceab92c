package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.testing.FaultWorld;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 000 "Reconciliation publication and failure semantics" under storage faults: a run whose
 * selection moved from {@code [Marketing, sales.emea]} to {@code [sales]} has work in phase 3
 * (create sales.orders and the view) and phase 4 (retire Marketing.Campaigns, release and prune
 * the Marketing namespaces). Every commit of that run fails once with every fault kind; a retry
 * then converges to the desired inventory, the table both discoveries listed keeps its resource
 * (it was never retired), and the invariant checker holds. The run writes its run record inside
 * its first publishing transaction and its end in its last commit, so the faults cover the run
 * bookkeeping too.
 */
class ReconcileFaultTest {
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

  /** The world before the faulted run, and the ids the run must keep. */
  private record Setup(ReconcileHarness h, String catalog, String overlay, String customers) {}

  private static Setup setUp(FaultWorld world) {
    ReconcileHarness h = new ReconcileHarness(world.store, world.clock);
    String a = h.integration("a", upstream);
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("local"), "mine");
    String overlay = h.overlay("o", a, catalog,
        List.of(List.of("Marketing"), List.of("sales", "emea")));
    h.reconcile(overlay);
    String customers = h.relations(catalog).get("sales.emea.customers").id();
    h.overlays.update(h.account, overlay, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales")), null);
    return new Setup(h, catalog, overlay, customers);
  }

  /** A zero lease: a run that died holding the Overlay (its end was not recorded) blocks nobody. */
  private static void reconcile(Setup s) {
    s.h().reconciler(ReconcileHook.NONE, Duration.ZERO).reconcile(s.h().account, s.overlay());
  }

  private static void assertConverged(Setup s, FaultWorld world) {
    assertThat(s.h().relations(s.catalog())).containsOnlyKeys("local.mine", "sales.orders",
        "sales.order_summary", "sales.emea.customers");
    assertThat(s.h().relations(s.catalog()).get("sales.emea.customers").id())
        .isEqualTo(s.customers());
    assertThat(s.h().namespaces(s.catalog())).containsExactly("local", "sales", "sales.emea");
    ContributionInvariants.checker(world.store).assertClean();
  }

  @Test
  void everyCommitOfPublicationAndRetirementFailsOnceThenARetryConverges() {
    int commits;
    try (FaultWorld clean = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
        new ContributionInvariants())) {
      Setup s = setUp(clean);
      int before = clean.faults.commitsSeen();
      reconcile(s);
      commits = clean.faults.commitsSeen() - before;
      assertConverged(s, clean);
    }
    // At least one relations batch (which also writes the run record), one retirement batch, one
    // release, then the end of the run.
    assertThat(commits).isGreaterThanOrEqualTo(4);
    int fired = 0;
    for (int commit = 1; commit <= commits; commit++) {
      for (Fault fault : Fault.values()) {
        try (FaultWorld world = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
            new ContributionInvariants())) {
          Setup s = setUp(world);
          world.faults.failAt(world.faults.commitsSeen() + commit, fault);
          try {
            reconcile(s);
          } catch (RuntimeException expected) {
            // the faulted run may fail; what it left must converge on retry
          }
          fired += world.faults.injected().size();
          reconcile(s);
          assertConverged(s, world);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("commit " + commit + " fault " + fault, e);
        }
      }
    }
    assertThat(fired).isEqualTo(commits * Fault.values().length);
  }
}
