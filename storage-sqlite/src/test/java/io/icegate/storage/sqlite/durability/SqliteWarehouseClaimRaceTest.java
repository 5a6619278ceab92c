package io.icegate.storage.sqlite.durability;

import io.icegate.core.catalog.WarehouseClaimRaces;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's warehouse-claim races on one SQLite file per test: writers serialize, so the second
 * create's transaction starts after the first committed and reads its claim.
 */
class SqliteWarehouseClaimRaceTest extends WarehouseClaimRaces {
  @TempDir Path fallback;
  private RunFiles files;

  @Override
  protected void storeClosed() {
    if (files != null) {
      files.close();
    }
  }

  @Override
  protected KvEngine newEngine() {
    files = new RunFiles(fallback);
    return SqliteEngine.open(files.file("claim-races.db"), SqliteSettings.DEFAULT);
  }

  @Override
  protected boolean reportsConflicts() {
    return false;
  }
}
