package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.HookedStore;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.reconcile.InMemoryUpstream.Path;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.tablevalidation.TableRevalidation;
import io.icegate.overlay.tablevalidation.TableValidator;
import java.nio.file.Files;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 22's sweep of revalidation (issue 10) under concurrent administrators: per seeded run, a
 * managed Table (or every Table of the Integration) is revalidated while, between the
 * revalidation's reads and its first publishing transaction, another administrator rotates the
 * Integration's credential, changes its URI, deletes the account, installs the Catalog's deletion
 * marker, cascades the Integration's deletion or deletes the Overlay, or nobody does anything.
 * Fenced on the deletion markers and on the Integration's configuration and credential
 * generations it observed, a revalidation that met a change publishes nothing (the store is
 * exactly as the change left it); one that met none publishes. The invariant checker is clean
 * after every run. In-memory store and SQLite, against {@link InMemoryUpstream}. {@code
 * -Dicegate.sweep.revalidationRuns=N} changes the number of runs per store.
 */
class RevalidationFenceSweepTest {
  /**
   * Runs per store: 1,000 in memory; 200 on SQLite by default (each run opens its own file, about
   * five times slower; the note's 1,000-run SQLite figures come from {@code -Dicegate.sweep.revalidationRuns=1000}).
   */
  private static int runs(String kind) {
    return Integer.getInteger("icegate.sweep.revalidationRuns", kind.equals("sqlite") ? 200 : 1_000);
  }


  @TempDir java.nio.file.Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aRevalidationThatMetAChangePublishesNothing(String kind) throws Exception {
    int total = runs(kind);
    Map<ConcurrentChange, Integer> raced = new EnumMap<>(ConcurrentChange.class);
    int unraced = 0;
    long started = System.nanoTime();
    for (int seed = 0; seed < total; seed++) {
      java.nio.file.Path runDir = Files.createDirectories(dir.resolve("run" + seed));
      try (KvStore store = ReconcileHarness.openStore(kind, runDir)) {
        Random random = new Random(seed);
        // one in seven runs races nobody (null)
        int pick = random.nextInt(ConcurrentChange.values().length + 1);
        ConcurrentChange change =
            pick == ConcurrentChange.values().length ? null : ConcurrentChange.values()[pick];
        if (run(new HookedStore(store), random, change)) {
          raced.merge(change, 1, Integer::sum);
        } else {
          unraced++;
        }
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(kind + " seed " + seed, e);
      }
    }
    System.out.printf("revalidation sweep (%s): %d runs, %d unraced and published, raced and"
        + " published nothing %s, %d ms%n", kind, total, unraced, raced,
        (System.nanoTime() - started) / 1_000_000);
    assertThat(raced).hasSize(ConcurrentChange.values().length);
    assertThat(unraced).isPositive();
  }

  /** One seeded run racing {@code change} (null: none); returns whether it raced one. */
  private static boolean run(HookedStore store, Random random, ConcurrentChange change) {
    InMemoryUpstream upstream = new InMemoryUpstream();
    int tables = 1 + random.nextInt(3);
    for (int t = 0; t < tables; t++) {
      upstream.create(CatalogObjectKind.TABLE, new Path(List.of("a"), "t" + t));
    }
    ReconcileHarness h = new ReconcileHarness(store, MutableClock.start(),
        new IntegrationClients(upstream.factory(), OutboundAddressPolicy.defaults()));
    String catalog = h.catalog("analytics");
    String integration = h.integration("up", "http://127.0.0.1:1");
    String overlay = h.overlay("o", integration, catalog, List.of(List.of("a")));
    h.reconcile(overlay);
    String table = h.relations(catalog).get("a.t" + random.nextInt(tables)).id();
    TableRevalidation revalidation = new TableRevalidation(h.repos, h.adapter, h.clients,
        h.overlays, new TableValidator(h.repos, OutboundAddressPolicy.defaults(), false, 2));
    boolean wholeIntegration = random.nextBoolean();

    Map<String, String>[] afterChange = new Map[1];
    if (change != null) {
      store.beforeWrite(1, () -> {
        change.apply(h, integration, catalog, overlay);
        afterChange[0] = h.content();
      });
    }
    IcegateException refusal = null;
    TableValidator.Result result = null;
    try {
      if (wholeIntegration) {
        result = revalidation.revalidateIntegration(h.account, integration);
      } else {
        revalidation.revalidateTable(h.account, catalog, table);
      }
    } catch (IcegateException e) {
      refusal = e;
    }
    if (change == null) {
      assertThat(refusal).as("a revalidation nobody raced").isNull();
      if (result != null) {
        assertThat(result.validated()).as(result.toString()).isEqualTo(tables);
      }
      InvariantChecker.of(store).with(new ContributionInvariants()).assertClean();
      return false;
    }
    assertThat(store.fired()).isEqualTo(1);
    if (refusal != null) {
      assertThat(refusal.code()).isIn(ErrorCode.VALIDATION_NOT_PUBLISHED, ErrorCode.FENCED,
          ErrorCode.NOT_FOUND);
    } else {
      // an Integration's revalidation reports each Table it could not publish (e.g. deleted
      // with its Overlay meanwhile) instead of failing
      assertThat(result).as("a revalidation that met " + change).isNotNull();
      assertThat(result.validated()).as(result.toString()).isZero();
    }
    assertThat(h.content()).as("writes after " + change).isEqualTo(afterChange[0]);
    change.afterwards(h, catalog);
    InvariantChecker.of(store).with(new ContributionInvariants()).assertClean();
    return true;
  }
}
