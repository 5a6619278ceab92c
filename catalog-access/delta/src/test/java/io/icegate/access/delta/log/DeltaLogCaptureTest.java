package io.icegate.access.delta.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.delta.iceberg.GeneratedFileException;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Capturing a Delta table that lives on a real S3 API (s3proxy): the log, and a data file's footer
 * where the log has no statistics, are read through the one client the log is opened with.
 */
class DeltaLogCaptureTest {

  static final String BUCKET = "lake";
  static final StructType ORDERS =
      new StructType().add("id", LongType.LONG, false).add("region", StringType.STRING, true);

  static ObjectStoreFixture store;
  static S3Client s3;
  @TempDir static Path scratch;
  @TempDir Path warehouse;

  @BeforeAll
  static void setUp() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    s3 = store.newClient();
  }

  @AfterAll
  static void tearDown() throws Exception {
    s3.close();
    store.close();
  }

  @Test
  void aTableOnS3IsCapturedAtItsLatestOrAChosenVersion() {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("orders", ORDERS, List.of("region"), Map.of());
    long v1 =
        delta.append(
            "orders", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {1L, "EU"}));
    long v2 =
        delta.appendWithoutStats(
            "orders",
            Map.of("region", Literal.ofString("US")),
            List.of(new Object[] {2L, "US"}, new Object[] {3L, "US"}));
    delta.uploadTable("orders");
    FileIO generated = new HadoopFileIO(new Configuration());
    String generatedLocation = "file:" + warehouse.toAbsolutePath();
    DeltaLog log = new DeltaLog(s3, "s3://" + BUCKET + "/orders");

    TableMetadata latest = log.capture(Optional.empty(), null, "t-1", generatedLocation, generated);
    assertThat(latest.currentSnapshot().summary()).containsEntry(DeltaVersionCapture.DELTA_VERSION, "" + v2);
    List<DataFile> files = new ArrayList<>();
    latest.currentSnapshot().addedDataFiles(generated).forEach(files::add);
    assertThat(files).hasSize(2).allSatisfy(f -> assertThat(f.location()).startsWith("s3://lake/orders/region="));
    // the US file has no statistics in the log: its record count comes from its footer on S3
    assertThat(files)
        .extracting(f -> f.partition().get(0, String.class) + "=" + f.recordCount())
        .containsExactlyInAnyOrder("EU=1", "US=2");
    assertThat(latest.snapshot(latest.currentSnapshot().snapshotId()).manifestListLocation())
        .startsWith(generatedLocation + "/");

    TableMetadata earlier = log.capture(Optional.of(v1), null, "t-1", generatedLocation, generated);
    assertThat(earlier.currentSnapshot().snapshotId()).isEqualTo(DeltaVersionCapture.snapshotId("t-1", v1));
    assertThat(earlier.currentSnapshot().summary()).containsEntry("total-data-files", "1");
  }

  /**
   * A generated file the Catalog's warehouse does not take is the warehouse's failure: found against
   * a real Unity server, where the warehouse store refused the manifest PUT and the reconcile
   * report said "reading the Delta log failed", pointing the administrator at the upstream. Here
   * the warehouse is a local directory whose parent is a file, so no manifest can be created.
   */
  @Test
  void aWarehouseThatTakesNoGeneratedFileIsBlamedNotTheLog() throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("refused", ORDERS, List.of("region"), Map.of());
    delta.append(
        "refused", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {1L, "EU"}));
    delta.uploadTable("refused");
    Path notADirectory = java.nio.file.Files.writeString(warehouse.resolve("a-file"), "x");
    String generatedLocation = "file:" + notADirectory.toAbsolutePath() + "/generated";
    DeltaLog log = new DeltaLog(s3, "s3://" + BUCKET + "/refused");

    assertThatThrownBy(
            () -> log.capture(Optional.empty(), null, "t-refused", generatedLocation,
                new HadoopFileIO(new Configuration())))
        .isInstanceOf(GeneratedFileException.class)
        .hasMessageStartingWith("writing generated file " + generatedLocation + "/")
        .hasMessageContaining("to the Catalog's warehouse failed")
        .hasMessageNotContaining("Delta log");
  }

  /**
   * A table whose keys hold characters a URI escapes (a space, {@code #}, {@code %}) in its root and
   * in a partition value: the catalog's location given as a URI or as the raw key, the log read,
   * a footer read where the log has no statistics, and the data files named by their real keys;
   * the next commit is captured from the commits alone.
   */
  @Test
  void keysWithCharactersAUriEscapesAreReadAsTheStoreHoldsThem() throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("odd", ORDERS, List.of("region"), Map.of());
    delta.append("odd", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {1L, "EU"}));
    delta.appendWithoutStats(
        "odd", Map.of("region", Literal.ofString("a b/c%")), List.<Object[]>of(new Object[] {2L, "a b/c%"}));
    String root = "odd chars/my table#1";
    copy(scratch.resolve("odd"), root);
    FileIO generated = new HadoopFileIO(new Configuration());
    String generatedLocation = "file:" + warehouse.toAbsolutePath();

    for (String location :
        List.of("s3://lake/odd%20chars/my%20table%231", "s3://lake/odd chars/my table#1")) {
      DeltaVersionCapture.Captured first =
          new DeltaLog(s3, location)
              .captureChanges(Optional.empty(), null, Optional.empty(), "t-odd", generatedLocation, generated);
      List<DataFile> files = new ArrayList<>();
      first.metadata().currentSnapshot().addedDataFiles(generated).forEach(files::add);
      assertThat(files)
          .extracting(f -> f.partition().get(0, String.class) + "=" + f.recordCount())
          .containsExactlyInAnyOrder("EU=1", "a b/c%=1");
      for (DataFile file : files) {
        // the location is the object's key as written, which S3FileIO requests as it is
        assertThat(file.location()).startsWith("s3://lake/" + root + "/region=");
        String key = file.location().substring("s3://lake/".length());
        assertThat(s3.headObject(b -> b.bucket(BUCKET).key(key)).contentLength()).isPositive();
      }
    }

    DeltaLog log = new DeltaLog(s3, "s3://lake/odd%20chars/my%20table%231");
    DeltaVersionCapture.Captured first =
        log.captureChanges(Optional.empty(), null, Optional.empty(), "t-odd", generatedLocation, generated);
    delta.append("odd", Map.of("region", Literal.ofString("a b/c%")), List.<Object[]>of(new Object[] {3L, "a b/c%"}));
    copy(scratch.resolve("odd"), root);
    DeltaVersionCapture.Captured next =
        log.captureChanges(
            Optional.empty(), first.metadata(), Optional.of(first.deltaState()), "t-odd",
            generatedLocation, generated);
    assertThat(next.incremental()).isTrue();
    // (Kernel's writer names the partition directory by its URI form, so the key has %20 in it)
    assertThat(next.addedDataFiles()).singleElement()
        .satisfies(f -> assertThat(f.location()).startsWith("s3://lake/" + root + "/region="))
        .satisfies(
            f -> assertThat(
                    s3.headObject(b -> b.bucket(BUCKET).key(f.location().substring("s3://lake/".length())))
                        .contentLength())
                .isPositive());
  }

  /** Copies the files of a table written on local disk under {@code prefix}, new ones only. */
  private static void copy(Path table, String prefix) throws Exception {
    try (var files = java.nio.file.Files.walk(table)) {
      for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
        String name = file.getFileName().toString();
        String key = prefix + "/" + table.relativize(file).toString().replace('\\', '/');
        if (name.startsWith(".") || exists(key)) {
          continue;
        }
        s3.putObject(b -> b.bucket(BUCKET).key(key), software.amazon.awssdk.core.sync.RequestBody.fromFile(file));
      }
    }
  }

  private static boolean exists(String key) {
    try {
      s3.headObject(b -> b.bucket(BUCKET).key(key));
      return true;
    } catch (software.amazon.awssdk.services.s3.model.NoSuchKeyException e) {
      return false;
    }
  }
}
