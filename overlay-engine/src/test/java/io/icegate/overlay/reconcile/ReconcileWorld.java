package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.model.ModelJson;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.iceberg.TableMetadata;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reconcile test's world: a fresh in-memory store (real FDB-style conflicts) and harness per
 * test, a scratch directory for Delta writers and a local warehouse for generated files; after
 * each test the store's contribution invariants must hold.
 */
abstract class ReconcileWorld {
  @TempDir Path scratch;
  @TempDir Path warehouse;

  KvStore store;
  ReconcileHarness h;

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, Clock.systemUTC());
  }

  /**
   * Checks that the next round of {@code overlay} captures {@code tableId}, written anew upstream
   * at the same location, again as a new capture generation whose current snapshot lists exactly
   * {@code dataFiles}, and that the round after it writes nothing.
   *
   * @return the new capture's pointer
   */
  CapturePointer assertCapturedAgain(
      String overlay, String tableId, Captures.Capture before, String... dataFiles) {
    Captures captures = new Captures(h.repos);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    Captures.Capture after = captures.read(h.account, tableId).orElseThrow();
    assertThat(after.pointer().upstreamMetadataLocation())
        .isEqualTo(before.pointer().upstreamMetadataLocation());
    assertThat(after.pointer().captureGeneration())
        .isEqualTo(before.pointer().captureGeneration() + 1);
    TableMetadata metadata = UnityDeltaUpstream.metadata(after);
    assertThat(UnityDeltaUpstream.dataFiles(metadata, metadata.currentSnapshot()))
        .containsExactlyInAnyOrder(dataFiles);

    // the new table unchanged: the next round writes nothing
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(captures.read(h.account, tableId).orElseThrow().pointer())
        .isEqualTo(after.pointer());
    return after.pointer();
  }

  /**
   * Stores {@code tableId}'s capture pointer as a pointer stored before the upstream's commit
   * identity was recorded (an upgrade: the same JSON without the member), then checks that the
   * next round of {@code overlay} notes the identity without a new capture and later rounds write
   * nothing.
   *
   * @return the pointer the first round stored, with its identity
   */
  CapturePointer assertALegacyPointerGetsTheIdentityOnce(String overlay, String tableId)
      throws Exception {
    Captures captures = new Captures(h.repos);
    CapturePointer current = captures.read(h.account, tableId).orElseThrow().pointer();
    assertThat(current.upstreamCommit()).isNotNull();
    CapturePointer legacy = current.withUpstreamCommit(null);
    byte[] json = ModelJson.mapper().writeValueAsBytes(legacy);
    assertThat(new String(json, StandardCharsets.UTF_8)).doesNotContain("upstreamCommit");
    store.run(Idempotence.IDEMPOTENT, tx -> {
      tx.set(KeyLayout.capture(h.account, tableId), json);
      return null;
    });

    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    CapturePointer noted = captures.read(h.account, tableId).orElseThrow().pointer();
    assertThat(noted).isEqualTo(legacy.withUpstreamCommit(current.upstreamCommit()));
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(captures.read(h.account, tableId).orElseThrow().pointer()).isEqualTo(noted);
    return current;
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }
}
