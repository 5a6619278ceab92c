package io.icegate.storage.fdb;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.EngineKvStore;

/** Opens a {@link KvStore} on FoundationDB: core's retry loop and limits over {@link FdbEngine}. */
public final class FdbKvStore {

  private FdbKvStore() {}

  /**
   * Opens the FoundationDB database named by a cluster file ({@code --store fdb:PATH}).
   *
   * @param clusterFilePath e.g. {@code /etc/foundationdb/fdb.cluster}
   * @return a store whose {@code toString()} is {@code EngineKvStore[fdb:PATH]}
   * @throws KvStoreFailureException see {@link FdbEngine#open(String)}
   */
  public static KvStore open(String clusterFilePath) {
    return new EngineKvStore(FdbEngine.open(clusterFilePath));
  }
}
