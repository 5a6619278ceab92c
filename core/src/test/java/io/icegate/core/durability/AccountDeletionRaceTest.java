package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Eight threads create catalogs, namespaces, tables, views and idempotent tables in an account
 * while another deletes it, 200 rounds: nothing may survive the deletion (the invariant checker
 * plus a scan of every key of the account), and every create that starts after the deletion
 * returned must be refused. Each driver runs it through a subclass; on the in-memory engine the
 * creators and the deleter really conflict (optimistic concurrency), on SQLite they serialize.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
public abstract class AccountDeletionRaceTest {
  private static final int CREATORS = 8;

  /** The engine all rounds share. */
  protected abstract KvEngine newEngine();

  /** Rounds of the race. */
  protected int rounds() {
    return 200;
  }

  @Test
  void nothingSurvivesADeletionRacedByEightCreators() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CREATORS + 1);
    AtomicLong createdBeforeDeletion = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    try (KvStore store = new EngineKvStore(newEngine())) {
      MutableClock clock = MutableClock.start();
      Repositories repos = new Repositories(store, clock, NoContributions.RULES);
      IdempotentCreates creates = new IdempotentCreates(repos, clock, IdempotencySettings.DEFAULT);
      AccountDeletion deletion = new AccountDeletion(repos, clock, 50, List.of());
      Random random = new Random(42);
      for (int round = 0; round < rounds(); round++) {
        String account = repos.accounts().create(new Account("race-" + round)).id();
        String catalogId = repos.catalogs(account).create(new Catalog("c", null, Map.of())).id();
        repos.namespaces(account).create(new Namespace(catalogId, List.of("db"), Map.of()));
        AtomicBoolean deleted = new AtomicBoolean();
        AtomicInteger created = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> tasks = new ArrayList<>();
        for (int t = 0; t < CREATORS; t++) {
          Creator creator = new Creator(repos, creates, account, catalogId, t);
          tasks.add(pool.submit(() -> {
            start.await();
            while (!deleted.get()) {
              if (creator.tryCreate()) {
                created.incrementAndGet();
              }
              // Eight busy threads on a small machine would starve the deleter for hundreds of
              // creates; yielding keeps each round short while the race stays open.
              Thread.yield();
            }
            // Started after the deletion returned: must be refused.
            if (creator.tryCreate()) {
              problems.add("a create after the deletion succeeded (creator " + creator.index + ")");
            }
            return null;
          }));
        }
        int waitFor = random.nextInt(40);
        tasks.add(pool.submit(() -> {
          start.await();
          long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
          while (created.get() < waitFor && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          while (true) {
            try {
              deletion.delete(account, ExpectedGeneration.any());
              break;
            } catch (KvStoreException e) {
              // contention exhausted the store's retries: the caller retries
            }
          }
          deleted.set(true);
          return null;
        }));
        start.countDown();
        for (Future<?> task : tasks) {
          task.get(60, TimeUnit.SECONDS);
        }
        assertThat(problems).as("round " + round).isEmpty();
        assertThat(InvariantChecker.of(store).keysOfAccount(account)).as("round " + round).isZero();
        InvariantChecker.of(store).assertClean();
        createdBeforeDeletion.addAndGet(created.get());
      }
      refused.set(store.stats().conflicts());
    } finally {
      pool.shutdownNow();
    }
    // The race is real only if creates succeeded before the deletions cut them off.
    assertThat(createdBeforeDeletion.get()).isGreaterThan(rounds() * 5L);
    org.slf4j.LoggerFactory.getLogger(AccountDeletionRaceTest.class).info(
        "{} rounds: {} resources created before deletions, {} store conflicts", rounds(),
        createdBeforeDeletion.get(), refused.get());
  }

  /** One creating thread: each call creates one resource of a kind chosen by its index. */
  private static final class Creator {
    final Repositories repos;
    final IdempotentCreates creates;
    final String account;
    final String catalogId;
    final int index;
    int serial;

    Creator(Repositories repos, IdempotentCreates creates, String account, String catalogId,
        int index) {
      this.repos = repos;
      this.creates = creates;
      this.account = account;
      this.catalogId = catalogId;
      this.index = index;
    }

    /** Whether a resource was created; refusals by fence or missing parent answer false. */
    boolean tryCreate() {
      String name = "r" + index + "-" + serial++;
      try {
        switch (index % 5) {
          case 0 -> repos.catalogs(account).create(new Catalog(name, null, Map.of()));
          case 1 -> repos.namespaces(account)
              .create(new Namespace(catalogId, List.of("db", name), Map.of()));
          case 2 -> repos.tables(account)
              .create(new Table(catalogId, List.of("db"), name, "s3://t", Map.of()));
          case 3 -> repos.views(account)
              .create(new View(catalogId, List.of("db"), name, "s3://v", Map.of()));
          default -> {
            Table spec = new Table(catalogId, List.of("db"), name, "s3://t", Map.of());
            creates.create(repos.tables(account), "key-" + name, RequestFingerprint.of(spec), spec,
                OnConflict.ERROR);
          }
        }
        return true;
      } catch (IcegateException e) {
        if (e.code() != ErrorCode.FENCED && e.code() != ErrorCode.NOT_FOUND) {
          throw e;
        }
        return false;
      } catch (KvStoreException e) {
        return false; // retries exhausted under contention; nothing was created
      }
    }
  }
}
