package io.icegate.overlay.jobs;

import io.icegate.core.jobs.Schedules;
import io.icegate.core.repo.Repositories;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler of one gateway process (issue 28): every tick it lists the Integrations of every
 * account and asks the runner for each one's due round ({@link UpstreamJobRunner#runDueRound}),
 * which plans by the Integration's effective plan inside the planning transaction (so demand
 * changes take effect at the next tick, and of several processes over one store only one plans
 * and leases a round). Rounds run on a small pool, at most one per Integration in this process.
 * {@link #close} stops ticking, interrupts the rounds in flight and waits for them briefly: a
 * round cut short keeps its job, whose lease lapses and is taken over by another process (or by
 * this one after a restart). Thread-safe.
 */
public final class RefreshScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RefreshScheduler.class);

  /** How often each process looks for due rounds unless configured. */
  public static final Duration DEFAULT_TICK = Duration.ofSeconds(1);

  private final Repositories repositories;
  private final UpstreamJobRunner runner;
  private final Duration floor;
  private final ScheduledExecutorService ticker;
  private final ExecutorService workers;
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final SchedulerMetrics metrics = new SchedulerMetrics();
  private final AtomicInteger threadNumber = new AtomicInteger();
  private final AutoCloseable owned;

  /**
   * Starts ticking at once.
   *
   * @param floor the shortest interval this server runs (the {@code --min-refresh-interval} flag)
   * @param tick how often due rounds are looked for
   * @param concurrency rounds run at once in this process
   */
  public RefreshScheduler(Repositories repositories, UpstreamJobRunner runner, Duration floor,
      Duration tick, int concurrency) {
    this(repositories, runner, floor, tick, concurrency, null);
  }

  /**
   * As {@link #RefreshScheduler(Repositories, UpstreamJobRunner, Duration, Duration, int)},
   * owning {@code owned} (the runner's reconcile operations): closed with the scheduler.
   */
  public RefreshScheduler(Repositories repositories, UpstreamJobRunner runner, Duration floor,
      Duration tick, int concurrency, AutoCloseable owned) {
    this.owned = owned;
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.floor = Objects.requireNonNull(floor, "floor");
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1");
    }
    this.workers = Executors.newFixedThreadPool(concurrency, r -> daemon(r, "refresh-round-"
        + threadNumber.incrementAndGet()));
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "refresh-scheduler"));
    long period = tick.toMillis();
    ticker.scheduleWithFixedDelay(this::tickSafely, 0, period, TimeUnit.MILLISECONDS);
  }

  /** The counters {@code /metrics} shows. */
  public SchedulerMetrics metrics() {
    return metrics;
  }

  /** The shortest interval this server runs. */
  public Duration floor() {
    return floor;
  }

  private void tickSafely() {
    try {
      tick();
    } catch (RuntimeException e) {
      // The store may be briefly unavailable: the next tick tries again.
      LOG.warn("refresh scheduler tick failed: {}", e.getClass().getName());
    }
  }

  /** Starts the due round of every Integration not already running one in this process. */
  void tick() {
    for (String[] target : targets()) {
      String account = target[0];
      String integration = target[1];
      String key = account + "/" + integration;
      if (!inFlight.add(key)) {
        continue;
      }
      try {
        workers.execute(() -> round(account, integration, key));
      } catch (RejectedExecutionException e) {
        inFlight.remove(key); // closing
        return;
      }
    }
  }

  /** One due-check; counted as running only once it planned and leased a round here. */
  private void round(String account, String integration, String key) {
    long started = System.nanoTime();
    AtomicBoolean working = new AtomicBoolean();
    try {
      RoundOutcome outcome = runner.runDueRound(account, integration, floor, () -> {
        working.set(true);
        metrics.running.incrementAndGet();
      });
      metrics.ended(outcome.state(), System.nanoTime() - started);
    } catch (RuntimeException e) {
      metrics.ended(RoundOutcome.State.FAILED, System.nanoTime() - started);
      LOG.warn("refresh round of integration {} failed: {}", integration,
          e.getClass().getName());
    } finally {
      if (working.get()) {
        metrics.running.decrementAndGet();
      }
      inFlight.remove(key);
    }
  }

  /** Every (account, Integration) pair, read in one transaction per account. */
  private List<String[]> targets() {
    List<String[]> out = new ArrayList<>();
    for (String account : Schedules.accountIds(repositories)) {
      // Built from the read's answer: the read may be retried, which would repeat side effects.
      out.addAll(repositories.store().read(tx -> Schedules.integrationsOf(tx, repositories,
          account).stream().map(integration -> new String[] {account, integration.id()})
          .toList()));
    }
    return out;
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** Stops ticking, interrupts rounds in flight, waits up to 10 s for them, closes the runner. */
  @Override
  public void close() {
    ticker.shutdownNow();
    workers.shutdownNow();
    try {
      if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.warn("refresh rounds still running at shutdown; their leases will lapse");
      }
      ticker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      runner.close();
      if (owned != null) {
        try {
          owned.close();
        } catch (Exception e) {
          LOG.warn("closing the scheduler's reconcile operations failed: {}",
              e.getClass().getName());
        }
      }
    }
  }
}
