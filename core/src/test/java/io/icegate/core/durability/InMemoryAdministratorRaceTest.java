package io.icegate.core.durability;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The administrator races on the in-memory engine (real optimistic conflicts). */
class InMemoryAdministratorRaceTest extends AdministratorRaceTest {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }
}
