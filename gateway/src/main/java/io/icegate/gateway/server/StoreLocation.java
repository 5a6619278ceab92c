package io.icegate.gateway.server;

import io.icegate.core.store.KvStore;
import io.icegate.storage.fdb.FdbKvStore;
import io.icegate.storage.sqlite.SqliteKvStore;
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
   * @throws IllegalArgumentException on an unknown scheme
   * @throws io.icegate.core.store.KvStoreFailureException when the store cannot be opened, e.g.
   *     {@code fdb:} on a host without the FoundationDB client library ({@code libfdb_c})
   */
  public static KvStore open(String spec, Path dataDir) throws java.io.IOException {
    String resolved = resolve(spec, dataDir);
    if (resolved.startsWith("sqlite:")) {
      Path file = Path.of(resolved.substring("sqlite:".length()));
      if (file.getParent() != null) {
        OwnerOnlyFiles.createDirectories(file.getParent());
      }
      OwnerOnlyFiles.createFile(file);
      return SqliteKvStore.open(file);
    }
    return FdbKvStore.open(resolved.substring("fdb:".length()));
  }

  /**
   * {@code spec} with its path made absolute, or {@code sqlite:DATA_DIR/icegate.db} for null: what
   * the store opened from {@code spec} is, as the startup log shows it (a path, never a secret).
   *
   * @throws IllegalArgumentException on an unknown scheme or {@code fdb:} without a path
   */
  public static String resolve(String spec, Path dataDir) {
    if (spec == null) {
      return "sqlite:" + dataDir.toAbsolutePath().normalize().resolve("icegate.db");
    }
    if (spec.startsWith("sqlite:")) {
      return "sqlite:" + Path.of(spec.substring("sqlite:".length())).toAbsolutePath().normalize();
    }
    if (spec.startsWith("fdb:")) {
      String clusterFile = spec.substring("fdb:".length());
      if (clusterFile.isBlank()) {
        throw new IllegalArgumentException("--store fdb: needs a cluster file path: fdb:PATH");
      }
      return "fdb:" + Path.of(clusterFile).toAbsolutePath();
    }
    throw new IllegalArgumentException("--store must be sqlite:PATH or fdb:CLUSTER_FILE: " + spec);
  }
}
