package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.credential.SecretValues;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two administrators writing the same resource, one committing between the other's reads and its
 * writing transaction: a PATCH decides on the record its transaction replaces, a rotation retires
 * the generation its transaction replaced; then a seeded sweep of really concurrent PATCHes and
 * rotations.
 */
interface PatchAndRotationRaces extends AdministratorFixture {

  /** How many times a rotation or PATCH of the sweep runs per administrator. */
  int OPS = 4;

  @Test
  default void integrationPatchRacingRotationPublishesTheRotatedGeneration() {
    String id = integration("warehouse");
    store().beforeWrite(1, () -> rotate(id, SECOND));
    Resource<Integration> patched = integrations().update(account(), id, ExpectedGeneration.any(),
        "renamed", null, null, Map.of("scope", "all"));
    assertThat(store().fired()).isEqualTo(1);
    Integration stored = integrations().get(account(), id).spec();
    assertThat(stored).isEqualTo(patched.spec());
    assertThat(stored.displayName()).isEqualTo("renamed");
    assertThat(stored.credentialGeneration()).isEqualTo(2);
    assertThat(credentials().read(id, stored.credentialGeneration())).contains(SECOND);
    assertClean();
  }

  @Test
  default void integrationPatchChecksTheConnectionItPublishesOutsideItsTransaction() {
    String id = integration("warehouse");
    checkedHosts().clear();
    // another administrator moves the Integration between this PATCH's check and its transaction
    store().beforeWrite(1, () -> integrations().update(account(), id, ExpectedGeneration.any(), null,
        null, "https://moved.example.com/v1", null));
    Resource<Integration> patched = integrations().update(account(), id, ExpectedGeneration.any(),
        null, null, null, Map.of("scope", "all"));
    assertThat(store().fired()).isEqualTo(1);
    assertThat(patched.spec().uri()).isEqualTo("https://moved.example.com/v1");
    assertThat(patched.spec().properties()).isEqualTo(Map.of("scope", "all"));
    // every check ran before a transaction; the published combination was checked
    assertThat(checkedHosts()).containsExactly(
        "c.example.com", "moved.example.com", "moved.example.com");
    assertClean();
  }

  @Test
  default void concurrentRotationsRetireTheGenerationTheirTransactionReplaced() {
    String id = integration("warehouse");
    // the first write of a rotation prepares its generation, the second publishes it
    store().beforeWrite(2, () -> rotate(id, THIRD));
    rotate(id, SECOND);
    assertThat(store().fired()).isEqualTo(1);
    Integration stored = integrations().get(account(), id).spec();
    assertThat(credentials().read(id, stored.credentialGeneration())).contains(SECOND);
    for (long generation = 1; generation <= 4; generation++) {
      if (generation != stored.credentialGeneration()) {
        assertThat(credentials().read(id, generation)).as("generation " + generation).isEmpty();
      }
    }
    assertClean();
  }

