package io.icegate.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLocationTest {

  @TempDir Path dataDir;

  @Test
  void defaultIsTheSqliteFileUnderTheDataDir() throws Exception {
    try (KvStore store = StoreLocation.open(null, dataDir.resolve("d"))) {
      assertThat(store.toString()).contains(dataDir.resolve("d").resolve("icegate.db").toString());
    }
  }

  @Test
  void fdbWithoutAPathIsRefused() {
    assertThatThrownBy(() -> StoreLocation.open("fdb:", dataDir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster file");
  }

  @Test
  void fdbWithAnUnreadableClusterFileFailsClearly() {
    // No FoundationDB server or client library can be installed here; the driver must still
    // refuse with a storage failure that names the problem rather than a bare native error.
    assertThatThrownBy(() -> StoreLocation.open("fdb:" + dataDir.resolve("absent.cluster"), dataDir))
        .isInstanceOf(KvStoreFailureException.class)
        .hasMessageContaining("absent.cluster");
  }

  @Test
  void unknownSchemeIsRefused() {
    assertThatThrownBy(() -> StoreLocation.open("postgres://x", dataDir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sqlite:PATH or fdb:CLUSTER_FILE");
  }
}
