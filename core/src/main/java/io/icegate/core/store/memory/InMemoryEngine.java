package io.icegate.core.store.memory;

import io.icegate.core.store.KvLimits;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.KvEngine;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A {@link KvEngine} held in memory, for tests, with FoundationDB's optimistic concurrency
 * implemented for real (DESIGN.md "Conflicts must be real in tests"):
 *
 * <ul>
 *   <li>Committed data is multi-versioned. A transaction reads at its read version, the newest
 *       committed version when it began, overlaid with its own writes.
 *   <li>Every non-snapshot key or range read adds a read-conflict range. At commit, those ranges
 *       are checked against the write ranges of every transaction that committed after the read
 *       version; any overlap fails the commit with {@link TransactionConflictException} and nothing
 *       is written. Transactions without writes commit without a check.
 *   <li>A transaction older than {@link KvLimits#MAX_TRANSACTION_AGE} fails with {@link
 *       TransactionTooOldException} on its next read or commit, as FoundationDB does once its read
 *       version leaves the 5 s MVCC window. Versions and commit records that no younger live
 *       transaction can need are pruned at every commit and close.
 * </ul>
 *
 * <p>Keys compare as unsigned bytes. Values are copied in and out, so callers cannot alter stored
 * data through an array they passed or received. Thread-safe; reads share a lock, while begin,
 * commit and close take it exclusively.
 */
public final class InMemoryEngine implements KvEngine {

  private final LongSupplier nanoClock;
  private final long maxAgeNanos;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  // All guarded by `lock`.
  private final TreeMap<byte[], VersionChain> data = new TreeMap<>(Arrays::compareUnsigned);
  private final ArrayDeque<CommitRecord> commitLog = new ArrayDeque<>();
  private final LinkedHashSet<InMemoryTransaction> live = new LinkedHashSet<>();
  private long currentVersion;
  private long prunedThrough;
  private boolean closed;

  InMemoryEngine(LongSupplier nanoClock, Duration maxAge) {
    this.nanoClock = nanoClock;
    this.maxAgeNanos = maxAge.toNanos();
  }

  /**
   * An empty engine with FoundationDB's 5 s transaction age limit; wrap it in {@link
   * EngineKvStore}.
   */
  public static InMemoryEngine create() {
    return new InMemoryEngine(System::nanoTime, KvLimits.MAX_TRANSACTION_AGE);
  }

