package io.icegate.core.store.memory;

import io.icegate.core.store.KvStoreConformanceTest;
import io.icegate.core.store.engine.KvEngine;

/** The conformance suite on the in-memory engine. */
class InMemoryKvStoreConformanceTest extends KvStoreConformanceTest {

  @Override
  protected KvEngine openEngine() {
    return InMemoryEngine.create();
  }
}
