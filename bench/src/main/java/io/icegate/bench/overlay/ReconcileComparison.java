package io.icegate.bench.overlay;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_CLAIMED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static io.icegate.overlay.reconcile.ReconcileCount.UPDATED;

import io.icegate.access.client.CatalogClient;
import io.icegate.overlay.reconcile.Inventory;
import io.icegate.overlay.reconcile.ReconcileHook;
import io.icegate.overlay.reconcile.ReconcileReport;
import io.icegate.overlay.reconcile.ReconcileSettings;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Reconciliation against bare discovery of the same upstream in the same JVM (issue 8, "Must
 * show", bench bullet). The upstream is {@link SyntheticUpstream}; each iteration opens a fresh
 * {@link OverlayWorld} (a new SQLite store file) and measures, in this order:
 *
 * <ol>
 *   <li>bare discovery ({@link BareDiscovery}) with a client opened as the reconciler opens its
 *       own and the reconciler's concurrency;
 *   <li>the initial reconcile of an Overlay selecting the whole upstream into an empty Catalog;
 *   <li>an unchanged re-run, which must leave everything unchanged and commit no write at all
 *       (not even its run record).
 * </ol>
 *
 * A first iteration warms the JIT up and is not counted. Prints each iteration, then medians, the
 * ratios to bare discovery against the targets (initial ≤ 1.3×, unchanged ≤ 1.1×), and
 * heap high-water marks ({@link HeapWatch}; run with {@code -Xmx512m} for the 512 MB target).
 *
 * <pre>
 * java -Xmx512m -cp bench/target/icegate-bench.jar io.icegate.bench.overlay.ReconcileComparison \
 *     [namespaces=100] [tablesPerNamespace=100] [iterations=3] [concurrency=8] [batch=100]
 * </pre>
 */
public final class ReconcileComparison {
  /**
   * Write transactions of an unchanged synchronous re-run: none (its run record is written only by
   * a run's first publication, which an unchanged run never makes).
   */
  static final long UNCHANGED_RUN_WRITES = 0;

  private ReconcileComparison() {}

  /** What to measure. */
  record Plan(int namespaces, int tablesPerNamespace, int iterations, int concurrency,
      int batch) {
    int tables() {
      return namespaces * tablesPerNamespace;
    }
  }

  /** One timed phase: wall time, the reconciler's phase split (zeros for bare discovery), heap. */
  record Phase(long millis, long discoveryMillis, long preflightMillis, long captureMillis,
      long validateMillis, long writes, long mutations, HeapWatch.Peak heap) {
    /** Publication and retirement. */
    long storeMillis() {
      return millis - discoveryMillis - preflightMillis - captureMillis - validateMillis;
    }
  }

  /** One counted iteration. */
  record Iteration(Phase bare, Phase initial, Phase unchanged) {}

  public static void main(String[] args) throws Exception {
    Plan plan = new Plan(arg(args, 0, 100), arg(args, 1, 100), arg(args, 2, 3), arg(args, 3,
        ReconcileSettings.DEFAULT.concurrency()), arg(args, 4, ReconcileSettings.DEFAULT.batch()));
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<Iteration> iterations = run(plan, System.out);
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    summarize(plan, iterations, loadBefore, loadAfter, System.out);
  }

  /**
   * Starts the upstream, runs one warm-up and {@code plan.iterations()} counted iterations, and
   * stops it.
   *
   * @throws IllegalStateException when a run's outcome is wrong (counts, writes)
   */
  static List<Iteration> run(Plan plan, java.io.PrintStream out) throws Exception {
    long setup = System.nanoTime();
    Path dir = Files.createTempDirectory("icegate-reconcile-bench");
    List<Iteration> counted = new ArrayList<>();
    try (SyntheticUpstream upstream =
             SyntheticUpstream.start(plan.namespaces(), plan.tablesPerNamespace());
         HeapWatch heap = new HeapWatch()) {
      out.printf(Locale.ROOT, "upstream: %d namespaces x %d tables created in %.1f s; "
              + "concurrency %d, batch %d, max heap %d MB%n", plan.namespaces(),
          plan.tablesPerNamespace(), (System.nanoTime() - setup) / 1e9, plan.concurrency(),
          plan.batch(), HeapWatch.maxHeapBytes() >> 20);
      ReconcileSettings settings = new ReconcileSettings(plan.concurrency(), plan.batch(),
          ReconcileSettings.DEFAULT.lease());
      for (int i = 0; i <= plan.iterations(); i++) {
        PhaseClock clock = new PhaseClock();
        try (OverlayWorld world = new OverlayWorld(dir.resolve("store-" + i + ".db"),
            upstream.uri(), settings, clock)) {
          Iteration iteration = new Iteration(
              bare(plan, world, upstream, heap),
              reconcile(plan, world, upstream, heap, clock, false),
              reconcile(plan, world, upstream, heap, clock, true));
          out.println((i == 0 ? "warm-up " : "iteration " + i + " ") + describe(iteration));
          if (i > 0) {
            counted.add(iteration);
          }
        }
      }
    } finally {
      Files.deleteIfExists(dir);
    }
    return counted;
  }

  private static Phase bare(Plan plan, OverlayWorld world, SyntheticUpstream upstream,
      HeapWatch heap) {
    prepare(upstream, heap);
    long start = System.nanoTime();
    BareDiscovery.Seen seen;
    try (CatalogClient client = world.openClient()) {
      seen = new BareDiscovery(plan.concurrency()).run(client);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    check(seen.tables() == plan.tables() && seen.namespaces() == plan.namespaces(),
        "bare discovery saw " + seen);
    return new Phase(millis, millis, 0, 0, 0, 0, 0, heap.peak());
  }

  private static Phase reconcile(Plan plan, OverlayWorld world, SyntheticUpstream upstream,
      HeapWatch heap, PhaseClock clock, boolean rerun) {
    prepare(upstream, heap);
    long writes = world.committedWrites();
    long mutations = world.mutations();
    clock.start();
    ReconcileReport report = world.reconcile();
    long end = System.nanoTime();
    Phase phase = new Phase((end - clock.started) / 1_000_000,
        (clock.discovered - clock.started) / 1_000_000,
        (clock.preflighted - clock.discovered) / 1_000_000,
        (clock.captured - clock.retired) / 1_000_000, (end - clock.captured) / 1_000_000,
        world.committedWrites() - writes,
        world.mutations() - mutations, heap.peak());
    if (rerun) {
      check(report.count(UNCHANGED) == plan.tables()
              && report.count(CREATED) + report.count(UPDATED) + report.count(RETIRED) == 0
              && report.count(NAMESPACES_CLAIMED) + report.count(NAMESPACES_CREATED) == 0
              && phase.writes() == UNCHANGED_RUN_WRITES,
          "unchanged re-run: " + report + ", " + phase.writes() + " write transactions");
    } else {
      check(report.count(CREATED) == plan.tables()
              && report.count(NAMESPACES_CREATED) == plan.namespaces(),
          "initial run: " + report);
    }
    return phase;
  }

  /** Same starting point for every phase: an empty request log, a collected heap. */
  private static void prepare(SyntheticUpstream upstream, HeapWatch heap) {
    upstream.clearRequestLog();
    System.gc();
    heap.reset();
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("unexpected outcome: " + what);
    }
  }

  private static String describe(Iteration it) {
    return String.format(Locale.ROOT,
        "bare %d ms | initial %d ms (discovery %d, preflight %d, publish+retire %d, capture %d, "
            + "validate %d; "
            + "%d write tx, %d keys) | unchanged %d ms (discovery %d, preflight %d, rest %d; %d "
            + "write tx) | heap peak MB bare/initial/unchanged: pools %d/%d/%d, live after GC "
            + "%d/%d/%d",
        it.bare().millis(), it.initial().millis(), it.initial().discoveryMillis(),
        it.initial().preflightMillis(), it.initial().storeMillis(),
        it.initial().captureMillis(), it.initial().validateMillis(), it.initial().writes(),
        it.initial().mutations(),
        it.unchanged().millis(), it.unchanged().discoveryMillis(),
        it.unchanged().preflightMillis(),
        it.unchanged().storeMillis() + it.unchanged().captureMillis()
            + it.unchanged().validateMillis(), it.unchanged().writes(),
        mb(it.bare().heap().poolPeakBytes()), mb(it.initial().heap().poolPeakBytes()),
        mb(it.unchanged().heap().poolPeakBytes()), mb(it.bare().heap().liveAfterGcBytes()),
        mb(it.initial().heap().liveAfterGcBytes()), mb(it.unchanged().heap().liveAfterGcBytes()));
  }

  static void summarize(Plan plan, List<Iteration> iterations, double loadBefore,
      double loadAfter, java.io.PrintStream out) {
    long bare = median(iterations, it -> it.bare().millis());
    long initial = median(iterations, it -> it.initial().millis());
    long unchanged = median(iterations, it -> it.unchanged().millis());
    double initialRatio = (double) initial / bare;
    double unchangedRatio = (double) unchanged / bare;
    long poolPeak = iterations.stream().mapToLong(it -> Math.max(
        it.initial().heap().poolPeakBytes(), it.unchanged().heap().poolPeakBytes())).max()
        .orElse(0);
    long livePeak = iterations.stream().mapToLong(it -> Math.max(
        it.initial().heap().liveAfterGcBytes(), it.unchanged().heap().liveAfterGcBytes())).max()
        .orElse(0);
    out.printf(Locale.ROOT, "%nmedians over %d iterations, %d tables in %d namespaces, "
            + "concurrency %d, batch %d:%n", iterations.size(), plan.tables(), plan.namespaces(),
        plan.concurrency(), plan.batch());
    out.printf(Locale.ROOT, "  bare discovery   %7d ms%n", bare);
    out.printf(Locale.ROOT, "  initial run      %7d ms  %.2fx bare (target <= 1.3x: %s)%n",
        initial, initialRatio, initialRatio <= 1.3 ? "met" : "MISSED");
    out.printf(Locale.ROOT, "  unchanged re-run %7d ms  %.2fx bare (target <= 1.1x: %s); "
            + "write transactions %d%n", unchanged, unchangedRatio,
        unchangedRatio <= 1.1 ? "met" : "MISSED", UNCHANGED_RUN_WRITES);
    out.printf(Locale.ROOT, "  heap during reconcile runs (whole JVM, upstream included): pool "
            + "peaks %d MB, live after GC %d MB, -Xmx %d MB (target <= 512 MB: %s)%n",
        mb(poolPeak), mb(livePeak), mb(HeapWatch.maxHeapBytes()),
        poolPeak <= 512L << 20 ? "met" : "MISSED");
    out.printf(Locale.ROOT, "  system load average: %.2f before, %.2f after (%d cores)%n",
        loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
  }

  private static long median(List<Iteration> iterations, ToLongFunction<Iteration> value) {
    long[] values = iterations.stream().mapToLong(value).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  private static long mb(long bytes) {
    return bytes >> 20;
  }

  private static int arg(String[] args, int index, int fallback) {
    return args.length > index ? Integer.parseInt(args[index]) : fallback;
  }

  /** Timestamps the reconciler's phase boundaries (called on the run's thread). */
  private static final class PhaseClock implements ReconcileHook {
    long started;
    long discovered;
    long preflighted;
    long retired;
    long captured;

    void start() {
      started = System.nanoTime();
      discovered = started;
      preflighted = started;
      retired = started;
      captured = started;
    }

    @Override
    public void afterDiscovery(Inventory inventory) {
      discovered = System.nanoTime();
    }

    @Override
    public void afterPreflight(Inventory inventory) {
      preflighted = System.nanoTime();
    }

    @Override
    public void afterRetirement(Inventory inventory) {
      retired = System.nanoTime();
    }

    @Override
    public void afterCapture(Inventory inventory) {
      captured = System.nanoTime();
    }
  }
}
