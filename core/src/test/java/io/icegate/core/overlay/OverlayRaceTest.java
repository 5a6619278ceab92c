package io.icegate.core.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.admin.model.IntegrationType;
import io.icegate.core.catalog.CatalogService;
import io.icegate.core.credential.CredentialPublication;
import io.icegate.core.credential.CredentialStore;
import io.icegate.core.credential.CredentialedWrites;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.AccountDeletion;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.integration.IntegrationService;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.MutableClock;
import io.icegate.core.testing.NoContributions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Eight threads interleave overlay creates (one thread replacing one name), plain integration
 * deletes, integration cascades, overlay deletes, catalog deletes and (every other round) the
 * account's deletion, 200 rounds.
 * Every operation is retried until it answers definitively, as a client would. After each round
 * the invariant checker runs on the whole store (overlays bound to live, unfenced owners; counters
 * equal real counts; no fence left; no credential generation without its Integration; nothing
 * behind an account fence), and in deletion rounds nothing of the account survives. Each driver
 * runs it through a subclass: on the in-memory engine the threads really conflict (optimistic
 * concurrency), on SQLite they serialize.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class OverlayRaceTest {
  private static final int THREADS = 8;
  private static final int OPS_PER_THREAD = 6;
  private static final Set<ErrorCode> REFUSALS = Set.of(ErrorCode.FENCED, ErrorCode.NOT_FOUND,
      ErrorCode.DEPENDENCY_EXISTS, ErrorCode.ALREADY_EXISTS);

  /** The engine all rounds share. */
  protected abstract KvEngine newEngine();

  /** Rounds of the race. */
  protected int rounds() {
    return 200;
  }

  @Test
  void invariantsHoldUnderInterleavedCreatesDeletesAndCascades() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    AtomicLong overlaysCreated = new AtomicLong();
    AtomicLong refusals = new AtomicLong();
    try (KvStore store = new EngineKvStore(newEngine())) {
      MutableClock clock = MutableClock.start();
      Repositories repos = new Repositories(store, clock, NoContributions.RULES);
      IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
      CredentialStore credentials = new CredentialStore(store, MasterKey.of(new byte[32]), clock);
      CredentialedWrites writes =
          new CredentialedWrites(new CredentialPublication(credentials), creates);
      IntegrationService integrations = new IntegrationService(repos, writes, credentials,
          host -> { }); // address rules are the SPI policy's, tested there
      CatalogService catalogs = new CatalogService(repos, writes, credentials);
      RecordingRetirement retirement = new RecordingRetirement(store);
      OverlayService overlays = new OverlayService(repos, creates, retirement);
      IntegrationCascade cascade = new IntegrationCascade(repos, overlays, retirement, credentials);
      AccountDeletion deletion = new AccountDeletion(repos, clock, 50,
          List.of(overlays.accountCleanup(), credentials.accountCleanup()));
      Random seeds = new Random(7);
      for (int round = 0; round < rounds(); round++) {
        boolean deleteAccount = round % 2 == 1;
        String account = repos.accounts().create(new Account("race-" + round)).id();
        String catalog = repos.catalogs(account).create(new Catalog("c", "file:/w", Map.of())).id();
        List<String> owners = List.of(integration(integrations, account, "a"),
            integration(integrations, account, "b"));
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger serial = new AtomicInteger();
        List<Future<?>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int role = t;
          Random random = new Random(seeds.nextLong());
          tasks.add(pool.submit(() -> {
            start.await();
            for (int op = 0; op < OPS_PER_THREAD; op++) {
              String owner = owners.get(random.nextInt(owners.size()));
              boolean done = switch (role) {
                // replacing creates of one name race the deletes and cascades of its holder
                case 2 -> definitive(refusals, () -> overlays.create(account,
                    new CatalogOverlay("shared", owner, catalog, List.of(List.of("ns", "r")),
                        List.of()), new CreateRequest(OnConflict.REPLACE, null)));
                case 0, 1 -> definitive(refusals, () -> overlays.create(account,
                    new CatalogOverlay("o" + serial.incrementAndGet(), owner, catalog,
                        List.of(List.of("ns", "" + role)), List.of()),
                    CreateRequest.plain()));
                case 3 -> definitive(refusals,
                    () -> integrations.delete(account, owner, ExpectedGeneration.any()));
                case 4 -> definitive(refusals,
                    () -> cascade.delete(account, owner, ExpectedGeneration.any()));
                case 5 -> definitive(refusals,
                    () -> catalogs.delete(account, catalog, ExpectedGeneration.any()));
                case 6 -> deleteSomeOverlay(overlays, account, refusals);
                default -> deleteAccount && op == OPS_PER_THREAD / 2
                    ? definitive(refusals, () -> deletion.delete(account, ExpectedGeneration.any()))
                    : definitive(refusals, () -> overlays.create(account,
                        new CatalogOverlay("k" + serial.incrementAndGet(), owner, catalog,
                            List.of(), List.of()),
                        new CreateRequest(OnConflict.ERROR, "key-" + serial.get())));
              };
              if (done && role <= 2) {
                overlaysCreated.incrementAndGet();
              }
              Thread.yield();
            }
            return null;
          }));
        }
        start.countDown();
        for (Future<?> task : tasks) {
          task.get(60, TimeUnit.SECONDS);
        }
        if (deleteAccount) {
          assertThat(InvariantChecker.of(store).keysOfAccount(account)).as("round " + round)
              .isZero();
        }
        List<String> violations = InvariantChecker.of(store).withCredentials(credentials)
            .violations();
        assertThat(violations).as("round " + round).isEmpty();
      }
      assertThat(retirement.unfenced).isEmpty();
      org.slf4j.LoggerFactory.getLogger(OverlayRaceTest.class).info(
          "{} rounds: {} overlays created, {} refusals, {} store conflicts", rounds(),
          overlaysCreated.get(), refusals.get(), store.stats().conflicts());
    } finally {
      pool.shutdownNow();
    }
    // The race is real only if overlays were created between the deletes.
    assertThat(overlaysCreated.get()).isGreaterThan(rounds() * 3L);
  }

  private static String integration(IntegrationService integrations, String account,
      String name) {
    return integrations.create(account, new Integration(name, IntegrationType.ICEBERG_REST,
            "https://c.example.com/v1", Map.of(), new IntegrationAuthentication.Bearer(), 0),
        new SecretValues(Map.of("token", "t-" + name)), CreateRequest.plain())
        .outcome().resource().id();
  }

  private static boolean deleteSomeOverlay(OverlayService overlays, String account,
      AtomicLong refusals) {
    List<String> ids;
    try {
      ids = overlays.list(account, io.icegate.core.paging.PageRequest.first(10)).items().stream()
          .map(r -> r.id()).toList();
    } catch (KvStoreException e) {
      return false;
    }
    if (ids.isEmpty()) {
      return false;
    }
    return definitive(refusals,
        () -> overlays.delete(account, ids.get(0), ExpectedGeneration.any()));
  }

  /**
   * Runs {@code operation} until it answers: storage failures and unknown outcomes are retried
   * (so no delete or cascade is left half-done), an expected refusal answers false.
   */
  private static boolean definitive(AtomicLong refusals, Supplier<?> operation) {
    for (int attempt = 0; attempt < 200; attempt++) {
      try {
        operation.get();
        return true;
      } catch (KvStoreException e) {
        // contention exhausted the store's retries: the caller retries
      } catch (IcegateException e) {
        if (REFUSALS.contains(e.code())) {
          refusals.incrementAndGet();
          return false;
        }
        if (e.code() != ErrorCode.COMMIT_STATE_UNKNOWN
            && e.code() != ErrorCode.STORE_CONTENTION) {
          throw e;
        }
      }
    }
    throw new AssertionError("operation never answered");
  }
}
