package io.icegate.access.delta.iceberg;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * The manifest lists this process's captures wrote, kept in memory (least recently used first
 * out, bounded in bytes) and served to the captures that read them back. Every capture reads a
 * manifest list it or the capture before it wrote: iceberg-core's snapshot producer reads the
 * previous snapshot's list to build the new one, and reads the new one again after its commit to
 * find its own uncommitted files. On an object store each read is two requests (the length, then
 * the object), four of the eight an incremental capture made before this cache.
 *
 * <p>Serving a cached copy is always right: a manifest list is written once under a name no other
 * file takes (Iceberg names it by snapshot id, attempt and a random commit id) and never
 * rewritten, and only the files a capture itself wrote are kept. A list another gateway wrote, or
 * one evicted, is read from the store as before, so several gateways over one store each keep
 * their own and need no coordination. A list deleted through a wrapped FileIO leaves the cache.
 */
public final class ManifestListCache {

  /** What the gateway keeps: lists of tables with thousands of manifests are a few hundred KiB. */
  public static final long DEFAULT_MAX_BYTES = 16L * 1024 * 1024;

  private final long maxBytes;
  private final long maxFileBytes;
  private final Map<String, byte[]> lists = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  /** A cache of at most {@link #DEFAULT_MAX_BYTES}. */
  public ManifestListCache() {
    this(DEFAULT_MAX_BYTES);
  }

  /**
   * @param maxBytes the most bytes kept; a single list over an eighth of it is never kept (one
   *     large table must not push every other table's lists out)
   */
  public ManifestListCache(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.maxFileBytes = Math.max(1, maxBytes / 8);
  }

  /**
   * {@code io} for one capture: manifest lists written through it are kept here once their
   * stream closed without error, and reads of a kept list are served from here. Everything else
   * goes to {@code io} unchanged. Closing the result does not close {@code io} (its owner does).
   */
  public FileIO around(FileIO io) {
    return new CachingFileIO(io);
  }

  /** The bytes kept now. */
  public synchronized long bytes() {
    return bytes;
  }

  /** Whether the list at {@code location} is kept now. */
  public synchronized boolean holds(String location) {
    return lists.containsKey(location);
  }

  /** Iceberg's name for a manifest list: {@code snap-<snapshot id>-<attempt>-<commit id>.avro}. */
  static boolean isManifestList(String location) {
    String name = location.substring(location.lastIndexOf('/') + 1);
    return name.startsWith("snap-") && name.endsWith(".avro");
  }

  private synchronized byte[] get(String location) {
    return lists.get(location);
  }

  private synchronized void put(String location, byte[] content) {
    byte[] before = lists.put(location, content);
    bytes += content.length - (before == null ? 0 : before.length);
    Iterator<byte[]> oldest = lists.values().iterator();
    while (bytes > maxBytes && oldest.hasNext()) {
      bytes -= oldest.next().length;
      oldest.remove();
    }
  }

  private synchronized void remove(String location) {
    byte[] before = lists.remove(location);
    if (before != null) {
      bytes -= before.length;
    }
  }

  /** The FileIO one capture writes and reads generated files with. */
  private final class CachingFileIO extends ForwardingFileIO {
    CachingFileIO(FileIO io) {
      super(io);
    }

    @Override
    public InputFile newInputFile(String path) {
      byte[] kept = get(path);
      return kept != null ? new InMemoryInputFile(path, kept) : super.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      byte[] kept = get(path);
      return kept != null && kept.length == length
          ? new InMemoryInputFile(path, kept)
          : super.newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      OutputFile file = super.newOutputFile(path);
      return isManifestList(path)
          ? openedThrough(file, opened -> new KeptStream(opened.get(), file.location()))
          : file;
    }

    @Override
    public void deleteFile(String path) {
      remove(path);
      super.deleteFile(path);
    }
  }

  /** A manifest list being written: its bytes are copied as they go, kept when it closed. */
  private final class KeptStream extends PositionOutputStream {
    private final PositionOutputStream out;
    private final String location;
    private ByteArrayOutputStream copy = new ByteArrayOutputStream();
    private boolean closed;

    KeptStream(PositionOutputStream out, String location) {
      this.out = out;
      this.location = location;
    }

    @Override
    public long getPos() throws IOException {
      return out.getPos();
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      if (copy != null) {
        copy.write(b);
        bounded();
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      if (copy != null) {
        copy.write(b, off, len);
        bounded();
      }
    }

    /** A list too large to keep is not copied further. */
    private void bounded() {
      if (copy.size() > maxFileBytes) {
        copy = null;
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      out.close(); // a failed close keeps nothing: the store may not hold what was written
      if (copy != null) {
        put(location, copy.toByteArray());
        copy = null;
      }
    }
  }
}
