package io.icegate.bench.overlay;

import com.sun.management.OperatingSystemMXBean;
import io.icegate.access.client.CatalogClient;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.jobs.Schedules;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.overlay.OverlayPatch;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.assembly.ServiceSettings;
import io.icegate.overlay.assembly.Services;
import io.icegate.overlay.jobs.RefreshScheduler;
import io.icegate.overlay.jobs.SchedulerMetrics;
import io.icegate.overlay.reconcile.ReconcileSettings;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 28's refresh bench: the scheduler of one gateway process keeping many Overlays fresh.
 * {@code integrations} in-process upstreams ({@link SyntheticUpstream}: Iceberg REST over HTTP on
 * loopback, each its own s3proxy) of {@code namespaces} x {@code tablesPerNamespace} tables;
 * {@code overlaysPerIntegration} Overlays per Integration, Overlay {@code k} selecting {@code k+1}
 * consecutive namespaces (so the last selects them all and the union is the whole upstream), each
 * into its own Catalog, all with one refresh interval. The store is a SQLite file, the services
 * as the server assembles them ({@link Services#refreshScheduler}).
 *
 * <p>After a warm-up (until every Overlay has a first success: the rounds that publish), it
 * measures for {@code duration}, in which nothing changes upstream, so every round is
 * change-free: the lag of every Overlay sampled each second (p50, p99, max against interval +
 * 10 s), store write transactions per round, process CPU per round (which includes the
 * in-process upstreams serving the round), and upstream catalog reads per round against one bare
 * discovery ({@link BareDiscovery}) of each upstream's union scope.
 *
 * <pre>
 * java -cp bench/target/icegate-bench.jar io.icegate.bench.overlay.RefreshBench \
 *     [integrations=5] [namespaces=10] [tablesPerNamespace=100] [overlaysPerIntegration=10] \
 *     [intervalSeconds=60] [durationSeconds=600]
 * </pre>
 */
public final class RefreshBench {
  private RefreshBench() {}

  /** What to run. */
  record Plan(int integrations, int namespaces, int tablesPerNamespace,
      int overlaysPerIntegration, Duration interval, Duration duration) {}

  /**
   * What was measured over the window.
   *
   * @param lagSeconds every Overlay's lag, sampled each second, sorted
   * @param rounds rounds that ran (all change-free)
   * @param writes store write transactions committed meanwhile
   * @param cpuSeconds process CPU time meanwhile
   * @param reads upstream catalog reads meanwhile, all upstreams
   * @param bareReads catalog reads of one bare discovery of each upstream's union, summed
   * @param bareCpuSeconds process CPU of those bare discoveries, summed
   */
  record Result(List<Double> lagSeconds, long rounds, long failedRounds, long writes,
      double cpuSeconds, long reads, long bareReads, double bareCpuSeconds) {

    double lagPercentile(double p) {
      if (lagSeconds.isEmpty()) {
        return Double.NaN;
      }
      int index = (int) Math.ceil(p / 100 * lagSeconds.size()) - 1;
      return lagSeconds.get(Math.max(0, Math.min(index, lagSeconds.size() - 1)));
    }
  }

  public static void main(String[] args) throws Exception {
    Plan plan = new Plan(arg(args, 0, 5), arg(args, 1, 10), arg(args, 2, 100), arg(args, 3, 10),
        Duration.ofSeconds(arg(args, 4, 60)), Duration.ofSeconds(arg(args, 5, 600)));
    Result result = run(plan, System.out);
    summarize(plan, result, System.out);
  }

  private static int arg(String[] args, int i, int fallback) {
    return args.length > i ? Integer.parseInt(args[i]) : fallback;
  }

  /** Sets everything up, warms up, measures, tears down. */
  static Result run(Plan plan, PrintStream out) throws Exception {
    List<SyntheticUpstream> upstreams = new ArrayList<>();
    Path dir = Files.createTempDirectory("icegate-refresh-bench");
    try {
      long setup = System.nanoTime();
      for (int i = 0; i < plan.integrations(); i++) {
        upstreams.add(SyntheticUpstream.start(plan.namespaces(), plan.tablesPerNamespace()));
      }
      out.printf(Locale.ROOT, "upstreams: %d x %d tables in %d namespaces, up in %.1f s%n",
          plan.integrations(), plan.namespaces() * plan.tablesPerNamespace(), plan.namespaces(),
          (System.nanoTime() - setup) / 1e9);
      try (KvStore store = SqliteKvStore.open(dir.resolve("icegate.db"))) {
        return measure(plan, upstreams, store, out);
      }
    } finally {
      for (SyntheticUpstream upstream : upstreams) {
        upstream.close();
      }
      try (var files = Files.list(dir)) {
        for (Path f : files.toList()) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  private static Result measure(Plan plan, List<SyntheticUpstream> upstreams, KvStore store,
      PrintStream out) throws Exception {
    Services services = new Services(store, Clock.systemUTC(),
        ServiceSettings.embedded(MasterKey.of(new byte[32]), ReconcileSettings.DEFAULT));
    String account = services.repositories().accounts().create(new Account("bench"),
        OnConflict.ERROR).resource().id();
    List<String> integrations = new ArrayList<>();
    int overlays = 0;
    for (int i = 0; i < upstreams.size(); i++) {
      String integration = services.integrations().create(account,
          new Integration("upstream" + i, IntegrationType.ICEBERG_REST,
              upstreams.get(i).uri().toString(), Map.of(), new IntegrationAuthentication.Bearer(),
              0), new SecretValues(Map.of("token", "bench-token")),
          new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
      integrations.add(integration);
      for (int k = 0; k < plan.overlaysPerIntegration(); k++) {
        String catalog = services.repositories().catalogs(account).create(new Catalog(
            "c" + i + "-" + k, "file:///tmp/icegate-refresh-bench/" + i + "-" + k, Map.of()))
            .id();
        String overlay = services.overlays().create(account, new CatalogOverlay("o" + i + "-" + k,
            integration, catalog, selection(plan, k), List.of()),
            new CreateRequest(OnConflict.ERROR, null)).outcome().resource().id();
        services.overlays().update(account, overlay, ExpectedGeneration.any(),
            new OverlayPatch(null, null, null, null, null,
                Optional.of(plan.interval().toString()), null, null));
        overlays++;
      }
    }

    // The baseline: one bare discovery of each upstream's union scope (the whole upstream).
    long bareReads = 0;
    double bareCpu = 0;
    BareDiscovery bare = new BareDiscovery(ReconcileSettings.DEFAULT.concurrency());
    for (int i = 0; i < upstreams.size(); i++) {
      try (CatalogClient client = services.clients().open(
          services.adapter().resolve(account, integrations.get(i)))) {
        upstreams.get(i).clearRequestLog();
        double cpu = cpuSeconds();
        bare.run(client);
        bareCpu += cpuSeconds() - cpu;
        bareReads += upstreams.get(i).catalogReads();
      }
    }

    Duration floor = Duration.ofSeconds(5);
    Schedules schedules = services.schedules(floor);
    try (RefreshScheduler scheduler = services.refreshScheduler(floor)) {
      long warm = System.nanoTime();
      while (schedules.overview().lags().size() < overlays) {
        Thread.sleep(500);
        if (System.nanoTime() - warm > Duration.ofMinutes(30).toNanos()) {
          throw new IllegalStateException("warm-up: not every Overlay published in 30 min");
        }
      }
      out.printf(Locale.ROOT, "warm-up: %d Overlays published in %.1f s (%d rounds)%n", overlays,
          (System.nanoTime() - warm) / 1e9, scheduler.metrics().timedRounds());

      SchedulerMetrics metrics = scheduler.metrics();
      long rounds0 = metrics.timedRounds();
      long failed0 = metrics.failed() + metrics.cancelled();
      long writes0 = store.stats().committedWrites();
      double cpu0 = cpuSeconds();
      upstreams.forEach(SyntheticUpstream::clearRequestLog);
      List<Double> lags = new ArrayList<>();
      long end = System.nanoTime() + plan.duration().toNanos();
      while (System.nanoTime() < end) {
        Thread.sleep(1000);
        schedules.overview().lags().values().forEach(millis -> lags.add(millis / 1000.0));
      }
      long rounds = metrics.timedRounds() - rounds0;
      long writes = store.stats().committedWrites() - writes0;
      double cpu = cpuSeconds() - cpu0;
      long reads = upstreams.stream().mapToLong(SyntheticUpstream::catalogReads).sum();
      Collections.sort(lags);
      return new Result(lags, rounds, metrics.failed() + metrics.cancelled() - failed0, writes,
          cpu, reads, bareReads, bareCpu);
    }
  }

  /** Overlay {@code k}'s include list: {@code k+1} consecutive namespaces from {@code 3k}. */
  static List<List<String>> selection(Plan plan, int k) {
    int count = Math.min(k % plan.namespaces() + 1, plan.namespaces());
    List<List<String>> include = new ArrayList<>();
    for (int j = 0; j < count; j++) {
      include.add(List.of(String.format("ns%03d", (3 * k + j) % plan.namespaces())));
    }
    return include;
  }

  private static double cpuSeconds() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() / 1e9;
  }

  static void summarize(Plan plan, Result r, PrintStream out) {
    long perRound = r.rounds() == 0 ? 0 : r.rounds();
    double target = plan.interval().toSeconds() + 10;
    out.printf(Locale.ROOT, "window: %d s, %d change-free rounds (%d failed or cancelled)%n",
        plan.duration().toSeconds(), r.rounds(), r.failedRounds());
    out.printf(Locale.ROOT, "lag: p50 %.1f s, p99 %.1f s, max %.1f s over %d samples; target "
            + "p99 <= %.0f s (interval + 10 s): %s%n", r.lagPercentile(50),
        r.lagPercentile(99), r.lagPercentile(100), r.lagSeconds().size(), target,
        r.lagPercentile(99) <= target ? "met" : "MISSED");
    if (perRound == 0) {
      out.println("no round in the window: make it longer than the interval");
      return;
    }
    out.printf(Locale.ROOT, "store writes per change-free round: %.2f (%d in %d rounds)%n",
        (double) r.writes() / perRound, r.writes(), perRound);
    out.printf(Locale.ROOT, "CPU per round: %.3f s (process, upstreams included); one bare "
            + "discovery of an upstream: %.3f s%n", r.cpuSeconds() / perRound,
        r.bareCpuSeconds() / plan.integrations());
    out.printf(Locale.ROOT, "upstream catalog reads per round: %.1f; one bare discovery of the "
            + "union: %.1f (ratio %.2f)%n", (double) r.reads() / perRound,
        (double) r.bareReads() / plan.integrations(),
        (double) r.reads() / perRound / ((double) r.bareReads() / plan.integrations()));
  }
}
