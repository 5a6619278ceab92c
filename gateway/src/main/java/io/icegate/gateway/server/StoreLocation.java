package io.icegate.gateway.server;

import io.icegate.core.store.KvStore;
import io.icegate.storage.fdb.FdbKvStore;
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
   * @throws IllegalArgumentException on an unknown scheme
   * @throws io.icegate.core.store.KvStoreFailureException when the store cannot be opened, e.g.
   *     {@code fdb:} on a host without the FoundationDB client library ({@code libfdb_c})
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
      String clusterFile = spec.substring("fdb:".length());
      if (clusterFile.isBlank()) {
        throw new IllegalArgumentException("--store fdb: needs a cluster file path: fdb:PATH");
      }
      return FdbKvStore.open(Path.of(clusterFile).toAbsolutePath().toString());
    }
    throw new IllegalArgumentException("--store must be sqlite:PATH or fdb:CLUSTER_FILE: " + spec);
  }
}
