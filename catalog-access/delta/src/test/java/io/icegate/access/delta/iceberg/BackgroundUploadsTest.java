package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capture's generated files written through {@link BackgroundUploads}: readable at once from
 * memory, in the store once {@code await()} returns, a failed upload reported by its path and
 * never left running, the store's create/overwrite semantics kept. The store is Iceberg's Hadoop
 * FileIO over a temporary directory; a small decorator ({@link Gated}) holds or fails chosen uploads
 * on latches, so each interleaving is made to happen rather than hoped for.
 */
class BackgroundUploadsTest {

  @TempDir Path store;
  Gated io;
  BackgroundUploads uploads;

  @BeforeEach
  void setUp() {
    io = new Gated(new HadoopFileIO(new Configuration()));
  }

  @AfterEach
  void tearDown() {
    io.releaseAll(); // a failed assertion must not leave an upload thread parked on a latch
    if (uploads != null) {
      uploads.close();
    }
  }

  @Test
  void aFileIsReadFromMemoryWhileItsUploadIsHeldAndStoredWhenAwaited() throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("m1.avro");
    byte[] content = bytes(10_000, 1);
    Gate gate = io.hold(path);

    write(uploads.io().newOutputFile(path).create(), content);
    gate.entered.await(); // the upload is running, stopped before the store takes a byte

    InputFile read = uploads.io().newInputFile(path);
    assertThat(read.getLength()).isEqualTo(content.length);
    assertThat(readAll(read)).isEqualTo(content);
    assertThat(readAll(uploads.io().newOutputFile(path).toInputFile())).isEqualTo(content);
    assertThat(Files.exists(file(path))).isFalse();
    assertThat(io.delegate().newInputFile(path).exists()).isFalse();

