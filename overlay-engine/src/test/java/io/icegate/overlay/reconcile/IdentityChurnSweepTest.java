package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static io.icegate.overlay.reconcile.ReconcileCount.UPDATED;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.store.OverlayStore;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.FaultWorld;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.reconcile.InMemoryUpstream.Obj;
import io.icegate.overlay.reconcile.InMemoryUpstream.Path;
import io.icegate.overlay.selection.NamespaceSelection;
import io.icegate.access.model.NamespacePath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The identity sweep of issue 21: seeded random upstream histories ({@link UpstreamHistories}:
 * renames, cycles of any length, moves across namespaces, namespace moves, drops, re-creates,
 * tables and views mixed) reconciled on the in-memory store with real conflicts, with the process
 * crashed at every commit point of every run after the first (the commit applied or not, in
 * turn), then restarted and reconciled again. After every crash the store's invariants hold
 * ({@code InvariantChecker}); after every clean run each stable identity sits at exactly its
 * upstream path with the icegate id it had, the Overlay claims exactly the selected namespaces and
 * their ancestors, and the catalog equals the upstream selection plus its local content.
 *
 * <p>The upstream is {@link InMemoryUpstream}, at the catalog-access SPI boundary: the subject here
 * is the reconciler, and tens of thousands of runs against the HTTP fixture would not fit CI (see
 * that class). {@code -Dicegate.sweep.seeds=N} and {@code -Dicegate.sweep.steps=N} (history steps
 * per seed, each crashed at every commit point) raise the sweep for a soak.
 */
class IdentityChurnSweepTest {
  private static final int SEEDS = Integer.getInteger("icegate.sweep.seeds", 1_000);
  private static final int STEPS = Integer.getInteger("icegate.sweep.steps", 1);

  /** One store and what a reconcile over it needs. */
  private static final class World implements AutoCloseable {
    final FaultWorld faults;
    final Reconciler reconciler;
    final String account;
    final String overlay;

    World(FaultWorld faults, IntegrationClients clients, String account, String overlay) {
      this.faults = faults;
      Repositories repos = faults.repos;
      CredentialStore credentials =
          new CredentialStore(faults.store, MasterKey.of(new byte[32]), faults.clock);
      // A zero lease: the record of a crashed run blocks nobody.
      this.reconciler = new Reconciler(repos, new IntegrationAdapter(repos, credentials), clients,
          new ReconcileSettings(2, 2, Duration.ZERO), ReconcileHook.NONE);
      this.account = account;
      this.overlay = overlay;
    }

    /** A run allowed to retire everything: histories empty namespaces on purpose. */
    ReconcileReport reconcile() {
      faults.clock.advance(Duration.ofSeconds(1));
      return reconciler.reconcile(account, overlay, MassRetirement.CONFIRMED, holder -> false);
    }

    /** The same data in a new store (a quiescent copy, small enough for one transaction). */
    World fork(IntegrationClients clients) {
      List<KeyValue> all = faults.store.read(tx -> tx.getRange(new byte[] {0x00},
          new byte[] {(byte) 0xff}));
      FaultWorld copy = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
          new ContributionInvariants());
      copy.clock.advance(Duration.between(copy.clock.instant(), faults.clock.instant()));
      copy.store.run(tx -> {
        all.forEach(kv -> tx.set(kv.key(), kv.value()));
        return null;
      });
      return new World(copy, clients, account, overlay);
    }

