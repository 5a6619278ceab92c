package io.icegate.core.store.engine;

/**
 * What a storage driver implements: raw transactions over ordered byte keys. {@link EngineKvStore}
 * adds everything drivers share (limits, the age limit, the retry loop), so a driver only maps its
 * native transactions and errors.
 *
 * <p>Drivers: the in-memory engine (core, tests), SQLite ({@code storage-sqlite}), FoundationDB
 * ({@code storage-fdb}). Each must pass {@code KvStoreConformanceTest} from core's test-jar.
 */
public interface KvEngine extends AutoCloseable {

  /**
   * Starts a transaction. Reads made through it observe one consistent state of the store plus the
   * transaction's own writes.
   *
   * @throws io.icegate.core.store.KvStoreException when the engine cannot start one
   */
  EngineTransaction begin(AccessMode mode);

  /** A short description for logs, e.g. {@code sqlite:/data/icegate.db}; never a secret. */
  String describe();

  /** Releases the engine's resources. Idempotent. */
  @Override
  void close();
}
