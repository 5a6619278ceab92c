package io.icegate.storage.sqlite;

import io.icegate.core.store.KvStoreConformanceTest;
import io.icegate.core.store.engine.KvEngine;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shared conformance suite on a fresh SQLite file per test. */
class SqliteKvStoreConformanceTest extends KvStoreConformanceTest {

  @TempDir Path dir;

  @Override
  protected KvEngine openEngine() {
    return SqliteEngine.open(dir.resolve("conformance.db"), SqliteSettings.DEFAULT);
  }

  /** SQLite serializes writers with BEGIN IMMEDIATE, so a read can never be overwritten. */
  @Override
  protected boolean reportsConflicts() {
    return false;
  }
}
