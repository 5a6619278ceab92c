package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.catalog.CatalogService;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.CatalogStorage;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.OverlayService;
import io.icegate.core.overlay.RecordingRetirement;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.testing.HookedStore;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two administrators writing the same resource, one committing between the other's reads and its
 * writing transaction (a {@link HookedStore} action, so the interleaving is deterministic on every
 * driver): a PATCH decides on the record its transaction replaces, and a rotation retires the
 * generation its transaction replaced. Each driver runs it through a subclass.
 */
public abstract class AdministratorRaceTest {
  private static final SecretValues FIRST = new SecretValues(Map.of("token", "first"));
  private static final SecretValues SECOND = new SecretValues(Map.of("token", "second"));
  private static final SecretValues THIRD = new SecretValues(Map.of("token", "third"));

  private HookedStore store;
  private Repositories repos;
  private CredentialStore credentials;
  private IntegrationService integrations;
  private CatalogService catalogs;
  private OverlayService overlays;
  private String account;
  private MutableClock clock;
  /** Hosts the Integration connection check resolved, each with "inside" when in a write. */
  private final List<String> checkedHosts = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** The engine of one test. */
  protected abstract KvEngine newEngine();

  @BeforeEach
  void open() {
    store = new HookedStore(new EngineKvStore(newEngine()));
    clock = MutableClock.start();
    repos = new Repositories(store, clock, NoContributions.RULES);
    IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
    credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
    CredentialedWrites writes =
        new CredentialedWrites(new CredentialPublication(credentials), creates);
    integrations = new IntegrationService(repos, writes, credentials,
        host -> checkedHosts.add(store.openWrites() > 0 ? host + " inside" : host));
    catalogs = new CatalogService(repos, writes, credentials);
    overlays = new OverlayService(repos, creates, new RecordingRetirement(store));
    account = repos.accounts().create(new Account("acme")).id();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void integrationPatchRacingRotationPublishesTheRotatedGeneration() {
    String id = integration("warehouse");
    store.beforeWrite(1, () -> rotate(id, SECOND));
    Resource<Integration> patched = integrations.update(account, id, ExpectedGeneration.any(),
        "renamed", null, null, Map.of("scope", "all"));
    assertThat(store.fired()).isEqualTo(1);
    Integration stored = integrations.get(account, id).spec();
    assertThat(stored).isEqualTo(patched.spec());
    assertThat(stored.displayName()).isEqualTo("renamed");
    assertThat(stored.credentialGeneration()).isEqualTo(2);
    assertThat(credentials.read(id, stored.credentialGeneration())).contains(SECOND);
    assertClean();
  }

  @Test
  void integrationPatchChecksTheConnectionItPublishesOutsideItsTransaction() {
    String id = integration("warehouse");
    checkedHosts.clear();
    // another administrator moves the Integration between this PATCH's check and its transaction
    store.beforeWrite(1, () -> integrations.update(account, id, ExpectedGeneration.any(), null,
        null, "https://moved.example.com/v1", null));
    Resource<Integration> patched = integrations.update(account, id, ExpectedGeneration.any(),
        null, null, null, Map.of("scope", "all"));
    assertThat(store.fired()).isEqualTo(1);
    assertThat(patched.spec().uri()).isEqualTo("https://moved.example.com/v1");
    assertThat(patched.spec().properties()).isEqualTo(Map.of("scope", "all"));
    // every check ran before a transaction; the published combination was checked
    assertThat(checkedHosts).containsExactly(
        "c.example.com", "moved.example.com", "moved.example.com");
    assertClean();
  }

  @Test
  void concurrentRotationsRetireTheGenerationTheirTransactionReplaced() {
    String id = integration("warehouse");
    // the first write of a rotation prepares its generation, the second publishes it
    store.beforeWrite(2, () -> rotate(id, THIRD));
    rotate(id, SECOND);
    assertThat(store.fired()).isEqualTo(1);
    Integration stored = integrations.get(account, id).spec();
    assertThat(credentials.read(id, stored.credentialGeneration())).contains(SECOND);
    for (long generation = 1; generation <= 4; generation++) {
      if (generation != stored.credentialGeneration()) {
        assertThat(credentials.read(id, generation)).as("generation " + generation).isEmpty();
      }
    }
    assertClean();
  }

  @Test
  void overlayPatchRacingRenameKeepsBoth() {
    String integration = integration("warehouse");
    String catalog = catalogs.create(account, new Catalog("c", "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
    String id = overlays.create(account, new CatalogOverlay("o", integration, catalog,
        List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
    store.beforeWrite(1, () -> overlays.update(account, id, ExpectedGeneration.any(), "renamed",
        null, null, null, null));
    overlays.update(account, id, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales")), null);
    assertThat(store.fired()).isEqualTo(1);
    CatalogOverlay stored = overlays.get(account, id).spec();
    assertThat(stored.displayName()).isEqualTo("renamed");
    assertThat(stored.includeNamespaces()).containsExactly(List.of("sales"));
    assertClean();
  }

  @Test
  void catalogPatchRacingKeyRotationKeepsTheRotatedKey() {
    CatalogStorage storage = new CatalogStorage(
        new CatalogStorage.S3("https://s3.example.com", "eu-west-1", false, "AKIA1", 0));
    String id = catalogs.create(account, new Catalog("c", "s3://b/w", Map.of(), storage),
        "secret-1", CreateRequest.plain()).outcome().resource().id();
    CatalogStorage rotated = new CatalogStorage(
        new CatalogStorage.S3("https://s3.example.com", "eu-west-1", false, "AKIA2", 0));
    store.beforeWrite(1, () -> catalogs.update(account, id, ExpectedGeneration.any(),
        current -> new Catalog(current.name(), current.warehouse(), current.properties(),
            rotated), "secret-2"));
    catalogs.update(account, id, ExpectedGeneration.any(),
        current -> new Catalog("renamed", current.warehouse(), Map.of("k", "v"),
            current.storage()), null);
    assertThat(store.fired()).isEqualTo(1);
    Catalog stored = catalogs.get(account, id).spec();
    assertThat(stored.name()).isEqualTo("renamed");
    assertThat(stored.storage().s3().accessKeyId()).isEqualTo("AKIA2");
    assertThat(credentials.read(id, stored.credentialGeneration()))
        .contains(new SecretValues(Map.of("secretAccessKey", "secret-2")));
    assertClean();
  }

  @Test
  void catalogPatchRacingRenameKeepsBoth() {
    String id = catalogs.create(account, new Catalog("c", "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
    store.beforeWrite(1, () -> catalogs.update(account, id, ExpectedGeneration.any(),
        current -> new Catalog("renamed", current.warehouse(), current.properties(),
            current.storage()), null));
    catalogs.update(account, id, ExpectedGeneration.any(),
        current -> new Catalog(current.name(), current.warehouse(), Map.of("k", "v"),
            current.storage()), null);
    Catalog stored = catalogs.get(account, id).spec();
    assertThat(stored.name()).isEqualTo("renamed");
    assertThat(stored.properties()).isEqualTo(Map.of("k", "v"));
    assertClean();
  }

  @Test
  void failedReplaceLeavesTheFenceOfARunningDelete() {
    String integration = integration("warehouse");
    String catalog = catalog("c");
    String other = catalog("other");
    String id = overlays.create(account, new CatalogOverlay("o", integration, catalog,
        List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
    ResourceRef ref = repos.overlays(account).ref(id);
    AtomicReference<Optional<Fence>> afterReplace = new AtomicReference<>();
    // the delete has fenced the Overlay (its first write) and retired it; before it removes it,
    // a replace fences it too and fails to publish (its new Catalog is deleted meanwhile)
    store.beforeWrite(2, () -> {
      Optional<Fence> deleteFence = store.read(tx -> repos.fences().read(tx, ref));
      store.beforeWrite(2, () -> catalogs.delete(account, other, ExpectedGeneration.any()));
      assertThatThrownBy(() -> overlays.create(account, new CatalogOverlay("o", integration,
          other, List.of(), List.of()), new CreateRequest(OnConflict.REPLACE, null)))
          .isInstanceOf(IcegateException.class);
      afterReplace.set(store.read(tx -> repos.fences().read(tx, ref)));
      assertThat(afterReplace.get()).isEqualTo(deleteFence).isPresent();
    });
    overlays.delete(account, id, ExpectedGeneration.any());
    assertThat(store.fired()).isEqualTo(2);
    assertThat(afterReplace.get()).isPresent();
    assertThat(repos.overlays(account).get(id)).isEmpty();
    assertClean();
  }

  @Test
  void writesAfterAnAccountDeletionAreFenced() {
    String id = integration("warehouse");
    OperationRecords records = new OperationRecords(store);
    records.put(account, "op-1", Map.of("state", "RUNNING"));
    new AccountDeletion(repos, MutableClock.start(), 50,
        List.of(overlays.accountCleanup(), credentials.accountCleanup()))
        .delete(account, ExpectedGeneration.any());
    // an asynchronous reconcile ending now, a credential prepared by a request in flight: the
    // deletion finished, so the account is gone (NOT_FOUND; FENCED while a deletion runs)
    assertGone(() -> records.put(account, "op-1", Map.of("state", "SUCCEEDED")));
    assertGone(() -> records.replaceIf(account, "op-1", json -> true, Map.of("state", "X")));
    assertGone(() -> new CredentialPublication(credentials).prepare(account, id, 1, SECOND));
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isZero();
    assertThat(credentials.highestGeneration(id)).isZero();
    assertClean();
  }

  @Test
  void idempotentCreateEndingFencedReleasesItsKey() {
    ResourceRef accountRef = ResourceRef.account(account);
    CreateRequest keyed = new CreateRequest(OnConflict.ERROR, "create-c");
    Catalog spec = new Catalog("c", "file:/w", Map.of());
    // an account delete fences the account between the create's reservation (its first write)
    // and its publication, then fails to delete the record and clears its fence again
    store.beforeWrite(2, () -> store.run(tx -> {
      repos.fences().install(tx, new Fence(accountRef, "deleter", java.time.Instant.EPOCH, null));
      return null;
    }));
    assertFenced(() -> catalogs.create(account, spec, null, keyed));
    assertThat(store.fired()).isEqualTo(1);
    store.run(tx -> {
      repos.fences().clear(tx, accountRef);
      return null;
    });
    // the retry runs at once instead of IDEMPOTENCY_IN_PROGRESS for the rest of the lease
    var retried = catalogs.create(account, spec, null, keyed);
    assertThat(retried.replayed()).isFalse();
    assertThat(catalogs.create(account, spec, null, keyed).outcome())
        .isEqualTo(retried.outcome());
    assertClean();
  }

  @Test
  void aSecondAccountDeleteLeavesTheFenceOfARunningOne() {
    ResourceRef ref = ResourceRef.account(account);
    AccountDeletion deletion = deletion();
    AtomicReference<Optional<Fence>> afterSecond = new AtomicReference<>();
    // the first delete has installed its fence (its first write); before it deletes the record, a
    // second delete runs, and its own record delete fails before commit
    store.beforeWrite(2, () -> {
      Optional<Fence> first = store.read(tx -> repos.fences().read(tx, ref));
      store.beforeWrite(2, () -> {
        throw new io.icegate.core.store.KvStoreFailureException("the second delete's store fails");
      });
      assertThatThrownBy(() -> deletion.delete(account, ExpectedGeneration.any()))
          .isInstanceOf(io.icegate.core.store.KvStoreFailureException.class);
      afterSecond.set(store.read(tx -> repos.fences().read(tx, ref)));
      assertThat(afterSecond.get()).isEqualTo(first).isPresent();
    });
    assertThat(deletion.delete(account, ExpectedGeneration.any()).recordDeleted()).isTrue();
    assertThat(store.fired()).isEqualTo(1); // the inner action threw: not counted
    assertThat(afterSecond.get()).isPresent();
    assertThat(repos.accounts().get(account)).isEmpty();
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isZero();
    assertClean();
  }

  @Test
  void aDeleteTakesOverTheFenceOfADeadDeleterOnceItsLeaseLapses() {
    ResourceRef ref = ResourceRef.account(account);
    String id = integration("warehouse");
    // a deleter installed its fence and died before deleting the record
    store.run(tx -> {
      repos.fences().install(tx, new Fence(ref, "dead", clock.instant(), null,
          clock.instant().plus(AccountDeletion.FENCE_LEASE)));
      return null;
    });
    // within the lease, a delete works under that fence: failing, it cannot unfence the account
    failRecordDelete();
    assertThat(fenceOf(ref).map(Fence::operationId)).contains("dead");
    assertThat(deletion().incomplete(10)).containsExactly(account);
    // after it, a delete takes the fence over: failing, it clears it as its own
    clock.advance(AccountDeletion.FENCE_LEASE.plusSeconds(1));
    failRecordDelete();
    assertThat(fenceOf(ref)).isEmpty();
    assertThat(deletion().delete(account, ExpectedGeneration.any()).recordDeleted()).isTrue();
    assertThat(deletion().incomplete(10)).isEmpty();
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isZero();
    assertThat(credentials.highestGeneration(id)).isZero();
    assertClean();
  }

  /** An account delete whose record delete (its second write) fails before commit. */
  private void failRecordDelete() {
    store.beforeWrite(2, () -> {
      throw new io.icegate.core.store.KvStoreFailureException("the record delete fails");
    });
    assertThatThrownBy(() -> deletion().delete(account, ExpectedGeneration.any()))
        .isInstanceOf(io.icegate.core.store.KvStoreFailureException.class);
  }

  private Optional<Fence> fenceOf(ResourceRef ref) {
    return store.read(tx -> repos.fences().read(tx, ref));
  }

  @Test
  void aCreateRetriedAfterACrashBetweenPrepareAndDiscardKeepsOnlyItsSecret() {
    String owner = crashAfterPreparingAnIntegration();
    clock.advance(IdempotencySettings.DEFAULT.lease().plusSeconds(1));
    // the client's retry resumes with the reserved id after the lease lapsed
    Integration created = integrations.create(account, crashingSpec(), SECOND, CRASHING_KEY)
        .outcome().resource().spec();
    assertThat(integrations.get(account, owner).spec()).isEqualTo(created);
    long published = created.credentialGeneration();
    assertThat(credentials.read(owner, published)).contains(SECOND);
    for (long generation = 1; generation <= published + 1; generation++) {
      if (generation != published) {
        assertThat(credentials.read(owner, generation)).as("generation " + generation).isEmpty();
      }
    }
    List<CredentialStore.Candidate> noted = store.read(tx -> credentials.candidates(tx, account));
    assertThat(noted).isEmpty();
    assertClean();
  }

  @Test
  void anAccountDeletedAfterACrashBetweenPrepareAndDiscardKeepsNoSecret() {
    String owner = crashAfterPreparingAnIntegration();
    deletion().delete(account, ExpectedGeneration.any());
    assertThat(credentials.highestGeneration(owner)).isZero();
    assertThat(InvariantChecker.of(store).keysOfAccount(account)).isZero();
    assertClean();
  }

  @Test
  void aGenerationLeftByACrashedRotationIsReclaimedByTheNextRotationOnceStale() {
    // a create's process dies after preparing its secret under its reserved id
    String other = crashAfterPreparingAnIntegration();
    String id = integration("warehouse");
    // a rotation's process dies after preparing generation 2, before publishing it
    store.beforeWrite(2, () -> {
      throw new Crash();
    });
    assertThatThrownBy(() -> rotate(id, SECOND)).isInstanceOf(Crash.class);
    CredentialStore.Candidate left = new CredentialStore.Candidate(id, 2);
    CredentialStore.Candidate ownerless = new CredentialStore.Candidate(other, 1);
    assertThat(noted()).containsExactlyInAnyOrder(left, ownerless);
    // a young note may be a publication under way: the next rotation leaves it
    rotate(id, THIRD);
    assertThat(noted()).containsExactlyInAnyOrder(left, ownerless);
    clock.advance(CredentialPublication.STALE_AFTER.plusMinutes(1));
    rotate(id, FIRST);
    assertThat(noted()).isEmpty();
    assertThat(credentials.read(id, 2)).isEmpty();
    assertThat(credentials.highestGeneration(other)).isZero();
    assertThat(credentials.read(id, integrations.get(account, id).spec().credentialGeneration()))
        .contains(FIRST);
    assertClean();
  }

  private List<CredentialStore.Candidate> noted() {
    return store.read(tx -> credentials.candidates(tx, account));
  }

  private static final CreateRequest CRASHING_KEY = new CreateRequest(OnConflict.ERROR, "create-i");

  private static Integration crashingSpec() {
    return new Integration("crashing", IntegrationType.ICEBERG_REST, "https://c.example.com/v1",
        Map.of(), new IntegrationAuthentication.Bearer(), 0);
  }

  /**
   * An idempotent Integration create whose process dies after it reserved its id and prepared its
   * secret (its first two writes), before it publishes or discards. Returns the reserved id.
   */
  private String crashAfterPreparingAnIntegration() {
    store.beforeWrite(3, () -> {
      throw new Crash();
    });
    assertThatThrownBy(() -> integrations.create(account, crashingSpec(), FIRST, CRASHING_KEY))
        .isInstanceOf(Crash.class);
    List<CredentialStore.Candidate> prepared =
        store.read(tx -> credentials.candidates(tx, account));
    assertThat(prepared).hasSize(1);
    String owner = prepared.get(0).ownerId();
    assertThat(credentials.read(owner, prepared.get(0).generation())).contains(FIRST);
    assertThat(repos.integrations(account).get(owner)).isEmpty();
    return owner;
  }

  /** The process dying: nothing after it runs, no catch block sees it. */
  private static final class Crash extends Error {
    Crash() {
      super("crash", null, false, false);
    }
  }

  private AccountDeletion deletion() {
    return new AccountDeletion(repos, clock, 50,
        List.of(overlays.accountCleanup(), credentials.accountCleanup()));
  }

  private static void assertFenced(Runnable write) {
    assertThatThrownBy(write::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
  }

  /** A write into an account whose deletion finished: refused as for a missing account. */
  private static void assertGone(Runnable write) {
    assertThatThrownBy(write::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }

  /** Seeded runs of {@link #patchesAndRotationsRaceWithoutLosingAGeneration}. */
  protected int sweepRuns() {
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
  void patchesAndRotationsRaceWithoutLosingAGeneration() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(5);
    String catalog = catalog("c");
    long leftovers = 0;
    try {
      java.util.Random seeds = new java.util.Random(22);
      for (int r = 0; r < sweepRuns(); r++) {
        int run = r;
        String id = integration("i" + run);
        String overlay = overlays.create(account, new CatalogOverlay("o" + run, id, catalog,
            List.of(), List.of()), CreateRequest.plain()).outcome().resource().id();
        long seed = seeds.nextLong();
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Callable<Object>> writers = List.of(
            () -> repeat(seed, start, n -> integrations.update(account, id,
                ExpectedGeneration.any(), "i" + run + "-" + n, null, null, Map.of("n", "" + n))),
            () -> repeat(seed + 1, start, n -> rotate(id,
                new SecretValues(Map.of("token", "a" + n)))),
            () -> repeat(seed + 2, start, n -> rotate(id,
                new SecretValues(Map.of("token", "b" + n)))),
            () -> repeat(seed + 3, start, n -> overlays.update(account, overlay,
                ExpectedGeneration.any(), "o" + run + "-" + n, null, null, null, null)),
            () -> repeat(seed + 4, start, n -> overlays.update(account, overlay,
                ExpectedGeneration.any(), null, null, null, List.of(List.of("ns" + n)), null)));
        List<Future<Object>> done = new ArrayList<>();
        for (java.util.concurrent.Callable<Object> writer : writers) {
          done.add(pool.submit(writer));
        }
        start.countDown();
        for (Future<Object> f : done) {
          f.get(60, TimeUnit.SECONDS);
        }
        Integration stored = integrations.get(account, id).spec();
        assertThat(stored.displayName()).as("run " + run).isEqualTo("i" + run + "-" + (OPS - 1));
        assertThat(stored.properties()).isEqualTo(Map.of("n", "" + (OPS - 1)));
        assertThat(credentials.read(id, stored.credentialGeneration())).as("run " + run)
            .hasValueSatisfying(v -> assertThat(v.values().get("token")).endsWith("" + (OPS - 1)));
        for (long g = 1; g <= credentials.highestGeneration(id); g++) {
          if (g != stored.credentialGeneration() && credentials.read(id, g).isPresent()) {
            leftovers++;
          }
        }
        CatalogOverlay o = overlays.get(account, overlay).spec();
        assertThat(o.displayName()).as("run " + run).isEqualTo("o" + run + "-" + (OPS - 1));
        assertThat(o.includeNamespaces()).containsExactly(List.of("ns" + (OPS - 1)));
        assertClean();
      }
    } finally {
      pool.shutdownNow();
    }
    org.slf4j.LoggerFactory.getLogger(AdministratorRaceTest.class).info(
        "{} runs of concurrent PATCHes and rotations: {} store conflicts, {} generations left "
            + "unretired", sweepRuns(), store.stats().conflicts(), leftovers);
    assertThat(leftovers).isZero();
  }

  private static final int OPS = 4;

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

  private String catalog(String name) {
    return catalogs.create(account, new Catalog(name, "file:/w", Map.of()), null,
        CreateRequest.plain()).outcome().resource().id();
  }

  private String integration(String name) {
    return integrations.create(account, new Integration(name, IntegrationType.ICEBERG_REST,
            "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0),
        FIRST, CreateRequest.plain()).outcome().resource().id();
  }

  private void rotate(String id, SecretValues secret) {
    integrations.rotate(account, id, ExpectedGeneration.any(),
        new IntegrationAuthentication.Bearer(), secret);
  }

  /** Nothing faults here, so every retire and discard ran: no generation stays noted either. */
  private void assertClean() {
    InvariantChecker.of(store).withCredentials(credentials).settled().assertClean();
  }
}
