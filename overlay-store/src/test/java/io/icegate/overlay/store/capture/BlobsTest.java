package io.icegate.overlay.store.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Batched blob writes on the in-memory store: many small blobs share one transaction (the cap is
 * in bytes, not chunks), a large blob spans several, and each reads back whole.
 */
class BlobsTest {

  @Test
  void smallBlobsShareOneTransactionAndALargeOneSpansSeveral() {
    try (KvStore store = new EngineKvStore(InMemoryEngine.create())) {
      Blobs blobs = new Blobs(store, MutableClock.start());
      List<byte[]> small = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        small.add(("{\"table\":" + i + "}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      long before = store.stats().committedWrites();
      List<String> digests = blobs.writeAll(small);
      assertThat(store.stats().committedWrites() - before).isEqualTo(1);

      byte[] large = new byte[Blobs.BYTES_PER_TRANSACTION + 3 * Blobs.CHUNK_BYTES / 2];
      for (int i = 0; i < large.length; i++) {
        large[i] = (byte) (i * 31);
      }
      before = store.stats().committedWrites();
      String digest = blobs.write(large);
      assertThat(store.stats().committedWrites() - before).isEqualTo(2);

      store.read(tx -> {
        for (int i = 0; i < small.size(); i++) {
          assertThat(Blobs.read(tx, digests.get(i))).hasValue(small.get(i));
          assertThat(Blobs.complete(tx, digests.get(i), small.get(i).length)).isTrue();
        }
        assertThat(Blobs.read(tx, digest)).hasValue(large);
        assertThat(Blobs.complete(tx, digest, large.length)).isTrue();
        return null;
      });
    }
  }
}
