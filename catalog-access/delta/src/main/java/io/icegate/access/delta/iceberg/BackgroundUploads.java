package io.icegate.access.delta.iceberg;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * The generated files of one small capture, uploaded in the background: a file written through
 * {@link #io()} is held in memory while it is written and its upload starts when its stream
 * closes, so the capture goes on (iceberg-core writes the manifest list after the new manifest)
 * while the store takes the file, and the uploads of one capture run side by side. {@link #await()}
 * returns once each upload has finished and fails when one failed: the capture calls it before it
 * returns metadata naming the files, so nothing can refer to a file the store does not hold.
 *
 * <p>Until then a file in flight is read from memory: iceberg-core may merge a manifest it was
 * just given. A file over {@link #MAX_FILE_BYTES}, or one that would take the bytes in flight of
 * all captures over {@link #MAX_BYTES}, is written to the store as it is written, as without this
 * class, so memory stays bounded whatever a capture writes.
 */
final class BackgroundUploads implements AutoCloseable {

  /** The largest file held in memory: a manifest of a few thousand entries. */
  static final int MAX_FILE_BYTES = 4 * 1024 * 1024;

  /** The most bytes in flight in this process, over every capture. */
  static final long MAX_BYTES = 32L * 1024 * 1024;

  private static final AtomicLong IN_FLIGHT = new AtomicLong();

  private final FileIO io;
  private final Map<String, byte[]> held = new ConcurrentHashMap<>();
  private final List<Future<?>> uploads = new ArrayList<>();

  /** @param io where the files go; not closed here (its owner closes it) */
  BackgroundUploads(FileIO io) {
    this.io = io;
  }

  /** The FileIO to write (and read back) this capture's generated files with. */
  FileIO io() {
    return new HeldFileIO();
  }

  /**
   * Waits for every upload started so far.
   *
   * @throws UncheckedIOException when one failed (the first failure; the others are waited for)
   */
  void await() {
    UncheckedIOException failure = waitForAll();
    if (failure != null) {
      throw failure;
    }
    if (Thread.currentThread().isInterrupted()) {
      throw new UncheckedIOException(
          new InterruptedIOException("interrupted waiting for a capture's uploads"));
    }
  }

  /** Waits for the uploads still running, without failing: a failed capture leaves none behind. */
  @Override
  public void close() {
    waitForAll();
  }

  /** Waits for each upload (until interrupted); the first failure, or null. */
  private UncheckedIOException waitForAll() {
    UncheckedIOException failure = null;
    for (Future<?> upload : started()) {
      try {
        upload.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure =
              e.getCause() instanceof UncheckedIOException unchecked
                  ? unchecked
                  : new UncheckedIOException(
                      "uploading a capture's file failed", new IOException(e.getCause()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return failure;
      }
    }
    return failure;
  }

  private synchronized List<Future<?>> started() {
    return List.copyOf(uploads);
  }

  private synchronized void started(Future<?> upload) {
    uploads.add(upload);
  }

  /** Starts the upload of a closed file, or writes it now when the budget is spent. */
  private void upload(OutputFile file, boolean overwrite, byte[] content) throws IOException {
    if (IN_FLIGHT.addAndGet(content.length) > MAX_BYTES) {
      IN_FLIGHT.addAndGet(-content.length);
      write(file, overwrite, content);
      return;
    }
    held.put(file.location(), content);
    started(
        CaptureThreads.POOL.submit(
            () -> {
              try {
                write(file, overwrite, content);
              } catch (IOException e) {
                throw new UncheckedIOException("uploading " + file.location() + " failed", e);
              } catch (GeneratedFileException e) {
                throw e; // already names the file and blames the warehouse
              } catch (UncheckedIOException e) {
                throw new UncheckedIOException(
                    "uploading " + file.location() + " failed", e.getCause());
              } catch (RuntimeException e) {
                // FileIOs report refusals unchecked (create() over an existing file): named too
                throw new UncheckedIOException(
                    "uploading " + file.location() + " failed", new IOException(e));
              } finally {
                IN_FLIGHT.addAndGet(-content.length);
              }
              return null;
            }));
  }

  private static void write(OutputFile file, boolean overwrite, byte[] content)
      throws IOException {
    try (PositionOutputStream out = overwrite ? file.createOrOverwrite() : file.create()) {
      out.write(content);
    }
  }

  /** Reads held files from memory and writes through {@link HeldOutputFile}; else the store's. */
  private final class HeldFileIO extends ForwardingFileIO {
    HeldFileIO() {
      super(io);
    }

    @Override
    public InputFile newInputFile(String path) {
      byte[] content = held(path);
      return content != null ? new InMemoryInputFile(path, content) : super.newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      byte[] content = held(path);
      return content != null
          ? new InMemoryInputFile(path, content)
          : super.newInputFile(path, length);
    }

    /**
     * The held bytes of a file, asked for in its own spelling or another: held files are keyed by
     * the store's output spelling ({@code file:/x} for {@code file:///x} on a Hadoop FileIO).
     */
    private byte[] held(String path) {
      byte[] content = held.get(path);
      return content != null || held.isEmpty()
          ? content
          : held.get(delegate().newOutputFile(path).location());
    }

    @Override
    public OutputFile newOutputFile(String path) {
      // the store's own file, made now: its location is how the metadata will name it (a Hadoop
      // FileIO spells file:///x as file:/x), and the key it is held under
      return new HeldOutputFile(super.newOutputFile(path));
    }

    @Override
    public void deleteFile(String path) {
      // iceberg-core deletes a capture's own files only after its commit failed; an upload still
      // running then may store the file again, unreferenced, and the collector removes it later
      held.remove(path);
      super.deleteFile(path);
    }
  }

  private final class HeldOutputFile implements OutputFile {
    private final OutputFile file;

    HeldOutputFile(OutputFile file) {
      this.file = file;
    }

    @Override
    public PositionOutputStream create() {
      return new HeldStream(file, false);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return new HeldStream(file, true);
    }

    @Override
    public String location() {
      return file.location();
    }

    @Override
    public InputFile toInputFile() {
      return new HeldFileIO().newInputFile(file.location());
    }
  }

  /** Bytes in memory until the file grows past {@link #MAX_FILE_BYTES}, then the store's stream. */
  private final class HeldStream extends PositionOutputStream {
    private final OutputFile file;
    private final boolean overwrite;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private PositionOutputStream direct;
    private long length; // once closed: writers ask for the position after closing
    private boolean failed; // a write failed: what is held is not the whole file
    private boolean closed;

    HeldStream(OutputFile file, boolean overwrite) {
      this.file = file;
      this.overwrite = overwrite;
    }

    @Override
    public long getPos() throws IOException {
      if (closed) {
        return length;
      }
      return direct != null ? direct.getPos() : buffer.size();
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (failed) {
        throw new IOException("an earlier write to " + file.location() + " failed");
      }
      try {
        if (direct == null && buffer.size() + (long) len > MAX_FILE_BYTES) {
          direct = overwrite ? file.createOrOverwrite() : file.create();
          buffer.writeTo(direct);
          buffer = null;
        }
        if (direct != null) {
          direct.write(b, off, len);
        } else {
          buffer.write(b, off, len);
        }
      } catch (IOException | RuntimeException e) {
        failed = true; // close() must not upload a part of the file as if it were the whole
        throw e;
      }
    }

    @Override
    public void flush() throws IOException {
      if (direct != null) {
        direct.flush();
      }
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      length = failed ? 0 : getPos();
      closed = true;
      if (failed) {
        if (direct != null) {
          direct.close(); // the store's stream decides what a failed write leaves
        }
        return;
      }
      if (direct != null) {
        direct.close();
      } else {
        upload(file, overwrite, buffer.toByteArray());
        buffer = null;
      }
    }
  }
}
