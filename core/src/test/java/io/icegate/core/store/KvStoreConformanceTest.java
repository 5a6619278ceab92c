package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.begin;
import static io.icegate.core.store.ConformanceKeys.end;
import static java.util.concurrent.TimeUnit.SECONDS;

import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

/**
 * The one contract every {@link KvEngine} driver must pass, run unchanged by each driver's subclass
 * (in-memory, SQLite, FoundationDB). It drives the engine through {@link EngineKvStore}, the way
 * the product uses it.
 *
 * <p>The tests come in families, one interface each, all implemented here so that a driver
 * extending this class runs every one: {@link RangeConformance} (key order, range reads and
 * clears), {@link IsolationConformance} (what a transaction sees), {@link ConflictConformance},
 * {@link LimitConformance} (FoundationDB's size and age limits) and {@link
 * TransactionOutcomeConformance} (aborts, refusals, a closed store).
 *
 * <p>Every key lives under {@link ConformanceKeys#SUITE}, a subspace of {@link
 * KeySubspace#SCRATCH} that is cleared before each test, so the suite also runs on a shared
 * FoundationDB cluster.
 *
 * <p>Tests that need a transaction to observe a concurrent commit interleave two transactions with
 * latches; they run only on drivers that {@link #reportsConflicts() report conflicts}, since a
 * driver that serializes writers (SQLite) would block the second writer until the first commits.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class KvStoreConformanceTest
    implements RangeConformance,
        IsolationConformance,
        ConflictConformance,
        LimitConformance,
        TransactionOutcomeConformance {

  private KvEngine engine;

  /** The store under test, over the engine of {@link #openEngine()}; closed after each test. */
  protected KvStore store;

  /** A fresh engine for one test; the suite wraps and closes it. */
  protected abstract KvEngine openEngine() throws Exception;

  /**
   * Whether the driver detects conflicts optimistically and reports them (in-memory, FoundationDB)
   * rather than serializing writers so that they never conflict (SQLite). Drivers returning false
   * skip the interleaving tests.
   */
  protected boolean reportsConflicts() {
    return true;
  }

  @BeforeEach
  final void openStore() throws Exception {
    engine = openEngine();
    store = new EngineKvStore(engine);
    store.run(
        tx -> {
          tx.clearRange(begin(), end());
          return null;
        });
  }

  @AfterEach
  final void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  @Override
  public final KvStore store() {
    return store;
  }

  @Override
  public final KvEngine engine() {
    return engine;
  }

  @Override
  public final void assumeReportsConflicts() {
    Assumptions.assumeTrue(
        reportsConflicts(),
        "this driver serializes writers instead of reporting conflicts, so two interleaved"
            + " read-write transactions would block each other");
  }
}
