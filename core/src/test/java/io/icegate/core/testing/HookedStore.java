package io.icegate.core.testing;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link KvStore} that runs a test's action just before a chosen read-write transaction starts,
 * on the calling thread and through the same store, so the action commits between an operation's
 * earlier reads and the transaction that writes: the interleaving of two administrators, driven
 * deterministically on every driver. One action at a time; it runs once, disarmed before it runs
 * (its own transactions pass straight through).
 */
public final class HookedStore extends ForwardingKvStore {
  private final AtomicReference<Runnable> action = new AtomicReference<>();
  private final AtomicInteger skip = new AtomicInteger();
  private final AtomicInteger fired = new AtomicInteger();
  private final AtomicInteger openWrites = new AtomicInteger();

  public HookedStore(KvStore store) {
    super(store);
  }

  /**
   * Runs {@code hook} before the {@code nth} (1-based) read-write transaction started from now on.
   */
  public void beforeWrite(int nth, Runnable hook) {
    skip.set(nth - 1);
    action.set(hook);
  }

  /** How many armed actions have run. */
  public int fired() {
    return fired.get();
  }

  /** How many read-write transactions are running now (to tell work done inside one). */
  public int openWrites() {
    return openWrites.get();
  }

  @Override
  public <T> T run(Idempotence idempotence, TransactionBody<T> body) {
    if (action.get() != null && skip.getAndDecrement() <= 0) {
      Runnable hook = action.getAndSet(null);
      if (hook != null) {
        hook.run();
        fired.incrementAndGet();
      }
    }
    openWrites.incrementAndGet();
    try {
      return super.run(idempotence, body);
    } finally {
      openWrites.decrementAndGet();
    }
  }
}
