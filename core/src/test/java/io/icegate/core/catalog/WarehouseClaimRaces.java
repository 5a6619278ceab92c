package io.icegate.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.ForwardingKvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.HookedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two accounts creating overlapping warehouses at once: exactly one Catalog is created, the other
 * create is 409 WAREHOUSE_OVERLAP, never both. Each driver runs it through a subclass; on the
 * in-memory engine the second commit really conflicts (FoundationDB's optimistic concurrency:
 * the claim's reads are conflict ranges), on SQLite writers serialize.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class WarehouseClaimRaces {
  private static final long WAIT_SECONDS = 20;

  private PausingStore pausing;
  private HookedStore hooked;
  private ClaimWorld world;
  private String a;
  private String b;

  /** The engine of one test. */
  protected abstract KvEngine newEngine();

  /**
   * Runs after the store of a test is checked and closed (a driver removes its files here: its
   * own {@code @AfterEach} would run before this class's).
   */
  protected void storeClosed() {}

  /** Whether the driver reports conflicts (else it serializes writers). */
  protected abstract boolean reportsConflicts();

  @BeforeEach
  void open() {
    pausing = new PausingStore(new EngineKvStore(newEngine()));
    hooked = new HookedStore(pausing);
    world = new ClaimWorld(hooked);
    a = world.account("alpha");
    b = world.account("beta");
  }

  @AfterEach
  void close() {
    try {
      InvariantChecker.of(hooked).withCredentials(world.credentials).assertClean();
    } finally {
      try {
        hooked.close();
      } finally {
        storeClosed();
      }
    }
  }

  /**
   * A's create has read the claims and is about to write its own when B's create of an ancestor
   * commits: A's commit conflicts, its re-run finds B's claim and is refused.
   */
  @Test
  void aClaimCommittedBetweenAnotherCreatesReadsAndItsCommitRefusesIt() throws Exception {
    assumeThat(reportsConflicts()).as("two interleaved writers would block on SQLite").isTrue();
    CountDownLatch aRead = new CountDownLatch(1);
    CountDownLatch bCommitted = new CountDownLatch(1);
    pausing.pause.set(() -> {
      aRead.countDown();
      await(bCommitted);
    });
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Future<?> aCreate = thread.submit(() -> world.create(a, "c", "s3://b/w/x"));
      await(aRead);
      world.create(b, "c", "s3://b/w");
      bCommitted.countDown();

      assertRefused(aCreate);
      assertThat(pausing.claimWrites.get()).as("A's claim was written, then re-run").isEqualTo(2);
    } finally {
      thread.shutdownNow();
    }
    assertOneClaimOf(b);
  }

  /** B's create commits after A's request began and before A's transaction: A is refused. */
  @Test
  void aClaimCommittedBeforeAnotherCreatesTransactionRefusesIt() {
    hooked.beforeWrite(1, () -> world.create(b, "c", "s3://b/w"));

    assertThat(catchThrowable(
        () -> world.create(a, "c", "s3://b/w")))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.WAREHOUSE_OVERLAP));
    assertThat(hooked.fired()).isEqualTo(1);
    assertOneClaimOf(b);
  }

  /** Free-running rounds, equal, ancestor and descendant warehouses: one winner each round. */
  @Test
  void concurrentOverlappingCreatesNeverBothSucceed() throws Exception {
    String[][] pairs = {{"s3://r/w", "s3://r/w"}, {"s3://r/w", "s3://r/w/x"},
        {"s3://r/w/x", "s3://r"}, {"file:/d/w", "file:///d/w/"}};
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 40; round++) {
        String[] pair = pairs[round % pairs.length];
        String suffix = "/round" + round;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> creates = new ArrayList<>();
        String[] accounts = {a, b};
        for (int i = 0; i < 2; i++) {
          String account = accounts[i];
          String warehouse = pair[i];
          String name = "r" + round;
          creates.add(pool.submit(() -> {
            start.await();
            try {
              world.create(account, name, rooted(warehouse, suffix));
              return "created";
            } catch (IcegateException e) {
              return e.code().name();
            }
          }));
        }
        start.countDown();
        List<String> outcomes = new ArrayList<>();
        for (Future<String> f : creates) {
          outcomes.add(f.get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
        assertThat(outcomes).as("round " + round + " " + String.join(" vs ", pair))
            .containsExactlyInAnyOrder("created", "WAREHOUSE_OVERLAP");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Each round under its own bucket, so rounds never meet. */
  private static String rooted(String warehouse, String suffix) {
    int at = warehouse.indexOf("://") + 3;
    if (warehouse.startsWith("file:") && !warehouse.startsWith("file://")) {
      return "file:" + suffix + warehouse.substring("file:".length());
    }
    if (warehouse.startsWith("file://")) {
      return "file://" + suffix + warehouse.substring("file://".length());
    }
    int slash = warehouse.indexOf('/', at);
    String bucket = slash < 0 ? warehouse.substring(at) : warehouse.substring(at, slash);
    String rest = slash < 0 ? "" : warehouse.substring(slash);
    return "s3://" + bucket + suffix.replace('/', '-') + rest;
  }

  private void assertRefused(Future<?> create) throws Exception {
    try {
      create.get(WAIT_SECONDS, TimeUnit.SECONDS);
      throw new AssertionError("the create should have been refused");
    } catch (java.util.concurrent.ExecutionException e) {
      assertThat(e.getCause()).isInstanceOfSatisfying(IcegateException.class,
          x -> assertThat(x.code()).isEqualTo(ErrorCode.WAREHOUSE_OVERLAP));
    }
  }

  private void assertOneClaimOf(String account) {
    assertThat(world.claims()).singleElement().satisfies(k -> assertThat(k).contains(account));
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting for the other create");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * Runs an armed action once, inside the transaction, when it is about to write a warehouse
   * claim (its reads are done): the other create commits in that gap.
   */
  private static final class PausingStore extends ForwardingKvStore {
    final AtomicReference<Runnable> pause = new AtomicReference<>();
    final AtomicInteger claimWrites = new AtomicInteger();

    PausingStore(KvStore store) {
      super(store);
    }

    @Override
    public <T> T run(Idempotence idempotence, TransactionBody<T> body) {
      return super.run(idempotence, tx -> body.apply(new Pausing(tx)));
    }

    private final class Pausing implements Transaction {
      final Transaction tx;

      Pausing(Transaction tx) {
        this.tx = tx;
      }

      @Override
      public void set(byte[] key, byte[] value) {
        if (KeySubspace.WAREHOUSE_CLAIMS.contains(key)) {
          claimWrites.incrementAndGet();
          Runnable action = pause.getAndSet(null);
          if (action != null) {
            action.run();
          }
        }
        tx.set(key, value);
      }

      @Override
      public void clear(byte[] key) {
        tx.clear(key);
      }

      @Override
      public void clearRange(byte[] begin, byte[] end) {
        tx.clearRange(begin, end);
      }

      @Override
      public byte[] get(byte[] key) {
        return tx.get(key);
      }

      @Override
      public List<KeyValue> getRange(byte[] begin, byte[] end, int limit,
          ReadTransaction.Direction direction) {
        return tx.getRange(begin, end, limit, direction);
      }

      @Override
      public ReadTransaction snapshot() {
        return tx.snapshot();
      }
    }
  }
}
