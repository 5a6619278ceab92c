package io.icegate.core.store.engine;

import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction.Direction;
import java.util.List;

/**
 * One native transaction of a {@link KvEngine}. Arguments are already checked against the limits
 * by the caller. Failures are thrown as {@link io.icegate.core.store.KvStoreException} subclasses,
 * classified by the driver.
 */
public interface EngineTransaction extends AutoCloseable {

  byte[] get(byte[] key, ReadMode mode);

  /** Pairs in {@code [begin, end)}; {@code limit} 0 means unlimited. */
  List<KeyValue> getRange(byte[] begin, byte[] end, int limit, Direction direction, ReadMode mode);

  void set(byte[] key, byte[] value);

  void clear(byte[] key);

  void clearRange(byte[] begin, byte[] end);

  /**
   * Commits. A read-only transaction commits trivially.
   *
   * @throws io.icegate.core.store.TransactionConflictException a serializable read was overwritten
   * @throws io.icegate.core.store.CommitUnknownResultException the outcome is unknown
   */
  void commit();

  /** Abandons the transaction unless it committed. Idempotent; never throws. */
  @Override
  void close();
}
