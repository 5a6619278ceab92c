package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.error.IcegateException;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.reconcile.InMemoryUpstream.Path;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.file.Files;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22's sweep of the fences a reconcile run meets between discovery and publication: per
 * seeded run, an Overlay whose selection moved (so its run both publishes and retires) is
 * reconciled while, at a seeded point of the run (after discovery, after preflight, after its
 * first publication batch, after retirement, after capture), another administrator deletes the
 * account, installs the Catalog's deletion marker, cascades the Integration's deletion, deletes
 * the Overlay, changes the Integration's URI or rotates its credential. From that point the run
 * writes nothing but its own run record's end while its Overlay exists (the store is otherwise
 * exactly as the change left it); the invariant checker is clean;
 * a deletion leaves nothing of what it deleted, and after any other change a new run converges to
 * the selection. On the in-memory store (real optimistic conflicts) and on SQLite, against
 * {@link InMemoryUpstream} (see there why not the HTTP fixture). {@code
 * -Dicegate.sweep.fenceRuns=N} changes the number of runs per store.
 */
class FenceDuringReconcileSweepTest {
  /**
   * Runs per store: 1,000 in memory; 200 on SQLite by default (each run opens its own file, about
   * five times slower; the note's 1,000-run SQLite figures come from {@code -Dicegate.sweep.fenceRuns=1000}).
   */
  private static int runs(String kind) {
    return Integer.getInteger("icegate.sweep.fenceRuns", kind.equals("sqlite") ? 200 : 1_000);
  }

  /** Where in the run the change lands. */
  enum Point { DISCOVERY, PREFLIGHT, FIRST_BATCH, RETIREMENT, CAPTURE }


  @TempDir java.nio.file.Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aFenceInstalledDuringARunStopsItsWritesAndLeavesAConvergentStore(String kind)
      throws Exception {
    int total = runs(kind);
    Map<ConcurrentChange, Integer> fired = new EnumMap<>(ConcurrentChange.class);
    Map<Point, Integer> points = new EnumMap<>(Point.class);
    long started = System.nanoTime();
    for (int seed = 0; seed < total; seed++) {
      java.nio.file.Path runDir = Files.createDirectories(dir.resolve("run" + seed));
      try (KvStore store = ReconcileHarness.openStore(kind, runDir)) {
        Random random = new Random(seed);
        Point point = Point.values()[random.nextInt(Point.values().length)];
        ConcurrentChange change = ConcurrentChange.values()[
            random.nextInt(ConcurrentChange.values().length)];
        if (run(store, random, point, change)) {
          fired.merge(change, 1, Integer::sum);
          points.merge(point, 1, Integer::sum);
        }
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(kind + " seed " + seed, e);
      }
    }
    System.out.printf("fence sweep (%s): %d runs, changes landed %s at %s, %d ms%n", kind, total,
        fired, points, (System.nanoTime() - started) / 1_000_000);
    // every change and every point is exercised, most runs really met the change
    assertThat(fired).hasSize(ConcurrentChange.values().length);
    assertThat(points).hasSize(Point.values().length);
    assertThat(fired.values().stream().mapToInt(Integer::intValue).sum())
        .isGreaterThan(total / 2);
  }

  /** One seeded run; returns whether the change landed inside the run. */
  private static boolean run(KvStore store, Random random, Point point,
      ConcurrentChange change) {
    InMemoryUpstream upstream = new InMemoryUpstream();
    for (String ns : List.of("a", "b")) {
      int tables = 1 + random.nextInt(3);
      for (int t = 0; t < tables; t++) {
        upstream.create(random.nextInt(4) == 0 ? CatalogObjectKind.VIEW : CatalogObjectKind.TABLE,
            new Path(List.of(ns), ns + "t" + t));
      }
    }
    MutableClock clock = MutableClock.start();
    ReconcileHarness h = new ReconcileHarness(store, clock,
        new IntegrationClients(upstream.factory(), OutboundAddressPolicy.defaults()));
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("local"), "mine");
    String integration = h.integration("up", "http://127.0.0.1:1");
    String overlay = h.overlay("o", integration, catalog, List.of(List.of("a")));
    run(h, overlay, ReconcileHook.NONE);
    h.overlays.update(h.account, overlay, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("b")), null);

    Map<String, String>[] afterChange = new Map[1];
    Runnable act = () -> {
      clock.advance(Duration.ofSeconds(1));
      change.apply(h, integration, catalog, overlay);
      afterChange[0] = h.content();
    };
    ReconcileHook hook = new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        at(Point.DISCOVERY);
      }

      @Override
      public void afterPreflight(Inventory inventory) {
        at(Point.PREFLIGHT);
      }

      @Override
      public void afterPublishBatch(int batch) {
        if (batch == 0) {
          at(Point.FIRST_BATCH);
        }
      }

      @Override
      public void afterRetirement(Inventory inventory) {
        at(Point.RETIREMENT);
      }

      @Override
      public void afterCapture(Inventory inventory) {
        at(Point.CAPTURE);
      }

      private void at(Point here) {
        if (here == point && afterChange[0] == null) {
          act.run();
        }
      }
    };
    boolean failed = false;
    try {
      run(h, overlay, hook);
    } catch (IcegateException e) {
      failed = true;
    }
    boolean landed = afterChange[0] != null;
    if (landed) {
      if (point == Point.DISCOVERY || point == Point.PREFLIGHT) {
        // all of its publication was still to come
        assertThat(failed).as("a run that met %s at %s", change, point).isTrue();
      }
      assertThat(withoutItsEnd(h.content(), h, overlay, change))
          .as("writes after %s at %s", change, point)
          .isEqualTo(withoutItsEnd(afterChange[0], h, overlay, change));
    }
    change.afterwards(h, catalog);
    InvariantChecker checker = InvariantChecker.of(store).with(new ContributionInvariants());
    checker.assertClean();
    if (change.deletesOverlay() && !landed) {
      change.apply(h, integration, catalog, overlay);
    }
    if (change == ConcurrentChange.ACCOUNT_DELETE) {
      assertThat(checker.keysOfAccount(h.account)).isZero();
    } else if (change.deletesOverlay()) {
      assertThat(h.relations(catalog)).containsOnlyKeys("local.mine");
      assertThat(h.namespaces(catalog)).containsExactly("local");
    } else {
      run(h, overlay, ReconcileHook.NONE);
      Set<String> expected = new TreeSet<>(List.of("local.mine"));
      upstream.objects().keySet().stream().filter(p -> p.namespace().equals(List.of("b")))
          .forEach(p -> expected.add(p.toString()));
      assertThat(h.relations(catalog).keySet()).containsExactlyInAnyOrderElementsOf(expected);
    }
    checker.assertClean();
    return landed;
  }

  /**
   * {@code content} without the run's own record while its Overlay exists: a stopped run records
   * its end there (FAILED), nothing else. Under a deleted Overlay it writes nothing at all.
   */
  private static Map<String, String> withoutItsEnd(Map<String, String> content,
      ReconcileHarness h, String overlay, ConcurrentChange change) {
    Map<String, String> rest = new java.util.TreeMap<>(content);
    if (!change.deletesOverlay()) {
      rest.remove(java.util.HexFormat.of().formatHex(KeyLayout.run(h.account, overlay)));
    }
    return rest;
  }

  /** A run that may retire what the selection dropped; a zero lease: a fenced run blocks none. */
  private static void run(ReconcileHarness h, String overlay, ReconcileHook hook) {
    h.reconciler(hook, Duration.ZERO).reconcile(h.account, overlay, MassRetirement.CONFIRMED,
        holder -> false);
  }
}
