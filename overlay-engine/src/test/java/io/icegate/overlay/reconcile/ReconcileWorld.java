package io.icegate.overlay.reconcile;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reconcile test's world: a fresh in-memory store (real FDB-style conflicts) and harness per
 * test, a scratch directory for Delta writers and a local warehouse for generated files; after
 * each test the store's contribution invariants must hold.
 */
abstract class ReconcileWorld {
  @TempDir Path scratch;
  @TempDir Path warehouse;

  KvStore store;
  ReconcileHarness h;

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, Clock.systemUTC());
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }
}