    @Override
    public void close() {
      faults.close();
    }
  }

  /** Figures of the whole sweep. */
  private static final class Figures {
    long reconciles;
    long crashes;
    long crashesApplied;
    long retiringAndPublishing;
  }

  @Test
  void seededHistoriesReconcileInOneRunAndConvergeAfterACrashAtEveryCommitPoint() {
    long started = System.nanoTime();
    Figures figures = new Figures();
    for (int seed = 0; seed < SEEDS; seed++) {
      try {
        sweep(seed, figures);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + " failed", e);
      }
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    System.out.printf("identity sweep: %d seeded histories, %d reconciles, %d crash points"
            + " (%d with the commit applied), %d history runs that retired and published, %d ms%n",
        SEEDS, figures.reconciles, figures.crashes, figures.crashesApplied,
        figures.retiringAndPublishing, millis);
    assertThat(figures.crashes).isGreaterThanOrEqualTo(SEEDS);
  }

  private static void sweep(int seed, Figures figures) {
    Random random = new Random(seed);
    InMemoryUpstream upstream = new InMemoryUpstream();
    IntegrationClients clients =
        new IntegrationClients(upstream.factory(), OutboundAddressPolicy.defaults());
    UpstreamHistories history = new UpstreamHistories(random, upstream);
    history.initial();
    NamespaceSelection selection = random.nextBoolean() ? NamespaceSelection.all()
        : NamespaceSelection.of(List.of(List.of("a"), List.of("b")), List.of());
    List<List<String>> include = selection.includeNamespaces().stream()
        .map(NamespacePath::segments).toList();

    FaultWorld first = FaultWorld.open(InMemoryEngine.create(), new OverlayStore(),
        new ContributionInvariants());
    ReconcileHarness h = new ReconcileHarness(first.store, first.clock, clients);
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("local"), "mine");
    String overlay = h.overlay("o", h.integration("up", "http://127.0.0.1:1"), catalog, include);
    World base = new World(first, clients, h.account, overlay);
    try {
      base.reconcile();
      figures.reconciles++;
      Map<String, String> ids = assertMatches(base, catalog, upstream, selection, Map.of(),
          history);
      for (int step = 0; step < STEPS; step++) {
        history.step();
        World probe = base.fork(clients);
        int before = probe.faults.faults.commitsSeen();
        ReconcileReport report = probe.reconcile();
        figures.reconciles++;
        int commits = probe.faults.faults.commitsSeen() - before;
        if (report.count(RETIRED) > 0 && report.count(CREATED) + report.count(UPDATED) > 0) {
          figures.retiringAndPublishing++;
        }
        Map<String, String> next = assertMatches(probe, catalog, upstream, selection, ids,
            history);
        for (int commit = 1; commit <= commits; commit++) {
          boolean applied = (commit + seed) % 2 == 0;
          try (World crashed = base.fork(clients)) {
            crashed.faults.faults.crashAt(crashed.faults.faults.commitsSeen() + commit, applied);
            try {
              crashed.reconcile();
            } catch (RuntimeException expected) {
              // the process died at that commit
            }
            assertThat(crashed.faults.faults.crashed()).as("crash at commit " + commit).isTrue();
            crashed.faults.faults.restart();
            assertCleanStore(crashed, history, "after a crash at commit " + commit);
            crashed.reconcile();
            figures.reconciles += 2;
            figures.crashes++;
            figures.crashesApplied += applied ? 1 : 0;
            assertMatches(crashed, catalog, upstream, selection, ids, history);
          }
        }
        base.close();
        base = probe;
        ids = next;
      }
    } finally {
      base.close();
    }
  }

  private static void assertCleanStore(World world, UpstreamHistories history, String when) {
    List<String> violations = world.faults.checker().violations();
    assertThat(violations).as(when + "; history " + history.log()).isEmpty();
  }

  /**
   * After a clean run: the store's invariants; the catalog equals the upstream selection plus
   * {@code local.mine}; each managed relation's identity is the upstream object's at its path; an
   * identity already materialized keeps its icegate id; the Overlay claims exactly the selected
   * namespaces and their ancestors.
   *
   * @return each identity's icegate id
   */
  private static Map<String, String> assertMatches(World world, String catalog,
      InMemoryUpstream upstream, NamespaceSelection selection, Map<String, String> before,
      UpstreamHistories history) {
    String why = "history " + history.log();
    assertCleanStore(world, history, "after a clean run");
    Map<String, Obj> expected = new TreeMap<>();
    upstream.objects().forEach((path, obj) -> {
      if (selection.selects(new NamespacePath(path.namespace()))) {
        expected.put(path.toString(), obj);
      }
    });
    Map<String, Resource<?>> relations =
        ReconcileHarness.relations(world.faults.repos, world.account, catalog);
    Resource<?> local = relations.remove("local.mine");
    assertThat(local).as(why).isNotNull();
    assertThat(relations.keySet()).as(why).isEqualTo(expected.keySet());
    Map<String, String> ids = new HashMap<>();
    relations.forEach((path, relation) -> {
      Provenance p = ManagedRelations.provenanceOf(relation);
      Obj obj = expected.get(path);
      assertThat(p.externalId()).as(path + "; " + why).isEqualTo(obj.uuid());
      assertThat(relation.kind().name()).as(path + "; " + why).isEqualTo(obj.kind().name());
      if (before.containsKey(obj.uuid())) {
        assertThat(relation.id()).as("icegate id of " + path + "; " + why)
            .isEqualTo(before.get(obj.uuid()));
      }
      ids.put(obj.uuid(), relation.id());
    });
    Set<List<String>> selected = new TreeSet<>(java.util.Comparator.comparing(Object::toString));
    for (List<String> ns : upstream.namespaces()) {
      if (selection.selects(new NamespacePath(ns))) {
        for (int depth = 1; depth <= ns.size(); depth++) {
          selected.add(List.copyOf(ns.subList(0, depth)));
        }
      }
    }
    Set<List<String>> claimed = new TreeSet<>(java.util.Comparator.comparing(Object::toString));
    world.faults.store.read(tx -> {
      for (String id : new NamespaceClaims().claimedBy(tx, world.account, world.overlay)) {
        claimed.add(world.faults.repos.namespaces(world.account).get(tx, id).orElseThrow()
            .spec().path());
      }
      return null;
    });
    assertThat(claimed).as("claims; " + why).isEqualTo(selected);
    return ids;
  }
}
