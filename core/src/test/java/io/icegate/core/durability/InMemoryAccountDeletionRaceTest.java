package io.icegate.core.durability;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The account-deletion race on the in-memory engine (real optimistic conflicts). */
class InMemoryAccountDeletionRaceTest extends AccountDeletionRaceTest {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }
}
