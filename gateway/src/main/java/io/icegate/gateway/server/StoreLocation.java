package io.icegate.gateway.server;

import io.icegate.core.store.KvStore;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Parses and opens the {@code --store} setting: {@code sqlite:PATH} or {@code fdb:CLUSTER_FILE}.
 */
public final class StoreLocation {
  private StoreLocation() {}

  /**
   * Opens the store named by {@code spec}, or the SQLite file {@code DATA_DIR/icegate.db} when
   * {@code spec} is null.
   *
   * @throws IllegalArgumentException on an unknown scheme, or {@code fdb:} (not in this build)
   */
  public static KvStore open(String spec, Path dataDir) throws java.io.IOException {
    if (spec == null) {
      Files.createDirectories(dataDir);
      return SqliteKvStore.open(dataDir.resolve("icegate.db"));
    }
    if (spec.startsWith("sqlite:")) {
      Path file = Path.of(spec.substring("sqlite:".length())).toAbsolutePath();
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      return SqliteKvStore.open(file);
    }
    if (spec.startsWith("fdb:")) {
      throw new IllegalArgumentException(
          "--store fdb: is not wired into the gateway yet (storage-fdb has no driver on this "
              + "branch); use sqlite:PATH");
    }
    throw new IllegalArgumentException("--store must be sqlite:PATH or fdb:CLUSTER_FILE: " + spec);
  }
}
