package io.icegate.storage.sqlite;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import java.nio.file.Path;

/** Opens the embedded default {@link KvStore}: one SQLite file, see {@link SqliteEngine}. */
public final class SqliteKvStore {

  private SqliteKvStore() {}

  /**
   * Opens (creating if needed) the store in {@code file} with {@link SqliteSettings#DEFAULT}.
   *
   * @throws io.icegate.core.store.KvStoreFailureException the file cannot be created or opened or
   *     is not a SQLite database
   */
  public static KvStore open(Path file) {
    return open(file, SqliteSettings.DEFAULT);
  }

  /** As {@link #open(Path)} with explicit settings. */
  public static KvStore open(Path file, SqliteSettings settings) {
    return new EngineKvStore(SqliteEngine.open(file, settings));
  }
}
