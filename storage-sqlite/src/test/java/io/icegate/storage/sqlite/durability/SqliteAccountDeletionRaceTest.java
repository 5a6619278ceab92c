package io.icegate.storage.sqlite.durability;

import io.icegate.core.durability.AccountDeletionRaceTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The account-deletion race of core on one SQLite file (writers serialize, readers run beside). */
class SqliteAccountDeletionRaceTest extends AccountDeletionRaceTest {
  @TempDir Path fallback;
  private RunFiles files;

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
    return SqliteEngine.open(files.file("race.db"), SqliteSettings.DEFAULT);
  }
}
