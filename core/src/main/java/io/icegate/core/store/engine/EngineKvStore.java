package io.icegate.core.store.engine;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvLimits;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.KvStoreStats;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link KvStore} over any {@link KvEngine}: the retry loop, the limits and the age limit live
 * here once, so the drivers cannot drift apart. fdb-java's own {@code Database.run} is not used
 * because it silently retries 1021 commit_unknown_result, which would hide "maybe committed".
 */
public final class EngineKvStore implements KvStore {

  private static final Logger LOG = LoggerFactory.getLogger(EngineKvStore.class);

  private final KvEngine engine;
  private final RetryPolicy retryPolicy;
  private final long maxAgeNanos;
  private final LongConsumer pause;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final LongAdder committedWrites = new LongAdder();
  private final LongAdder mutations = new LongAdder();
  private final LongAdder conflicts = new LongAdder();
  private final LongAdder tooOld = new LongAdder();
  private final LongAdder commitUnknown = new LongAdder();

  public EngineKvStore(KvEngine engine) {
    this(engine, RetryPolicy.DEFAULT);
  }

  public EngineKvStore(KvEngine engine, RetryPolicy retryPolicy) {
    this(engine, retryPolicy, EngineKvStore::sleepNanos);
  }

  /** As the public constructor; {@code pause} sleeps the given nanoseconds between attempts. */
  EngineKvStore(KvEngine engine, RetryPolicy retryPolicy, LongConsumer pause) {
    this.engine = engine;
    this.retryPolicy = retryPolicy;
    this.maxAgeNanos = KvLimits.MAX_TRANSACTION_AGE.toNanos();
    this.pause = pause;
  }

  @Override
  public <T> T run(Idempotence idempotence, TransactionBody<T> body) {
    return attempt(AccessMode.READ_WRITE, idempotence, body::apply);
  }

  @Override
  public <T> T read(ReadBody<T> body) {
    return attempt(AccessMode.READ_ONLY, Idempotence.IDEMPOTENT, body::apply);
  }

  /** Counters since this store was opened. */
  @Override
  public KvStoreStats stats() {
    return new KvStoreStats(
        committedWrites.sum(), mutations.sum(), conflicts.sum(), tooOld.sum(), commitUnknown.sum());
  }

  /** The engine underneath, e.g. for a driver-specific check in its own tests. */
  public KvEngine engine() {
    return engine;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      engine.close();
    }
  }

  @Override
  public String toString() {
    return "EngineKvStore[" + engine.describe() + "]";
  }

  private <T> T attempt(
      AccessMode mode, Idempotence idempotence, Function<GuardedTransaction, T> body) {
    long start = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      if (closed.get()) {
        throw new KvStoreFailureException("store " + engine.describe() + " is closed");
      }
      try (EngineTransaction native_ = engine.begin(mode)) {
        GuardedTransaction tx = new GuardedTransaction(native_, mode, maxAgeNanos);
        T result = body.apply(tx);
        tx.commit();
        if (tx.mutations() > 0) {
          committedWrites.increment();
          mutations.add(tx.mutations());
        }
        return result;
      } catch (KvStoreException e) {
        count(e);
        if (!shouldRetry(e, idempotence)
            || !retryPolicy.mayStartAnother(attempt, System.nanoTime() - start)) {
          throw e;
        }
        LOG.debug("retrying transaction after {} (attempt {})", e.kind(), attempt);
        sleep(attempt);
      }
    }
  }

  private static boolean shouldRetry(KvStoreException e, Idempotence idempotence) {
    return switch (e.kind()) {
      case CONFLICT, TOO_OLD -> true;
      case COMMIT_UNKNOWN_RESULT -> idempotence == Idempotence.IDEMPOTENT;
      case LIMIT_EXCEEDED, FAILURE -> false;
    };
  }

  private void count(KvStoreException e) {
    switch (e.kind()) {
      case CONFLICT -> conflicts.increment();
      case TOO_OLD -> tooOld.increment();
      case COMMIT_UNKNOWN_RESULT -> commitUnknown.increment();
      default -> { }
    }
  }

  private void sleep(int attempt) {
    long nominal = retryPolicy.backoffNanos(attempt);
    if (nominal > 0) {
      double jitter = 0.5 + ThreadLocalRandom.current().nextDouble() / 2;
      pause.accept((long) (nominal * jitter));
    }
  }

  /**
   * Sleeps between attempts. An interrupt ends the retry loop: without this, an interrupted thread
   * would run its remaining attempts back to back.
   */
  private static void sleepNanos(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvStoreFailureException("interrupted while backing off before a retry", e);
    }
  }
}
