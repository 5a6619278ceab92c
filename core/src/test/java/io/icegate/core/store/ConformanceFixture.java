package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.key;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.engine.KvEngine;
import java.util.List;

/**
 * What each family of the conformance suite needs from {@link KvStoreConformanceTest}, which
 * implements every family: the store and engine of the running test, whether the driver reports
 * conflicts, and one-transaction reads and writes for arranging and checking a test.
 */
interface ConformanceFixture {

  /** The store under test, over the engine of {@link #engine()}; fresh for each test. */
  KvStore store();

  /** The engine of the running test, for a second store with another retry policy. */
  KvEngine engine();

  /**
   * Skips the test on a driver that serializes writers instead of reporting conflicts: two
   * interleaved read-write transactions would block each other there.
   */
  void assumeReportsConflicts();

  default byte[] get(byte[] key) {
    return store().read(tx -> tx.get(key));
  }

  default List<KeyValue> range(byte[] begin, byte[] end) {
    return store().read(tx -> tx.getRange(begin, end));
  }

  default List<KeyValue> range(byte[] begin, byte[] end, int limit, Direction direction) {
    return store().read(tx -> tx.getRange(begin, end, limit, direction));
  }

  default void put(byte[] key, byte[] value) {
    store()
        .run(
            tx -> {
              tx.set(key, value);
              return null;
            });
  }

  /** Writes {@code (n) -> tuple(n)} for {@code from <= n < to}. */
  default void writeNumbers(long from, long to) {
    store()
        .run(
            tx -> {
              for (long n = from; n < to; n++) {
                tx.set(key(n), Tuple.from(n).pack());
              }
              return null;
            });
  }
}
