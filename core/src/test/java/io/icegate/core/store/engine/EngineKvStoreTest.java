package io.icegate.core.store.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvLimitExceededException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.KvStoreStats;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.core.store.memory.InMemoryEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retry loop and counters of {@link EngineKvStore}, over the in-memory engine. */
class EngineKvStoreTest {

  private static final byte[] KEY = KeySubspace.SCRATCH.pack(Tuple.from("engine-store", "k"));

  private final List<Long> pauses = new ArrayList<>();
  private final AtomicInteger attempts = new AtomicInteger();
  private EngineKvStore store =
      storeWith(new RetryPolicy(5, Duration.ofMillis(1), Duration.ofMillis(4)));

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void attemptsAreBoundedAndTheLastConflictSurfaces() {
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      attempts.incrementAndGet();
                      throw new TransactionConflictException("always");
                    }))
        .isInstanceOf(TransactionConflictException.class);
    assertThat(attempts).hasValue(5);
    assertThat(pauses).as("one pause between each pair of attempts").hasSize(4);
    assertThat(store.stats().conflicts()).isEqualTo(5);
  }

  @Test
  void backoffDoublesWithJitterAndIsCapped() {
    store.close();
    store = storeWith(new RetryPolicy(8, Duration.ofMillis(1), Duration.ofMillis(4)));
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      throw new TransactionConflictException("always");
                    }))
        .isInstanceOf(TransactionConflictException.class);
    long[] nominal = {1, 2, 4, 4, 4, 4, 4};
    assertThat(pauses).hasSize(nominal.length);
    for (int i = 0; i < nominal.length; i++) {
      long n = Duration.ofMillis(nominal[i]).toNanos();
      assertThat(pauses.get(i)).as("pause %d", i + 1).isBetween(n / 2, n - 1);
    }
  }

  @Test
  void tooOldIsRetriedByRunAndRead() {
    String result =
        store.run(
            tx -> {
              if (attempts.incrementAndGet() == 1) {
                throw new TransactionTooOldException("first attempt");
              }
              tx.set(KEY, new byte[] {1});
              return "ok";
            });
    assertThat(result).isEqualTo("ok");
    attempts.set(0);
    byte[] read =
        store.read(
            tx -> {
              if (attempts.incrementAndGet() == 1) {
                throw new TransactionTooOldException("first attempt");
              }
              return tx.get(KEY);
            });
    assertThat(read).containsExactly(1);
    assertThat(attempts).hasValue(2);
    assertThat(store.stats().tooOld()).isEqualTo(2);
  }

  @Test
  void unknownResultSurfacesUnlessIdempotent() {
    Supplier<Object> unknownOnce =
        () ->
            store.run(
                Idempotence.IDEMPOTENT,
                tx -> {
                  if (attempts.incrementAndGet() == 1) {
                    throw new CommitUnknownResultException("first attempt");
                  }
                  return null;
                });
    unknownOnce.get();
    assertThat(attempts).hasValue(2);
    attempts.set(0);
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      attempts.incrementAndGet();
                      throw new CommitUnknownResultException("always");
                    }))
        .isInstanceOf(CommitUnknownResultException.class);
    assertThat(attempts).hasValue(1);
    assertThat(store.stats().commitUnknown()).isEqualTo(2);
  }

  @Test
  void limitsAndFailuresAreNotRetried() {
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      attempts.incrementAndGet();
                      tx.set(KEY, new byte[200_000]);
                      return null;
                    }))
        .isInstanceOf(KvLimitExceededException.class);
    assertThatThrownBy(
            () ->
                store.run(
                    Idempotence.IDEMPOTENT,
                    tx -> {
                      attempts.incrementAndGet();
                      throw new KvStoreFailureException("disk on fire");
                    }))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(attempts).hasValue(2);
    assertThat(pauses).isEmpty();
  }

  @Test
  void statsCountCommittedWritesAndTheirMutations() {
    store.run(
        tx -> {
          tx.set(KEY, new byte[] {1});
          tx.clear(KeySubspace.SCRATCH.pack(Tuple.from("other")));
          tx.clearRange(
              KeySubspace.SCRATCH.pack(Tuple.from("a")), KeySubspace.SCRATCH.pack(Tuple.from("b")));
          return null;
        });
    store.run(tx -> tx.get(KEY)); // no mutation: not a committed write
    store.read(tx -> tx.get(KEY));
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      tx.set(KEY, new byte[] {2});
                      throw new IllegalStateException("aborted");
                    }))
        .isInstanceOf(IllegalStateException.class);
    assertThat(store.stats()).isEqualTo(new KvStoreStats(1, 3, 0, 0, 0));
  }

  @Test
  void interruptDuringBackoffEndsTheLoop() {
    store.close();
    store =
        new EngineKvStore(
            InMemoryEngine.create(),
            new RetryPolicy(100, Duration.ofMillis(50), Duration.ofMillis(50)));
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(
              () ->
                  store.run(
                      tx -> {
                        attempts.incrementAndGet();
                        throw new TransactionConflictException("always");
                      }))
          .isInstanceOf(KvStoreFailureException.class)
          .hasMessageContaining("interrupted");
      assertThat(Thread.currentThread().isInterrupted()).as("interrupt status kept").isTrue();
      assertThat(attempts).hasValue(1);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void closedStoreFailsAndCloseIsIdempotent() {
    store.close();
    store.close();
    assertThatThrownBy(() -> store.read(tx -> null)).isInstanceOf(KvStoreFailureException.class);
  }

  private EngineKvStore storeWith(RetryPolicy policy) {
    return new EngineKvStore(InMemoryEngine.create(), policy, pauses::add);
  }
}
