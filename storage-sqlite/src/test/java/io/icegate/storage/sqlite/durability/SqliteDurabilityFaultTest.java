package io.icegate.storage.sqlite.durability;

import io.icegate.core.durability.DurabilityFaultTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The durability fault runs of core on SQLite: a fresh database file per run. */
class SqliteDurabilityFaultTest extends DurabilityFaultTest {
  @TempDir Path fallback;
  private RunFiles files;
  private final AtomicInteger runs = new AtomicInteger();

  @BeforeEach
  void openFiles() {
    files = new RunFiles(fallback);
  }

  @AfterEach
  void removeFiles() {
    files.close();
  }

  @Override
  protected KvEngine newEngine() {
    return SqliteEngine.open(files.file("run-" + runs.incrementAndGet() + ".db"),
        SqliteSettings.DEFAULT);
  }
}
