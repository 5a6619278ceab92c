package io.icegate.overlay.store.capture;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Garbage collection of captured blobs (issue 10, "Cleanup"): deletes a blob's chunks and marker
 * when no capture pointer names it (as its metadata or its state) and it was last written longer
 * ago than the grace period.
 *
 * <p>The grace period is what spares a blob written for a publication still in flight: its
 * pointer transaction has not committed yet, so nothing references it, but its marker is fresh.
 * Each blob is decided in one transaction that reads its marker, its reference hints and the
 * pointers they lead to; a pointer transaction naming the blob reads the marker and writes a
 * hint, so the two conflict and whichever commits second sees the other (a pointer never names a
 * deleted blob; a blob never loses a pointer). Hints whose pointer no longer names the blob (the
 * Table was deleted with its account, or re-captured) are cleared on the way.
 */
public final class CaptureChunkCollector {
  /** Markers read per listing transaction. */
  private static final int PAGE = 200;

  private final KvStore store;
  private final Clock clock;
  private final Duration grace;
  private final CapturePointers pointers = new CapturePointers();

  /**
   * @param grace how long after its latest write a blob is spared (far above the 5 s transaction
   *     limit; an hour in production)
   */
  public CaptureChunkCollector(KvStore store, Clock clock, Duration grace) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.grace = Objects.requireNonNull(grace, "grace");
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative");
    }
  }

  /**
   * One pass over every blob.
   *
   * @return how many blobs were deleted
   */
  public int collect() {
    int collected = 0;
    byte[] from = KeySubspace.BLOB_MARKERS.range().begin;
    byte[] end = KeySubspace.BLOB_MARKERS.range().end;
    while (true) {
      byte[] begin = from;
      List<KeyValue> page = store.read(tx -> tx.snapshot()
          .getRange(begin, end, PAGE, ReadTransaction.Direction.FORWARD));
      List<String> digests = new ArrayList<>();
      for (KeyValue kv : page) {
        Tuple key = KeySubspace.BLOB_MARKERS.unpack(kv.key());
        if (key.size() == 1) {
          digests.add(key.getString(0));
        }
      }
      for (String digest : digests) {
        collected += collectOne(digest) ? 1 : 0;
      }
      if (page.size() < PAGE) {
        return collected;
      }
      byte[] last = page.get(page.size() - 1).key();
      from = Arrays.copyOf(last, last.length + 1); // the first key after the last one read
    }
  }

  /** Deletes blob {@code digest} when unreferenced and past its grace; whether it did. */
  private boolean collectOne(String digest) {
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<Blobs.Marker> marker = Blobs.marker(tx, digest);
      boolean live = false;
      Range hints = KeyLayout.blobReferences(digest).range();
      for (KeyValue kv : tx.getRange(hints.begin, hints.end)) {
        Tuple key = KeyLayout.blobReferences(digest).unpack(kv.key());
        Optional<CapturePointer> pointer = pointers.get(tx, key.getString(0), key.getString(1));
        if (pointer.isPresent() && pointer.get().blobDigests().contains(digest)) {
          live = true;
        } else {
          tx.clear(kv.key());
        }
      }
      if (marker.isEmpty() || live
          || clock.millis() - marker.get().writtenAtMillis() < grace.toMillis()) {
        return false;
      }
      tx.clear(KeyLayout.blobMarker(digest));
      Range chunks = KeyLayout.blobChunks(digest).range();
      tx.clearRange(chunks.begin, chunks.end);
      return true;
    });
  }
}