  /**
   * Starts a transaction reading at the newest committed version.
   *
   * @throws KvStoreFailureException when the engine is closed
   */
  @Override
  public EngineTransaction begin(AccessMode mode) {
    lock.writeLock().lock();
    try {
      checkOpen();
      InMemoryTransaction tx =
          new InMemoryTransaction(this, mode, currentVersion, nanoClock.getAsLong());
      live.add(tx);
      return tx;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String describe() {
    return "memory";
  }

  /** Drops all data; transactions still open fail with {@link KvStoreFailureException}. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      closed = true;
      data.clear();
      commitLog.clear();
      live.clear();
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String toString() {
    return "InMemoryEngine[" + describe() + "]";
  }

  /** Runs {@code read} over the committed data as {@code tx} sees it, under the shared lock. */
  <T> T read(InMemoryTransaction tx, Supplier<T> read) {
    lock.readLock().lock();
    try {
      checkOpen();
      checkAge(tx);
      return read.get();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The committed value of {@code key} at {@code version}; call inside {@link #read}. */
  byte[] valueAt(byte[] key, long version) {
    VersionChain chain = data.get(key);
    return chain == null ? null : chain.valueAt(version);
  }

  /** The committed chains of keys in {@code [begin, end)}; call inside {@link #read}. */
  NavigableMap<byte[], VersionChain> chains(byte[] begin, byte[] end) {
    return data.subMap(begin, true, end, false);
  }

  /**
   * Checks {@code tx}'s read-conflict ranges against every commit after its read version and, if
   * none overlaps, applies its writes at a new version.
   */
  void commit(InMemoryTransaction tx, NavigableMap<byte[], byte[]> writes, RangeSet clears) {
    lock.writeLock().lock();
    try {
      checkOpen();
      checkAge(tx);
      Iterator<CommitRecord> newestFirst = commitLog.descendingIterator();
      while (newestFirst.hasNext()) {
        CommitRecord other = newestFirst.next();
        if (other.version() <= tx.readVersion()) {
          break;
        }
        if (other.writes().intersects(tx.readConflicts())) {
          throw new TransactionConflictException(
              "a key or range read at version "
                  + tx.readVersion()
                  + " was written by the commit at version "
                  + other.version());
        }
      }
      apply(++currentVersion, writes, clears);
      live.remove(tx);
      prune();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Forgets a finished transaction so that the versions it pinned can be pruned. */
  void release(InMemoryTransaction tx) {
    lock.writeLock().lock();
    try {
      if (live.remove(tx)) {
        prune();
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Number of versions held for {@code key}, 0 when forgotten; for tests of pruning. */
  int versionsHeld(byte[] key) {
    lock.readLock().lock();
    try {
      VersionChain chain = data.get(key);
      return chain == null ? 0 : chain.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Number of commit records held for conflict checks; for tests of pruning. */
  int commitRecordsHeld() {
    lock.readLock().lock();
    try {
      return commitLog.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  private void apply(long version, NavigableMap<byte[], byte[]> writes, RangeSet clears) {
    RangeSet written = new RangeSet();
    List<byte[]> touched = new ArrayList<>();
    // Range clears first: a set made after a clear of its range is still in `writes`, and a set
    // made before it was removed from `writes` by the clear.
    for (RangeSet.Range r : clears.ranges()) {
      written.add(r.begin(), r.end());
      for (Map.Entry<byte[], VersionChain> e : chains(r.begin(), r.end()).entrySet()) {
        if (e.getValue().latest() != null) {
          e.setValue(e.getValue().append(version, null));
          touched.add(e.getKey());
        }
      }
    }
    for (Map.Entry<byte[], byte[]> w : writes.entrySet()) {
      byte[] key = w.getKey();
      byte[] value = w.getValue() == InMemoryTransaction.CLEARED ? null : w.getValue();
      written.addKey(key);
      VersionChain chain = data.get(key);
      if (chain == null) {
        if (value != null) {
          data.put(key, VersionChain.of(version, value));
          touched.add(key);
        }
      } else if (value != null || chain.latest() != null) {
        data.put(key, chain.append(version, value));
        touched.add(key);
      }
    }
    commitLog.addLast(new CommitRecord(version, written, touched));
  }

  /**
   * Drops commit records and versions that no live transaction within the age limit can read:
   * everything at or before the read version of the oldest such transaction (or the current version
   * when there is none). Older transactions fail as too old if they go on.
   */
  private void prune() {
    long now = nanoClock.getAsLong();
    // `live` is in begin order, so expired transactions are at its head.
    Iterator<InMemoryTransaction> oldestFirst = live.iterator();
    long horizon = currentVersion;
    while (oldestFirst.hasNext()) {
      InMemoryTransaction tx = oldestFirst.next();
      if (now - tx.beganNanos() <= maxAgeNanos) {
        horizon = tx.readVersion();
        break;
      }
      oldestFirst.remove();
    }
    while (!commitLog.isEmpty() && commitLog.peekFirst().version() <= horizon) {
      CommitRecord record = commitLog.pollFirst();
      prunedThrough = record.version();
      for (byte[] key : record.touchedKeys()) {
        VersionChain chain = data.get(key);
        if (chain != null) {
          VersionChain compacted = chain.compact(record.version());
          if (compacted == null) {
            data.remove(key);
          } else {
            data.put(key, compacted);
          }
        }
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new KvStoreFailureException("in-memory engine is closed");
    }
  }

  private void checkAge(InMemoryTransaction tx) {
    long age = nanoClock.getAsLong() - tx.beganNanos();
    if (age > maxAgeNanos || tx.readVersion() < prunedThrough) {
      throw new TransactionTooOldException(
          "transaction at read version "
              + tx.readVersion()
              + " is "
              + age / 1_000_000
              + " ms old; versions older than "
              + maxAgeNanos / 1_000_000
              + " ms are gone");
    }
  }

  /** What a committed transaction wrote: checked against later commits' reads, then pruned. */
  private record CommitRecord(long version, RangeSet writes, List<byte[]> touchedKeys) {}
}
