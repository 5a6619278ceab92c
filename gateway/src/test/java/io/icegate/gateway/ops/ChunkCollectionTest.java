package io.icegate.gateway.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CaptureChunkCollector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The server's cadence really runs the collector: an unreferenced blob past its grace disappears
 * without anyone calling {@code collect()}, a fresh one survives several passes, and closing stops
 * the cadence.
 */
class ChunkCollectionTest {

  @Test
  void passesRunOnTheCadenceAndSpareBlobsWithinTheirGrace() throws Exception {
    try (KvStore store = new EngineKvStore(InMemoryEngine.create())) {
      MutableClock clock = MutableClock.start();
      Blobs blobs = new Blobs(store, clock);
      String old = blobs.write("written two hours ago".getBytes(StandardCharsets.UTF_8));
      clock.advance(Duration.ofHours(2));
      String fresh = blobs.write("written just now".getBytes(StandardCharsets.UTF_8));
      CaptureChunkCollector collector =
          new CaptureChunkCollector(store, clock, ChunkCollection.GRACE);

      try (ChunkCollection collection = ChunkCollection.start(collector, Duration.ofMillis(20))) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (present(store, old)
            && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(present(store, old)).isFalse();
        Thread.sleep(200); // several more passes
        assertThat(present(store, fresh)).isTrue();
      }
      // closed: a blob that becomes collectable now stays
      clock.advance(Duration.ofHours(2));
      Thread.sleep(200);
      assertThat(present(store, fresh)).isTrue();
    }
  }

  private static boolean present(KvStore store, String digest) {
    Boolean present = store.read(tx -> Blobs.marker(tx, digest).isPresent());
    return present;
  }

  @Test
  void aCadenceMustBePositive() {
    try (KvStore store = new EngineKvStore(InMemoryEngine.create())) {
      CaptureChunkCollector collector =
          new CaptureChunkCollector(store, MutableClock.start(), ChunkCollection.GRACE);
      assertThatThrownBy(() -> ChunkCollection.start(collector, Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
