package io.icegate.core.testing;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A {@link KvStore} that counts the transactions started through it by the threads a test cares
 * about (e.g. a server's request threads, so background work does not blur the count): read
 * transactions ({@link #read}) and read-write ones ({@link #run}) apart. A conflict retry inside
 * the underlying store is not counted again: a count is of transactions asked for.
 */
public final class CountingStore extends ForwardingKvStore {
  private final Predicate<Thread> counted;
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger writes = new AtomicInteger();

  /** @param counted which calling threads' transactions are counted */
  public CountingStore(KvStore store, Predicate<Thread> counted) {
    super(store);
    this.counted = counted;
  }

  /** Read transactions counted since the last {@link #reset}. */
  public int reads() {
    return reads.get();
  }

  /** Read-write transactions counted since the last {@link #reset}. */
  public int writes() {
    return writes.get();
  }

  /** Starts both counts from zero. */
  public void reset() {
    reads.set(0);
    writes.set(0);
  }

  @Override
  public <T> T run(Idempotence idempotence, TransactionBody<T> body) {
    if (counted.test(Thread.currentThread())) {
      writes.incrementAndGet();
    }
    return super.run(idempotence, body);
  }

  @Override
  public <T> T read(ReadBody<T> body) {
    if (counted.test(Thread.currentThread())) {
      reads.incrementAndGet();
    }
    return super.read(body);
  }
}
