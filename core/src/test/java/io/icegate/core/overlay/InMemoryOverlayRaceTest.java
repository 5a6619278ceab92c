package io.icegate.core.overlay;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The overlay lifecycle race on the in-memory engine (real optimistic conflicts). */
class InMemoryOverlayRaceTest extends OverlayRaceTest {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }
}
