package io.icegate.core.catalog;

import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.memory.InMemoryEngine;

/** The warehouse claims on the in-memory engine. */
class InMemoryWarehouseClaimsTest extends WarehouseClaimsTest {
  @Override
  protected KvEngine newEngine() {
    return InMemoryEngine.create();
  }
}
