package io.icegate.storage.fdb;

import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.Transaction;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.ReadMode;
import io.icegate.storage.fdb.FdbErrorCodes.Phase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One raw fdb-java {@link Transaction}: every call is a single attempt, and every failure is
 * translated by {@link FdbErrorCodes}. The retry loop is core's {@code EngineKvStore}, never
 * fdb-java's {@code Database.run} or {@code onError}, which would retry a commit with unknown result
 * behind the caller's back.
 *
 * <p>Not thread-safe, like core's transactions: one thread runs the body that uses it.
 */
final class FdbEngineTransaction implements EngineTransaction {

  private final Transaction tr;
  private boolean closed;

  FdbEngineTransaction(Transaction tr) {
    this.tr = tr;
  }

  @Override
  public byte[] get(byte[] key, ReadMode mode) {
    try {
      return reader(mode).get(key).join();
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  @Override
  public List<KeyValue> getRange(
      byte[] begin, byte[] end, int limit, Direction direction, ReadMode mode) {
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      // FoundationDB answers an empty or inverted range with no rows; say so without a round trip.
      return List.of();
    }
    try {
      // limit 0 is fdb-java's ROW_LIMIT_UNLIMITED, the same convention as core's.
      List<com.apple.foundationdb.KeyValue> rows =
          reader(mode)
              .getRange(begin, end, limit, direction == Direction.REVERSE, StreamingMode.WANT_ALL)
              .asList()
              .join();
      List<KeyValue> result = new ArrayList<>(rows.size());
      for (com.apple.foundationdb.KeyValue row : rows) {
        result.add(new KeyValue(row.getKey(), row.getValue()));
      }
      return result;
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  @Override
  public void set(byte[] key, byte[] value) {
    try {
      tr.set(key, value);
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  @Override
  public void clear(byte[] key) {
    try {
      tr.clear(key);
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  @Override
  public void clearRange(byte[] begin, byte[] end) {
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      // An empty range clears nothing; FoundationDB would reject an inverted one (2005).
      return;
    }
    try {
      tr.clear(begin, end);
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.BEFORE_COMMIT);
    }
  }

  @Override
  public void commit() {
    try {
      tr.commit().join();
    } catch (RuntimeException e) {
      throw FdbErrorCodes.toKvStoreException(e, Phase.COMMIT);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      tr.close();
    } catch (RuntimeException e) {
      // close() must not throw (EngineTransaction contract); the native handle is freed anyway.
    }
  }

  private ReadTransaction reader(ReadMode mode) {
    return mode == ReadMode.SNAPSHOT ? tr.snapshot() : tr;
  }
}