    CompletableFuture<Void> awaited = CompletableFuture.runAsync(uploads::await);
    // await() cannot return while the upload is held: nothing but the latch below releases it
    assertThat(awaited).isNotDone();
    gate.release.countDown();
    awaited.get(30, TimeUnit.SECONDS);
    assertThat(gate.stored).isTrue();
    assertThat(Files.readAllBytes(file(path))).isEqualTo(content);
    // the upload ran beside the caller, not on it
    assertThat(io.creators.get(path)).isNotSameAs(Thread.currentThread());
  }

  @Test
  void severalUploadsRunSideBySideAndAwaitWaitsForEach() throws Exception {
    uploads = new BackgroundUploads(io);
    String manifest = location("manifest.avro");
    String list = location("snap-1.avro");
    Gate first = io.hold(manifest);
    Gate second = io.hold(list);

    write(uploads.io().newOutputFile(manifest).create(), bytes(100, 2));
    write(uploads.io().newOutputFile(list).create(), bytes(200, 3));
    // both are in the store's hands at once: neither waits for the other to finish
    first.entered.await();
    second.entered.await();

    CompletableFuture<Void> awaited = CompletableFuture.runAsync(uploads::await);
    first.release.countDown();
    assertThat(awaited).isNotDone(); // the second is still held
    second.release.countDown();
    awaited.get(30, TimeUnit.SECONDS);
    assertThat(Files.readAllBytes(file(manifest))).isEqualTo(bytes(100, 2));
    assertThat(Files.readAllBytes(file(list))).isEqualTo(bytes(200, 3));
  }

  @Test
  void aFailedUploadFailsAwaitByItsPathAndCloseWaitsForTheRestWithoutThrowing() throws Exception {
    uploads = new BackgroundUploads(io);
    String failed = location("failed.avro");
    String held = location("held.avro");
    io.fail(failed);
    Gate gate = io.hold(held);

    // closing the stream does not fail: the store has not been asked yet
    write(uploads.io().newOutputFile(failed).create(), bytes(50, 4));
    write(uploads.io().newOutputFile(held).create(), bytes(60, 5));
    gate.entered.await();

    CompletableFuture<Void> awaited = CompletableFuture.runAsync(uploads::await);
    assertThat(awaited).isNotDone(); // one upload failed, the other is still held
    gate.release.countDown();
    assertThatThrownBy(() -> awaited.get(30, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(io.delegate().newOutputFile(failed).location())
        .hasRootCauseMessage("disk full");
    // the failure did not cut the wait short: the other upload finished before await() threw
    assertThat(gate.stored).isTrue();
    assertThat(Files.readAllBytes(file(held))).isEqualTo(bytes(60, 5));

    uploads.close(); // after a failure: quiet
    uploads.close();
  }

  /** Through {@link GeneratedFilesIO}, as a capture writes: the failure blames the warehouse. */
  @Test
  void aFailedUploadThroughTheGeneratedFilesIoIsTheWarehousesFailure() throws Exception {
    uploads = new BackgroundUploads(new GeneratedFilesIO(io));
    String failed = location("failed-generated.avro");
    io.fail(failed);
    write(uploads.io().newOutputFile(failed).create(), bytes(50, 4));
    assertThatThrownBy(uploads::await)
        .isInstanceOf(GeneratedFileException.class)
        .hasMessageContaining(io.delegate().newOutputFile(failed).location())
        .hasMessageEndingWith("to the Catalog's warehouse failed: IOException disk full");
  }

  @Test
  void closeAfterAFailureWaitsForTheUploadsStillRunning() throws Exception {
    uploads = new BackgroundUploads(io);
    String failed = location("failed.avro");
    String held = location("held.avro");
    io.fail(failed);
    Gate gate = io.hold(held);
    write(uploads.io().newOutputFile(failed).create(), bytes(50, 6));
    write(uploads.io().newOutputFile(held).create(), bytes(70, 7));
    gate.entered.await();

    CompletableFuture<Void> closed = CompletableFuture.runAsync(uploads::close);
    assertThat(closed).isNotDone(); // the held upload is still running
    gate.release.countDown();
    closed.get(30, TimeUnit.SECONDS); // no exception although one upload failed
    assertThat(gate.stored).isTrue();
    assertThat(Files.readAllBytes(file(held))).isEqualTo(bytes(70, 7));
  }

  @Test
  void thePositionAfterCloseIsTheFileLength() throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("pos.avro");
    PositionOutputStream out = uploads.io().newOutputFile(path).create();
    out.write(bytes(1234, 8));
    out.write(7);
    assertThat(out.getPos()).isEqualTo(1235);
    out.close();
    assertThat(out.getPos()).isEqualTo(1235);
    uploads.await();
    assertThat(Files.size(file(path))).isEqualTo(1235);
  }

  /**
   * iceberg-core's manifest writer asks the stream's position after closing it for the manifest's
   * length, and may read the manifest back (to merge it) before its upload finished.
   */
  @Test
  void aManifestWrittenThroughIcebergCoreHasItsStoredLengthAndReadsBackBeforeTheUpload()
      throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("real-manifest.avro");
    Gate gate = io.hold(path);
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    PartitionSpec spec = PartitionSpec.unpartitioned();
    DataFile data =
        DataFiles.builder(spec)
            .withPath(location("data.parquet"))
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(3)
            .build();
    ManifestWriter<DataFile> writer =
        ManifestFiles.write(2, spec, uploads.io().newOutputFile(path), 1L);
    try (writer) {
      writer.add(data);
    }
    ManifestFile manifest = writer.toManifestFile();
    gate.entered.await();

    try (ManifestReader<DataFile> read = ManifestFiles.read(manifest, uploads.io())) {
      assertThat(read).extracting(DataFile::location).containsExactly(data.location());
    }
    gate.release.countDown();
    uploads.await();
    assertThat(manifest.length()).isEqualTo(Files.size(file(path)));
    try (ManifestReader<DataFile> read = ManifestFiles.read(manifest, io.delegate())) {
      assertThat(read).extracting(DataFile::recordCount).containsExactly(3L);
    }
  }

  @Test
  void aFileOverTheLimitIsWrittenToTheStoreAsItIsWritten() throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("large.avro");
    byte[] content = bytes(BackgroundUploads.MAX_FILE_BYTES + 10, 9);
    PositionOutputStream out = uploads.io().newOutputFile(path).create();
    out.write(content, 0, BackgroundUploads.MAX_FILE_BYTES);
    assertThat(io.creators).doesNotContainKey(path); // still in memory, within the limit
    out.write(content, BackgroundUploads.MAX_FILE_BYTES, 10);
    // past the limit: the store's stream was opened here, on the writer's thread
    assertThat(io.creators.get(path)).isSameAs(Thread.currentThread());
    assertThat(Files.exists(file(path))).isTrue();
    out.close();
    assertThat(out.getPos()).isEqualTo(content.length);

    // in the store before await(), with every byte; reads go to the store
    assertThat(Files.readAllBytes(file(path))).isEqualTo(content);
    assertThat(readAll(uploads.io().newInputFile(path))).isEqualTo(content);
    uploads.await();
  }

  @Test
  void createOverAnExistingFileFailsWithTheStoresErrorAndLeavesItAsItWas() throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("exists.avro");
    Files.write(file(path), bytes(10, 10));

    write(uploads.io().newOutputFile(path).create(), bytes(20, 11));
    assertThatThrownBy(uploads::await)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(io.delegate().newOutputFile(path).location())
        .hasRootCauseInstanceOf(org.apache.hadoop.fs.FileAlreadyExistsException.class)
        .satisfies(e -> assertThat(causes(e)).anyMatch(AlreadyExistsException.class::isInstance));
    assertThat(Files.readAllBytes(file(path))).isEqualTo(bytes(10, 10));
  }

  @Test
  void createOrOverwriteReplacesAnExistingFile() throws Exception {
    uploads = new BackgroundUploads(io);
    String path = location("replaced.avro");
    Files.write(file(path), bytes(10, 12));
    write(uploads.io().newOutputFile(path).createOrOverwrite(), bytes(30, 13));
    uploads.await();
    assertThat(Files.readAllBytes(file(path))).isEqualTo(bytes(30, 13));

    // the same holds for a file written to the store directly (over the limit)
    String large = location("replaced-large.avro");
    Files.write(file(large), bytes(10, 14));
    byte[] content = bytes(BackgroundUploads.MAX_FILE_BYTES + 1, 15);
    write(uploads.io().newOutputFile(large).createOrOverwrite(), content);
    assertThat(Files.readAllBytes(file(large))).isEqualTo(content);
    uploads.await();
  }

  /** Over the limit the store is asked while the file is written: its refusal comes at once. */
  @Test
  void createOfALargeFileOverAnExistingOneFailsWhileWritten() throws Exception {
    uploads = new BackgroundUploads(io);
    String refused = location("refused-large.avro");
    Files.write(file(refused), bytes(10, 16));
    byte[] content = bytes(BackgroundUploads.MAX_FILE_BYTES + 1, 17);
    assertThatThrownBy(() -> write(uploads.io().newOutputFile(refused).create(), content))
        .isInstanceOf(AlreadyExistsException.class);
    uploads.close(); // the failed capture's end: quiet, nothing left running
    assertThat(Files.readAllBytes(file(refused))).isEqualTo(bytes(10, 16));
  }

  /**
   * A file that grows past the limit after part of it was held, whose store stream cannot be
   * opened: the writer sees the failure, and closing the stream (as writers do in a finally) must
   * not upload the part held so far over the existing file as if it were the whole.
   */
  @Test
  void aFileWhoseStoreStreamCannotOpenIsNotUploadedInPart() throws Exception {
    uploads = new BackgroundUploads(io);
    String target = location("kept.avro");
    Files.write(file(target), bytes(10, 18));
    io.refuse(target);
    byte[] half = bytes(BackgroundUploads.MAX_FILE_BYTES / 2, 19);
    PositionOutputStream out = uploads.io().newOutputFile(target).createOrOverwrite();
    out.write(half);
    byte[] rest = bytes(BackgroundUploads.MAX_FILE_BYTES / 2 + 1, 20);
    assertThatThrownBy(() -> out.write(rest, 0, rest.length))
        .isInstanceOf(UncheckedIOException.class);
    assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class);
    out.close();
    uploads.await();
    assertThat(Files.readAllBytes(file(target))).isEqualTo(bytes(10, 18));
  }

  // --- helpers ---

  String location(String name) {
    return store.resolve(name).toUri().toString();
  }

  static Path file(String location) {
    return Path.of(java.net.URI.create(location));
  }

  static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }

  static void write(PositionOutputStream out, byte[] content) throws IOException {
    try (out) {
      out.write(content);
    }
  }

  static byte[] readAll(InputFile file) throws IOException {
    try (InputStream in = file.newStream()) {
      return in.readAllBytes();
    }
  }

  static List<Throwable> causes(Throwable e) {
    List<Throwable> causes = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      causes.add(t);
    }
    return causes;
  }

  /** One upload's latches: entered once the store is asked, released by the test. */
  static final class Gate {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean stored;
  }

  /**
   * The real store, with chosen uploads held on a {@link Gate} before the store is asked, or
   * failing while the store takes the bytes (as a full disk or a dropped connection does).
   * Records the thread that opened each file's stream.
   */
  static final class Gated extends ForwardingFileIO {
    final Map<String, Gate> gates = new ConcurrentHashMap<>();
    final Map<String, Boolean> failing = new ConcurrentHashMap<>();
    final Map<String, Boolean> refusing = new ConcurrentHashMap<>();
    final Map<String, Thread> creators = new ConcurrentHashMap<>();

    Gated(FileIO store) {
      super(store);
    }

    Gate hold(String path) {
      Gate gate = new Gate();
      gates.put(path, gate);
      return gate;
    }

    void fail(String path) {
      failing.put(path, true);
    }

    /** The store refuses to open the file's stream at all (a refused PUT, a missing bucket). */
    void refuse(String path) {
      refusing.put(path, true);
    }

    void releaseAll() {
      gates.values().forEach(g -> g.release.countDown());
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return openedThrough(super.newOutputFile(path), open -> opened(path, open));
    }

    private PositionOutputStream opened(
        String path, Supplier<PositionOutputStream> open) {
      creators.put(path, Thread.currentThread());
      Gate gate = gates.get(path);
      if (gate != null) {
        gate.entered.countDown();
        try {
          gate.release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new UncheckedIOException(new InterruptedIOException());
        }
      }
      if (refusing.containsKey(path)) {
        throw new UncheckedIOException(new IOException("refused: " + path));
      }
      PositionOutputStream out = open.get();
      boolean fails = failing.containsKey(path);
      return new PositionOutputStream() {
        @Override
        public long getPos() throws IOException {
          return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          if (fails) {
            throw new IOException("disk full");
          }
          out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
          out.close();
          if (gate != null && !fails) {
            gate.stored = true;
          }
        }
      };
    }
  }
}