  @Test
  default void overlayPatchRacingRenameKeepsBoth() {
    String integration = integration("warehouse");
    String catalog = catalogs().create(account(), new Catalog("c", "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
    String id = overlays().create(account(), new CatalogOverlay("o", integration, catalog,
        List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
    store().beforeWrite(1, () -> overlays().update(account(), id, ExpectedGeneration.any(), "renamed",
        null, null, null, null));
    overlays().update(account(), id, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales")), null);
    assertThat(store().fired()).isEqualTo(1);
    CatalogOverlay stored = overlays().get(account(), id).spec();
    assertThat(stored.displayName()).isEqualTo("renamed");
    assertThat(stored.includeNamespaces()).containsExactly(List.of("sales"));
    assertClean();
  }

  @Test
  default void catalogPatchRacingKeyRotationKeepsTheRotatedKey() {
    CatalogStorage storage = new CatalogStorage(
        new CatalogStorage.S3("https://s3.example.com", "eu-west-1", false, "AKIA1", 0));
    String id = catalogs().create(account(), new Catalog("c", "s3://b/w", Map.of(), storage),
        "secret-1", CreateRequest.plain()).outcome().resource().id();
    CatalogStorage rotated = new CatalogStorage(
        new CatalogStorage.S3("https://s3.example.com", "eu-west-1", false, "AKIA2", 0));
    store().beforeWrite(1, () -> catalogs().update(account(), id, ExpectedGeneration.any(),
        current -> new Catalog(current.name(), current.warehouse(), current.properties(),
            rotated), "secret-2"));
    catalogs().update(account(), id, ExpectedGeneration.any(),
        current -> new Catalog("renamed", current.warehouse(), Map.of("k", "v"),
            current.storage()), null);
    assertThat(store().fired()).isEqualTo(1);
    Catalog stored = catalogs().get(account(), id).spec();
    assertThat(stored.name()).isEqualTo("renamed");
    assertThat(stored.storage().s3().accessKeyId()).isEqualTo("AKIA2");
    assertThat(credentials().read(id, stored.credentialGeneration()))
        .contains(new SecretValues(Map.of("secretAccessKey", "secret-2")));
    assertClean();
  }

  @Test
  default void catalogPatchRacingRenameKeepsBoth() {
    String id = catalogs().create(account(), new Catalog("c", "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
    store().beforeWrite(1, () -> catalogs().update(account(), id, ExpectedGeneration.any(),
        current -> new Catalog("renamed", current.warehouse(), current.properties(),
            current.storage()), null));
    catalogs().update(account(), id, ExpectedGeneration.any(),
        current -> new Catalog(current.name(), current.warehouse(), Map.of("k", "v"),
            current.storage()), null);
    Catalog stored = catalogs().get(account(), id).spec();
    assertThat(stored.name()).isEqualTo("renamed");
    assertThat(stored.properties()).isEqualTo(Map.of("k", "v"));
    assertClean();
  }

  /** Seeded runs of {@link #patchesAndRotationsRaceWithoutLosingAGeneration}. */
  default int sweepRuns() {
    return 1_000;
  }

  /**
   * The sweep: per seeded run, three administrators on one Integration (If-Match * PATCHes of
   * name and properties, rotations, and a second rotator) and two on one Overlay (rename,
   * selection), really concurrent. After each run: the stored Integration references the
   * generation of the rotation that committed last, exactly that generation is stored (each
   * rotation retired what it replaced), the Overlay carries the last rename and selection each
   * writer made, and the invariant checker is clean.
   */
  @Test
  default void patchesAndRotationsRaceWithoutLosingAGeneration() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(5);
    String catalog = catalog("c");
    long leftovers = 0;
    try {
      java.util.Random seeds = new java.util.Random(22);
      for (int r = 0; r < sweepRuns(); r++) {
        int run = r;
        String id = integration("i" + run);
        String overlay = overlays().create(account(), new CatalogOverlay("o" + run, id, catalog,
            List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
        long seed = seeds.nextLong();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Callable<Object>> writers = List.of(
            () -> repeat(seed, start, n -> integrations().update(account(), id,
                ExpectedGeneration.any(), "i" + run + "-" + n, null, null, Map.of("n", "" + n))),
            () -> repeat(seed + 1, start, n -> rotate(id,
                new SecretValues(Map.of("token", "a" + n)))),
            () -> repeat(seed + 2, start, n -> rotate(id,
                new SecretValues(Map.of("token", "b" + n)))),
            () -> repeat(seed + 3, start, n -> overlays().update(account(), overlay,
                ExpectedGeneration.any(), "o" + run + "-" + n, null, null, null, null)),
            () -> repeat(seed + 4, start, n -> overlays().update(account(), overlay,
                ExpectedGeneration.any(), null, null, null, List.of(List.of("ns" + n)), null)));
        List<Future<Object>> done = new ArrayList<>();
        for (java.util.concurrent.Callable<Object> writer : writers) {
          done.add(pool.submit(writer));
        }
        start.countDown();
        for (Future<Object> f : done) {
          f.get(60, TimeUnit.SECONDS);
        }
        Integration stored = integrations().get(account(), id).spec();
        assertThat(stored.displayName()).as("run " + run).isEqualTo("i" + run + "-" + (OPS - 1));
        assertThat(stored.properties()).isEqualTo(Map.of("n", "" + (OPS - 1)));
        assertThat(credentials().read(id, stored.credentialGeneration())).as("run " + run)
            .hasValueSatisfying(v -> assertThat(v.values().get("token")).endsWith("" + (OPS - 1)));
        for (long g = 1; g <= credentials().highestGeneration(id); g++) {
          if (g != stored.credentialGeneration() && credentials().read(id, g).isPresent()) {
            leftovers++;
          }
        }
        CatalogOverlay o = overlays().get(account(), overlay).spec();
        assertThat(o.displayName()).as("run " + run).isEqualTo("o" + run + "-" + (OPS - 1));
        assertThat(o.includeNamespaces()).containsExactly(List.of("ns" + (OPS - 1)));
        assertClean();
      }
    } finally {
      pool.shutdownNow();
    }
    org.slf4j.LoggerFactory.getLogger(AdministratorRaceTest.class).info(
        "{} runs of concurrent PATCHes and rotations: {} store conflicts, {} generations left "
            + "unretired", sweepRuns(), store().stats().conflicts(), leftovers);
    assertThat(leftovers).isZero();
  }

  /** Runs {@code write} {@value #OPS} times after {@code start}, retrying contention. */
  private static Object repeat(long seed, java.util.concurrent.CountDownLatch start,
      java.util.function.IntConsumer write) throws InterruptedException {
    java.util.Random random = new java.util.Random(seed);
    start.await();
    for (int n = 0; n < OPS; n++) {
      for (int attempt = 0; ; attempt++) {
        try {
          write.accept(n);
          break;
        } catch (io.icegate.core.store.KvStoreException e) {
          if (attempt > 50) {
            throw e;
          }
        } catch (IcegateException e) {
          if (e.code() != ErrorCode.STORE_CONTENTION || attempt > 50) {
            throw e;
          }
        }
      }
      if (random.nextBoolean()) {
        Thread.yield();
      }
    }
    return null;
  }
}
