package io.icegate.storage.sqlite.durability;

import io.icegate.core.catalog.WarehouseClaimsTest;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.storage.sqlite.SqliteEngine;
import io.icegate.storage.sqlite.SqliteSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Core's warehouse-claim tests on one SQLite file per test, placed by {@link RunFiles}. */
class SqliteWarehouseClaimsTest extends WarehouseClaimsTest {
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
    return SqliteEngine.open(files.file("claims.db"), SqliteSettings.DEFAULT);
  }
}
