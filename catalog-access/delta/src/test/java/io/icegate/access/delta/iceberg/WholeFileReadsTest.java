package io.icegate.access.delta.iceberg;

import static io.icegate.access.delta.iceberg.CountedEngine.commitName;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import io.icegate.access.delta.iceberg.WholeFileReads.WholeFile;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the store reads a small file whole ({@link WholeFileReads}), the one commit after a
 * captured version is read in that one request and Kernel parses it from memory ({@link
 * FetchedCommitJson}): its JSON reader never opens the file, and what it reads is exactly what
 * Kernel's listing and its own reader give. A commit over the size read whole, or a store without
 * whole reads, is read by Kernel as before. The store here is local disk read with {@code
 * java.nio} (the S3 implementation is tested against s3proxy in {@code KernelS3FileSystemTest});
 * Kernel's engine is its real default one, with its JSON file reads recorded.
 */
class WholeFileReadsTest extends LocalLakeTest {

  CountedEngine counted;
  List<String> jsonReads;
  List<String> wholeReads;
  long maxBytes;
  Engine engine;

  @BeforeEach
  void setUp() {
    counted = new CountedEngine(delta.engine());
    jsonReads = new CopyOnWriteArrayList<>();
    wholeReads = new CopyOnWriteArrayList<>();
    maxBytes = NextCommitProbe.INLINE_COMMIT_BYTES;
    engine = WholeFileReads.engine(recordingJsonReads(counted), this::readWhole);
  }

  @Test
  void theNextCommitIsReadOnceAndParsedFromMemoryAsKernelReadsIt() {
    long v = table("one", 2);
    long next = lakes.append("one", "APAC", 10);
    String path = delta.location("one");

    CommitChanges probed = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(wholeReads).extracting(NextCommitProbeTest::name).containsExactly(commitName(next));
    assertThat(jsonReads).noneMatch(p -> p.endsWith(commitName(next)));
    assertThat(counted.logListings()).isZero();
    // the next commit's own existence check is the whole read: only the other two were stated
    assertThat(counted.checked())
        .extracting(NextCommitProbeTest::name)
        .containsExactlyInAnyOrder(commitName(v), commitName(v + 2));
    assertThat(probed.endCommit().orElseThrow().getPath()).endsWith(commitName(next));

    CommitChanges listed = CommitChanges.read(counted, path, v, Optional.of(next)).orElseThrow();
    NextCommitProbeTest.assertSame(probed, listed);
  }

  /** A commit of more lines than one batch: the batches split where Kernel's reader splits them. */
  @Test
  void aCommitOfManyActionsIsParsedInBatchesAsKernelReadsIt() {
    long v = table("many", 1);
    int files = FetchedCommitJson.BATCH_LINES + 40;
    long next =
        delta.appendCopies(
            "many",
            Map.of("region", Literal.ofString("EU")),
            List.<Object[]>of(new Object[] {1000L, "m", DeltaVersionCaptureTest.TS, "EU"}),
            files);
    String path = delta.location("many");

    CommitChanges probed = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(jsonReads).noneMatch(p -> p.endsWith(commitName(next)));
    assertThat(probed.changes()).hasSize(files);
    NextCommitProbeTest.assertSame(
        probed, CommitChanges.read(counted, path, v, Optional.of(next)).orElseThrow());
  }

  /** A commit larger than the size read whole is stated, and Kernel reads it from the store. */
  @Test
  void aCommitOverTheSizeReadWholeIsReadByKernel() {
    long v = table("large", 1);
    long next = lakes.append("large", "US", 7);
    maxBytes = 10;
    String path = delta.location("large");

    CommitChanges probed = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(jsonReads).anyMatch(p -> p.endsWith(commitName(next)));
    assertThat(counted.logListings()).isZero();
    NextCommitProbeTest.assertSame(
        probed, CommitChanges.read(counted, path, v, Optional.of(next)).orElseThrow());
  }

  /** A capture through whole reads leaves what a full capture of the version leaves. */
  @Test
  void anIncrementalCaptureThroughWholeReadsEqualsAFullCapture() {
    table("capture", 2);
    Captured first = captureByPath(delta.engine(), "capture", null);
    lakes.append("capture", "APAC", 10);

    Captured second = captureByPath(engine, "capture", first);
    assertThat(second.incremental()).isTrue();
    assertThat(counted.logListings()).isZero();
    Captured full = lakes.capture("capture", null, "capture-full");
    assertThat(CapturedTables.rows(io, second.metadata()))
        .isEqualTo(CapturedTables.rows(io, full.metadata()));
    assertThat(second.deltaState().toJson()).isEqualTo(full.deltaState().toJson());
  }

  // --- helpers ---

  /** Local disk's whole read, recorded, under the size this test sets. */
  Optional<WholeFile> readWhole(String path, long max) throws IOException {
    wholeReads.add(path);
    return readLocalWhole(path, Math.min(max, maxBytes));
  }

  /** {@code engine}, recording the files its JSON reader is asked to read. */
  Engine recordingJsonReads(Engine engine) {
    JsonHandler json = engine.getJsonHandler();
    return new ForwardingEngine(engine, engine.getFileSystemClient()) {
      @Override
      public JsonHandler getJsonHandler() {
        return new JsonHandler() {
          @Override
          public ColumnarBatch parseJson(
              io.delta.kernel.data.ColumnVector strings,
              io.delta.kernel.types.StructType schema,
              Optional<io.delta.kernel.data.ColumnVector> selection) {
            return json.parseJson(strings, schema, selection);
          }

          @Override
          public CloseableIterator<ColumnarBatch> readJsonFiles(
              CloseableIterator<FileStatus> files,
              io.delta.kernel.types.StructType schema,
              Optional<io.delta.kernel.expressions.Predicate> predicate)
              throws IOException {
            return json.readJsonFiles(
                files.map(
                    f -> {
                      jsonReads.add(f.getPath());
                      return f;
                    }),
                schema,
                predicate);
          }

          @Override
          public void writeJsonFileAtomically(
              String filePath,
              CloseableIterator<io.delta.kernel.data.Row> data,
              boolean overwrite)
              throws IOException {
            json.writeJsonFileAtomically(filePath, data, overwrite);
          }
        };
      }
    };
  }
}
