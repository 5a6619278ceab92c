package io.icegate.storage.sqlite.durability;

import io.icegate.core.durability.AdministratorRaceTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The administrator races of core on one SQLite file per test (writers serialize, readers run
 * beside), placed by {@link RunFiles}. The engine is opened by the base class's set-up, before a
 * subclass's would run, so the files are chosen there.
 */
class SqliteAdministratorRaceTest extends AdministratorRaceTest {
  @TempDir Path fallback;
  private RunFiles files;

  @AfterEach
  void removeFiles() {
    if (files != null) {
      files.close();
    }
  }

  @Override
  protected KvEngine newEngine() {
    files = new RunFiles(fallback);
    return SqliteEngine.open(files.file("administrators.db"), SqliteSettings.DEFAULT);
  }
}
