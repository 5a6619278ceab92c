package io.icegate.core.store.engine;

import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvLimitExceededException;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.KvLimits;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.core.store.TransactionTooOldException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Transaction} handed to bodies: checks FoundationDB's limits and age before every call
 * reaches the engine, so every driver fails the same way and nothing oversized is ever written.
 */
final class GuardedTransaction implements Transaction {

  private final EngineTransaction engine;
  private final AccessMode mode;
  private final long startNanos;
  private final long maxAgeNanos;
  private final ReadTransaction snapshotView;
  private long writtenBytes;
  private long mutations;

  GuardedTransaction(EngineTransaction engine, AccessMode mode, long maxAgeNanos) {
    this.engine = engine;
    this.mode = mode;
    this.startNanos = System.nanoTime();
    this.maxAgeNanos = maxAgeNanos;
    this.snapshotView = new SnapshotView();
  }

  @Override
  public byte[] get(byte[] key) {
    return read(key, ReadMode.SERIALIZABLE);
  }

  @Override
  public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, Direction direction) {
    return readRange(begin, end, limit, direction, ReadMode.SERIALIZABLE);
  }

  @Override
  public ReadTransaction snapshot() {
    return snapshotView;
  }

  @Override
  public void set(byte[] key, byte[] value) {
    checkWritable();
    checkKey(key);
    Objects.requireNonNull(value, "value");
    if (value.length > KvLimits.MAX_VALUE_BYTES) {
      throw new KvLimitExceededException(Limit.VALUE_SIZE, value.length);
    }
    account((long) key.length + value.length);
    engine.set(key, value);
  }

  @Override
  public void clear(byte[] key) {
    checkWritable();
    checkKey(key);
    account(key.length);
    engine.clear(key);
  }

  @Override
  public void clearRange(byte[] begin, byte[] end) {
    checkWritable();
    checkKey(begin);
    checkKey(end);
    if (Arrays.compareUnsigned(begin, end) > 0) {
      // FoundationDB fails such a clear with 2005 inverted_range; SQLite would silently do nothing.
      throw new IllegalArgumentException("range clear with begin after end");
    }
    account((long) begin.length + end.length);
    engine.clearRange(begin, end);
  }

  void commit() {
    checkAge();
    engine.commit();
  }

  long mutations() {
    return mutations;
  }

  private byte[] read(byte[] key, ReadMode readMode) {
    checkKey(key);
    checkAge();
    return engine.get(key, readMode);
  }

  private List<KeyValue> readRange(
      byte[] begin, byte[] end, int limit, Direction direction, ReadMode readMode) {
    checkKey(begin);
    checkKey(end);
    Objects.requireNonNull(direction, "direction");
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
    checkAge();
    return engine.getRange(begin, end, limit, direction, readMode);
  }

  private void checkWritable() {
    if (mode != AccessMode.READ_WRITE) {
      throw new IllegalStateException("write attempted in a read-only transaction");
    }
  }

  private void checkKey(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length > KvLimits.MAX_KEY_BYTES) {
      throw new KvLimitExceededException(Limit.KEY_SIZE, key.length);
    }
  }

  private void account(long bytes) {
    checkAge();
    long total = writtenBytes + bytes;
    if (total > KvLimits.MAX_TRANSACTION_BYTES) {
      throw new KvLimitExceededException(Limit.TRANSACTION_SIZE, total);
    }
    writtenBytes = total;
    mutations++;
  }

  private void checkAge() {
    long age = System.nanoTime() - startNanos;
    if (age > maxAgeNanos) {
      throw new TransactionTooOldException(
          "transaction is " + age / 1_000_000 + " ms old, over the limit of "
              + maxAgeNanos / 1_000_000 + " ms");
    }
  }

  /** Reads of the same transaction that add no read-conflict ranges. */
  private final class SnapshotView implements ReadTransaction {
    @Override
    public byte[] get(byte[] key) {
      return read(key, ReadMode.SNAPSHOT);
    }

    @Override
    public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, Direction direction) {
      return readRange(begin, end, limit, direction, ReadMode.SNAPSHOT);
    }

    @Override
    public ReadTransaction snapshot() {
      return this;
    }
  }
}
