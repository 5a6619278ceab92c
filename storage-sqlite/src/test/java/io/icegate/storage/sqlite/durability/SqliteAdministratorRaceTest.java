package io.icegate.storage.sqlite.durability;

import io.icegate.core.durability.AdministratorRaceTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The administrator races of core on one SQLite file per test. */
class SqliteAdministratorRaceTest extends AdministratorRaceTest {
  @TempDir Path dir;

  @Override
  protected KvEngine newEngine() {
    return SqliteEngine.open(dir.resolve("administrators.db"), SqliteSettings.DEFAULT);
  }
}
