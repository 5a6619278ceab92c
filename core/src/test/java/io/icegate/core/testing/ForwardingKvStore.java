package io.icegate.core.testing;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreStats;

/**
 * A {@link KvStore} that passes everything to another: the base of the test stores that watch or
 * steer some calls ({@link HookedStore}, {@link CountingStore}) and override only those.
 */
public abstract class ForwardingKvStore implements KvStore {
  private final KvStore store;

  protected ForwardingKvStore(KvStore store) {
    this.store = store;
  }

  /** The store everything goes to. */
  protected final KvStore delegate() {
    return store;
  }

  @Override
  public <T> T run(Idempotence idempotence, TransactionBody<T> body) {
    return store.run(idempotence, body);
  }

  @Override
  public <T> T read(ReadBody<T> body) {
    return store.read(body);
  }

  @Override
  public KvStoreStats stats() {
    return store.stats();
  }

  @Override
  public void close() {
    store.close();
  }
}
