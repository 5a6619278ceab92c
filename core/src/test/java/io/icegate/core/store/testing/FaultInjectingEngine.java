package io.icegate.core.store.testing;

import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.engine.ReadMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link KvEngine} wrapper that makes commits fail the ways FoundationDB commits can, for tests
 * of code that must survive them (the durability protocol, receipts, retries). Use it as {@code new
 * EngineKvStore(new FaultInjectingEngine(engine))}.
 *
 * <p>Commit points are the commits of {@link AccessMode#READ_WRITE} transactions, numbered from 1
 * in the order they reach this engine (also those that write nothing: each is a point where a
 * protocol can be cut). Read-only transactions are never faulted and not counted. A fault is
 * planned at a commit number ({@link #failAt}) or drawn at random from a seed ({@link
 * #failRandomly}). To test every commit point with every fault, run the scenario once without
 * faults, read {@link #commitsSeen()}, then rerun it on a fresh store for each number and each
 * {@link Fault}; {@link #injected()} tells which faults actually fired.
 *
 * <p>Thread-safe; with several threads the numbering follows the order commits arrive.
 */
public final class FaultInjectingEngine implements KvEngine {

  /** How a commit fails. */
  public enum Fault {
    /** A conflict (FoundationDB 1020): nothing is written; {@code run} retries. */
    CONFLICT,
    /** Another failure before the commit was sent: nothing is written; not retried. */
    FAILURE_BEFORE_COMMIT,
    /** The commit is applied, then reported as unknown (FoundationDB 1021 after success). */
    COMMIT_UNKNOWN_APPLIED,
    /** The commit is not applied and reported as unknown (FoundationDB 1021 after loss). */
    COMMIT_UNKNOWN_NOT_APPLIED
  }

  /** A fault that fired at commit number {@code commit}. */
  public record Injection(int commit, Fault fault) {}

  private final KvEngine delegate;
  private final Map<Integer, Fault> planned = new ConcurrentHashMap<>();
  private final List<Injection> injected = new ArrayList<>();
  private int commits;
  private int crashAt;
  private boolean crashApplied;
  private boolean down;
  private Random random;
  private double probability;
  private List<Fault> mix = List.of();

  /** Wraps {@code delegate} with no faults planned. */
  public FaultInjectingEngine(KvEngine delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** Plans {@code fault} at the {@code commit}-th read-write commit (1-based). Returns this. */
  public FaultInjectingEngine failAt(int commit, Fault fault) {
    if (commit < 1) {
      throw new IllegalArgumentException("commit numbers start at 1, was " + commit);
    }
    planned.put(commit, Objects.requireNonNull(fault, "fault"));
    return this;
  }

  /**
   * Makes every read-write commit without a planned fault fail with {@code probability}, with a
   * fault drawn uniformly from {@code faults}; the same seed and commit order give the same faults.
   * Returns this.
   */
  public synchronized FaultInjectingEngine failRandomly(
      long seed, double probability, Set<Fault> faults) {
    if (probability < 0 || probability > 1) {
      throw new IllegalArgumentException("probability must be in [0, 1], was " + probability);
    }
    if (faults.isEmpty() && probability > 0) {
      throw new IllegalArgumentException("no faults to draw from");
    }
    this.random = new Random(seed);
    this.probability = probability;
    EnumSet<Fault> inOrder = EnumSet.noneOf(Fault.class);
    inOrder.addAll(faults);
    this.mix = List.copyOf(inOrder);
    return this;
  }

  /**
   * Plans a crash of the process at the {@code commit}-th read-write commit (1-based): that commit
   * is applied or not as {@code applied} says, then it and every later commit fail (nothing more
   * is written, as if the process had died there) until {@link #restart()}. Returns this.
   */
  public synchronized FaultInjectingEngine crashAt(int commit, boolean applied) {
    if (commit < 1) {
      throw new IllegalArgumentException("commit numbers start at 1, was " + commit);
    }
    crashAt = commit;
    crashApplied = applied;
    return this;
  }

  /** Whether a planned crash happened and no {@link #restart()} followed. */
  public synchronized boolean crashed() {
    return down;
  }

  /** A new process after a crash: commits succeed again (unless other faults are planned). */
  public synchronized void restart() {
    down = false;
    crashAt = 0;
  }

  /**
   * No more faults: planned and random ones are dropped, so a scenario can end with steps that
   * must succeed (its tidy-up) while still counting commits.
   */
  public synchronized void calm() {
    planned.clear();
    random = null;
  }

  /** Read-write commits that reached this engine so far, faulted or not. */
  public synchronized int commitsSeen() {
    return commits;
  }

  /** The faults that fired, in commit order. */
  public synchronized List<Injection> injected() {
    return List.copyOf(injected);
  }

  @Override
  public EngineTransaction begin(AccessMode mode) {
    EngineTransaction tx = delegate.begin(mode);
    return mode == AccessMode.READ_WRITE ? new Faulty(tx) : tx;
  }

  @Override
  public String describe() {
    return "faults:" + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /**
   * For a commit while crashed or at the planned crash: whether it is applied (only the crash
   * commit may be); {@code null} when no crash is involved (then {@link #nextCommit} numbers it).
   */
  private synchronized Boolean crashing() {
    if (down) {
      return false;
    }
    if (crashAt > 0 && commits + 1 == crashAt) {
      commits++;
      down = true;
      return crashApplied;
    }
    return null;
  }

  /** Numbers this commit and decides its fault, or {@code null} for none. */
  private synchronized Injection nextCommit() {
    int number = ++commits;
    Fault fault = planned.remove(number);
    if (fault == null && random != null && random.nextDouble() < probability) {
      fault = mix.get(random.nextInt(mix.size()));
    }
    if (fault == null) {
      return null;
    }
    Injection injection = new Injection(number, fault);
    injected.add(injection);
    return injection;
  }

  /** A read-write transaction whose commit may be faulted. */
  private final class Faulty implements EngineTransaction {
    private final EngineTransaction tx;

    Faulty(EngineTransaction tx) {
      this.tx = tx;
    }

    @Override
    public byte[] get(byte[] key, ReadMode mode) {
      return tx.get(key, mode);
    }

    @Override
    public List<KeyValue> getRange(
        byte[] begin, byte[] end, int limit, Direction direction, ReadMode mode) {
      return tx.getRange(begin, end, limit, direction, mode);
    }

    @Override
    public void set(byte[] key, byte[] value) {
      tx.set(key, value);
    }

    @Override
    public void clear(byte[] key) {
      tx.clear(key);
    }

    @Override
    public void clearRange(byte[] begin, byte[] end) {
      tx.clearRange(begin, end);
    }

    @Override
    public void commit() {
      Boolean crash = crashing();
      if (crash != null) {
        if (crash) {
          tx.commit();
        }
        throw new KvStoreFailureException("the process crashed (injected)");
      }
      Injection injection = nextCommit();
      if (injection == null) {
        tx.commit();
        return;
      }
      String what = "injected " + injection.fault() + " at commit " + injection.commit();
      switch (injection.fault()) {
        case CONFLICT -> throw new TransactionConflictException(what);
        case FAILURE_BEFORE_COMMIT -> throw new KvStoreFailureException(what);
        case COMMIT_UNKNOWN_APPLIED -> {
          tx.commit();
          throw new CommitUnknownResultException(what);
        }
        case COMMIT_UNKNOWN_NOT_APPLIED -> throw new CommitUnknownResultException(what);
      }
    }

    @Override
    public void close() {
      tx.close();
    }
  }
}
