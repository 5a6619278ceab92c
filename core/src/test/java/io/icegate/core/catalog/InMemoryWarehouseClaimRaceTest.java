package io.icegate.core.catalog;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The warehouse-claim races on the in-memory engine (real optimistic conflicts). */
class InMemoryWarehouseClaimRaceTest extends WarehouseClaimRaces {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }

  @Override
  protected boolean reportsConflicts() {
    return true;
  }
}
