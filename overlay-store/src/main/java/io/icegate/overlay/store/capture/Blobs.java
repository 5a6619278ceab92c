package io.icegate.overlay.store.capture;

import com.apple.foundationdb.Range;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Content-addressed storage of large immutable payloads (DESIGN.md "Storage": captured Iceberg
 * metadata): {@code (sha-256, chunk index) -> bytes} in {@link KeySubspace#BLOBS}, with a marker
 * in {@link KeySubspace#BLOB_MARKERS} recording when the blob was last written.
 *
 * <p>A blob is written in its own transactions, before the pointer transaction that names it: the
 * marker with the first chunks, then the remaining chunks in order, so a marker plus the last
 * chunk proves the whole blob is there ({@link #complete}). Thread-safe.
 */
public final class Blobs {
  /** Bytes per chunk; below the store's 100 kB value limit with room to spare. */
  public static final int CHUNK_BYTES = 64 * 1024;

  /**
   * Payload bytes per write transaction: 4 MB (64 full chunks), well below the 10 MB transaction
   * limit. Counted in bytes, not chunks, so a batch of small blobs (one short chunk each) shares
   * one transaction.
   */
  static final int BYTES_PER_TRANSACTION = 64 * CHUNK_BYTES;

  /**
   * The marker of a blob.
   *
   * @param writtenAtMillis epoch milliseconds of the blob's latest write
   * @param size payload length in bytes
   * @param chunks number of chunks
   */
  public record Marker(long writtenAtMillis, long size, int chunks) {}

  private final KvStore store;
  private final Clock clock;

  public Blobs(KvStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Stores {@code payload} under its SHA-256, in as many transactions as it needs (each
   * idempotent: the same bytes land under the same keys).
   *
   * <p>The marker is re-written even when the blob is already present: its fresh write time is
   * what keeps the chunk collector from deleting the blob between now and the pointer transaction
   * that will name it (a GC fence).
   *
   * @return the digest, lowercase hex
   */
  public String write(byte[] payload) {
    return writeAll(List.of(payload)).get(0);
  }

  /**
   * Stores many payloads as {@link #write} does, packing them into as few transactions as the
   * {@value #BYTES_PER_TRANSACTION}-byte cap allows: several small blobs share a transaction, a
   * large one spans several. Within a blob the marker goes with its first chunk and later chunks
   * follow in order, so {@link #complete} holds exactly when the whole blob is there.
   *
   * @return the digests, lowercase hex, in the order of {@code payloads}
   */
  public List<String> writeAll(List<byte[]> payloads) {
    List<String> digests = new ArrayList<>(payloads.size());
    List<Write> pending = new ArrayList<>();
    long pendingBytes = 0;
    long now = clock.millis();
    for (byte[] payload : payloads) {
      String digest = digest(payload);
      digests.add(digest);
      int chunks = (payload.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
      Marker marker = new Marker(now, payload.length, chunks);
      if (chunks == 0) {
        pending.add(new Write(digest, marker, payload, -1));
      }
      for (int index = 0; index < chunks; index++) {
        int length = Math.min(CHUNK_BYTES, payload.length - index * CHUNK_BYTES);
        if (!pending.isEmpty() && pendingBytes + length > BYTES_PER_TRANSACTION) {
          commit(pending);
          pending = new ArrayList<>();
          pendingBytes = 0;
        }
        pending.add(new Write(digest, index == 0 ? marker : null, payload, index));
        pendingBytes += length;
      }
    }
    if (!pending.isEmpty()) {
      commit(pending);
    }
    return digests;
  }

  /**
   * Stores {@code payload} under its SHA-256 {@code digest} (lowercase hex, {@link #digest})
   * inside the caller's transaction, marker and every chunk, for a caller that names it in the
   * same transaction (capture at publication: no window in which the chunk collector could see
   * the blob unreferenced).
   *
   * @throws IllegalArgumentException when {@code payload} is over {@value #BYTES_PER_TRANSACTION}
   *     bytes (use {@link #writeAll}, which spreads it over several transactions)
   */
  void write(Transaction tx, byte[] payload, String digest) {
    if (payload.length > BYTES_PER_TRANSACTION) {
      throw new IllegalArgumentException("a blob of " + payload.length + " bytes does not fit "
          + "one transaction (" + BYTES_PER_TRANSACTION + " bytes at most)");
    }
    int chunks = (payload.length + CHUNK_BYTES - 1) / CHUNK_BYTES;
    Marker marker = new Marker(clock.millis(), payload.length, chunks);
    put(tx, new Write(digest, marker, payload, chunks == 0 ? -1 : 0));
    for (int index = 1; index < chunks; index++) {
      put(tx, new Write(digest, null, payload, index));
    }
  }

  /** A marker and/or one chunk of a blob; {@code index} -1: no chunk (an empty blob). */
  private record Write(String digest, Marker marker, byte[] payload, int index) {}

  private void commit(List<Write> writes) {
    store.run(Idempotence.IDEMPOTENT, tx -> {
      for (Write w : writes) {
        put(tx, w);
      }
      return null;
    });
  }

  private static void put(Transaction tx, Write w) {
    if (w.marker() != null) {
      tx.set(KeyLayout.blobMarker(w.digest()), json(w.marker()));
    }
    if (w.index() >= 0) {
      int begin = w.index() * CHUNK_BYTES;
      int end = Math.min(w.payload().length, begin + CHUNK_BYTES);
      tx.set(KeyLayout.blobChunk(w.digest(), w.index()),
          Arrays.copyOfRange(w.payload(), begin, end));
    }
  }

  /** Lowercase hex SHA-256 of {@code payload}: the blob's name. */
  public static String digest(byte[] payload) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The marker of blob {@code digest}, if it exists. */
  public static Optional<Marker> marker(ReadTransaction tx, String digest) {
    byte[] value = tx.get(KeyLayout.blobMarker(digest));
    return value == null ? Optional.empty() : Optional.of(marker(value));
  }

  /**
   * Whether blob {@code digest} is fully written with {@code size} bytes: its marker and its last
   * chunk exist (chunks are written in order and collected all at once). Reads them, so a pointer
   * transaction calling this conflicts with a collector deleting the blob.
   */
  public static boolean complete(ReadTransaction tx, String digest, long size) {
    Optional<Marker> marker = marker(tx, digest);
    if (marker.isEmpty() || marker.get().size() != size) {
      return false;
    }
    int chunks = marker.get().chunks();
    return chunks == 0
        || tx.get(KeyLayout.blobChunk(digest, chunks - 1)) != null;
  }

  /**
   * Blob {@code digest} reassembled, or empty when it is absent or incomplete (a missing chunk or
   * a length other than its marker's).
   */
  public static Optional<byte[]> read(ReadTransaction tx, String digest) {
    Optional<Marker> marker = marker(tx, digest);
    if (marker.isEmpty()) {
      return Optional.empty();
    }
    Range all = KeyLayout.blobChunks(digest).range();
    List<KeyValue> chunks = tx.getRange(all.begin, all.end);
    if (chunks.size() != marker.get().chunks()) {
      return Optional.empty();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) marker.get().size());
    for (KeyValue chunk : chunks) {
      out.writeBytes(chunk.value());
    }
    byte[] bytes = out.toByteArray();
    return bytes.length == marker.get().size() ? Optional.of(bytes) : Optional.empty();
  }

  static Marker marker(byte[] json) {
    try {
      return ModelJson.mapper().readValue(json, Marker.class);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable blob marker", e);
    }
  }

  private static byte[] json(Marker marker) {
    try {
      return ModelJson.mapper().writeValueAsBytes(marker);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a blob marker always serializes", e);
    }
  }
}
