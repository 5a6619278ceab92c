package io.icegate.core.durability;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The durability fault runs on the in-memory engine (real optimistic conflicts). */
class InMemoryDurabilityFaultTest extends DurabilityFaultTest {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }
}
