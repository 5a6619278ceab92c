package io.icegate.overlay.jobs;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.reconcile.JobWorld;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the job tests share: the Iceberg REST upstream (over HTTP on loopback, on s3proxy) for the
 * class, one store per test of the kind asked for, the "processes" and threads a test opened
 * (closed after it), and the contribution invariants checked after every test.
 */
abstract class JobTestSupport {
  static ObjectStoreFixture objects;
  static IcebergRestFixture upstream;

  @TempDir Path dir;
  KvStore store;
  final List<AutoCloseable> closing = new ArrayList<>();
  final ExecutorService threads = Executors.newCachedThreadPool();

  @BeforeAll
  static void startUpstream() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects).seed();
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.close();
    objects.close();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    threads.shutdownNow();
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  /** One Overlay's world: its Integration, target Catalog and the Overlay itself. */
  record World(JobWorld w, String integration, String catalog, String overlay) {
    String account() {
      return w.account();
    }
  }

  /** An Overlay of upstream {@code sales} (three relations), never reconciled yet. */
  World world(String kind) {
    store = JobWorld.openStore(kind, dir);
    JobWorld w = new JobWorld(store, java.time.Clock.systemUTC());
    String integration = w.integration("a", upstream);
    String catalog = w.catalog("analytics");
    String overlay = w.overlay("sales", integration, catalog, List.of(List.of("sales")));
    return new World(w, integration, catalog, overlay);
  }

  /** Waits until {@code condition} holds, polling every 10 ms; fails after 60 s. */
  static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached in 60 s");
      }
      Thread.sleep(10);
    }
  }

  /** A second "process" over the world's store, with its clock starting at {@code start}. */
  JobProcess process(World world, Instant start) {
    JobProcess p = new JobProcess(world.w(), start);
    closing.add(p);
    return p;
  }
}
