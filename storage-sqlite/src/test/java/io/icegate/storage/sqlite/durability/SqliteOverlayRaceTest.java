package io.icegate.storage.sqlite.durability;

import io.icegate.core.overlay.OverlayRaceTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The overlay lifecycle race of core on one SQLite file (writers serialize, readers run beside). */
class SqliteOverlayRaceTest extends OverlayRaceTest {
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
    return SqliteEngine.open(files.file("overlay-race.db"), SqliteSettings.DEFAULT);
  }
}
