package io.icegate.core.store.memory;

import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.ReadMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * One transaction of {@link InMemoryEngine}: committed data at {@link #readVersion()} overlaid with
 * this transaction's own writes, plus the read-conflict ranges its serializable reads recorded.
 * Confined to one thread.
 */
final class InMemoryTransaction implements EngineTransaction {

  /** Marks a cleared key in {@link #writes}; compared by identity (stored values are copies). */
  static final byte[] CLEARED = new byte[0];

  private final InMemoryEngine engine;
  private final AccessMode mode;
  private final long readVersion;
  private final long beganNanos;

  /** Point writes in key order: a copy of the value, or {@link #CLEARED}. */
  private final TreeMap<byte[], byte[]> writes = new TreeMap<>(Arrays::compareUnsigned);

  /** Range clears; a later point write inside one lives in {@link #writes} and wins. */
  private final RangeSet clears = new RangeSet();

  private final RangeSet readConflicts = new RangeSet();
  private State state = State.OPEN;

  InMemoryTransaction(InMemoryEngine engine, AccessMode mode, long readVersion, long beganNanos) {
    this.engine = engine;
    this.mode = mode;
    this.readVersion = readVersion;
    this.beganNanos = beganNanos;
  }

  long readVersion() {
    return readVersion;
  }

  long beganNanos() {
    return beganNanos;
  }

  RangeSet readConflicts() {
    return readConflicts;
  }

  @Override
  public byte[] get(byte[] key, ReadMode readMode) {
    checkOpen();
    if (readMode == ReadMode.SERIALIZABLE) {
      readConflicts.addKey(key);
    }
    byte[] own = writes.get(key);
    if (own != null) {
      return own == CLEARED ? null : own.clone();
    }
    if (clears.contains(key)) {
      return null;
    }
    byte[] committed = engine.read(this, () -> engine.valueAt(key, readVersion));
    return committed == null ? null : committed.clone();
  }

  @Override
  public List<KeyValue> getRange(
      byte[] begin, byte[] end, int limit, Direction direction, ReadMode readMode) {
    checkOpen();
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      return List.of();
    }
    boolean reverse = direction == Direction.REVERSE;
    List<KeyValue> out = engine.read(this, () -> merge(begin, end, limit, reverse));
    if (readMode == ReadMode.SERIALIZABLE) {
      // Like FoundationDB, a read cut short by its limit depends only on the keys up to the last
      // one returned, so only that part of the range conflicts.
      boolean cutShort = limit > 0 && out.size() == limit;
      if (!cutShort) {
        readConflicts.add(begin, end);
      } else if (reverse) {
        readConflicts.add(out.get(out.size() - 1).key(), end);
      } else {
        readConflicts.add(begin, RangeSet.keyAfter(out.get(out.size() - 1).key()));
      }
    }
    return out;
  }

  @Override
  public void set(byte[] key, byte[] value) {
    checkWritable();
    writes.put(key.clone(), value.clone());
  }

  @Override
  public void clear(byte[] key) {
    checkWritable();
    writes.put(key.clone(), CLEARED);
  }

  @Override
  public void clearRange(byte[] begin, byte[] end) {
    checkWritable();
    if (Arrays.compareUnsigned(begin, end) >= 0) {
      return;
    }
    writes.subMap(begin, true, end, false).clear();
    clears.add(begin.clone(), end.clone());
  }

  @Override
  public void commit() {
    checkOpen();
    if (mode == AccessMode.READ_WRITE && (!writes.isEmpty() || !clears.isEmpty())) {
      state = State.FAILED;
      engine.commit(this, writes, clears);
    }
    state = State.COMMITTED;
  }

  @Override
  public void close() {
    if (state != State.CLOSED) {
      state = State.CLOSED;
      engine.release(this);
    }
  }

  /** Merges committed pairs visible at the read version with own writes, in {@code direction}. */
  private List<KeyValue> merge(byte[] begin, byte[] end, int limit, boolean reverse) {
    NavigableMap<byte[], VersionChain> committedRange = engine.chains(begin, end);
    NavigableMap<byte[], byte[]> ownRange = writes.subMap(begin, true, end, false);
    Iterator<Map.Entry<byte[], VersionChain>> committed =
        (reverse ? committedRange.descendingMap() : committedRange).entrySet().iterator();
    Iterator<Map.Entry<byte[], byte[]>> own =
        (reverse ? ownRange.descendingMap() : ownRange).entrySet().iterator();
    List<KeyValue> out = new ArrayList<>();
    KeyValue c = nextCommitted(committed);
    KeyValue o = nextOwn(own);
    while ((c != null || o != null) && (limit == 0 || out.size() < limit)) {
      // Keys never tie: committed keys this transaction wrote were skipped.
      boolean takeOwn =
          c == null || (o != null && (Arrays.compareUnsigned(o.key(), c.key()) < 0) != reverse);
      if (takeOwn) {
        out.add(o);
        o = nextOwn(own);
      } else {
        out.add(c);
        c = nextCommitted(committed);
      }
    }
    return out;
  }

  private KeyValue nextCommitted(Iterator<Map.Entry<byte[], VersionChain>> it) {
    while (it.hasNext()) {
      Map.Entry<byte[], VersionChain> e = it.next();
      byte[] key = e.getKey();
      if (writes.containsKey(key) || clears.contains(key)) {
        continue;
      }
      byte[] value = e.getValue().valueAt(readVersion);
      if (value != null) {
        return new KeyValue(key.clone(), value.clone());
      }
    }
    return null;
  }

  private static KeyValue nextOwn(Iterator<Map.Entry<byte[], byte[]>> it) {
    while (it.hasNext()) {
      Map.Entry<byte[], byte[]> e = it.next();
      if (e.getValue() != CLEARED) {
        return new KeyValue(e.getKey().clone(), e.getValue().clone());
      }
    }
    return null;
  }

  private void checkWritable() {
    checkOpen();
    if (mode != AccessMode.READ_WRITE) {
      throw new IllegalStateException("write attempted in a read-only transaction");
    }
  }

  private void checkOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("transaction is " + state.name().toLowerCase());
    }
  }

  private enum State {
    OPEN,
    COMMITTED,
    FAILED,
    CLOSED
  }
}
