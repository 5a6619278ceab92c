package io.icegate.overlay.jobs;

import io.icegate.core.jobs.Backoff;
import io.icegate.core.jobs.UpstreamJobs;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.reconcile.Inventory;
import io.icegate.overlay.reconcile.JobWorld;
import io.icegate.overlay.reconcile.ReconcileHook;
import io.icegate.overlay.reconcile.ReconcileOperations;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One gateway process of the job tests: its own clock, reconciler and operations, job store view
 * and runner (its own holder id), over the world's shared store. Its reconcile hook is a {@link
 * Gate} that can hold a run between discovery and publication (a hook, not a sleep); a process
 * held there forever and never renewing its lease is a crashed one.
 */
final class JobProcess implements AutoCloseable {
  static final Duration LEASE = Duration.ofSeconds(30);
  static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(40));

  final MutableClock clock;
  final Gate gate = new Gate();
  final ReconcileOperations operations;
  final UpstreamJobs jobs;
  final UpstreamJobRunner runner;

  JobProcess(JobWorld world, Instant start) {
    this.clock = new MutableClock(start);
    this.operations = world.process(gate, clock);
    this.jobs = new UpstreamJobs(world.repos(), clock, LEASE, BACKOFF);
    this.runner = new UpstreamJobRunner(jobs, operations, clock);
  }

  @Override
  public void close() {
    gate.release.countDown();
    runner.close();
    operations.close();
  }

  /** Holds the first run that finishes discovery while armed, until released. */
  static final class Gate implements ReconcileHook {
    final CountDownLatch arrived = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean armed;

    void arm() {
      armed = true;
    }

    void awaitArrival() throws InterruptedException {
      if (!arrived.await(60, TimeUnit.SECONDS)) {
        throw new AssertionError("no run reached the end of discovery");
      }
    }

    @Override
    public void afterDiscovery(Inventory inventory) {
      if (!armed) {
        return;
      }
      armed = false;
      arrived.countDown();
      try {
        release.await(120, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
