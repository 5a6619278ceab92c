package io.icegate.access.delta.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.expressions.Literal;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** DeltaLog on s3proxy with odd locations, remembered heads, a large commit. */
class DeltaLogLocationsTest {

  static final String BUCKET = "lake";
  static ObjectStoreFixture store;
  static S3Client s3;
  @TempDir Path scratch;
  @TempDir Path warehouse;

  @BeforeAll
  static void setUp() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    store.createBucket("rootb");
    store.createBucket("rootc");
    s3 = store.newClient();
  }

  @AfterAll
  static void tearDown() throws Exception {
    s3.close();
    store.close();
  }

  /**
   * A table at {@code bucket/prefix} (prefix empty: the bucket root), read at {@code location}.
   * The last case fails: a raw {@code ?} (a key as written, not a URI) is taken as a URI's query
   * and dropped by DeltaLog.kernelPath, so the log of another table ({@code q2}) is read.
   */
  @ParameterizedTest
  @CsvSource({
    "rootb,,s3://rootb",
    "rootc,,s3://rootc/",
    "lake,t1,s3://lake/t1/",
    "lake,a%2,s3://lake/a%2",
    "lake,b%2,s3://lake/b%252",
    "lake,x%2Fy,s3://lake/x%252Fy",
    "lake,q?r,s3://lake/q%3Fr",
    "lake,q2?r,s3://lake/q2?r",
  })
  void aTableIsReadAtItsLocation(String bucket, String prefix, String location) throws Exception {
    String key = prefix == null ? "" : prefix;
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("t", DeltaLogCaptureTest.ORDERS, List.of("region"), Map.of());
    delta.append("t", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {1L, "EU"}));
    copy(scratch.resolve("t"), bucket, key);
    DeltaLog log = new DeltaLog(s3, location);

    assertThat(log.head().version()).isEqualTo(1);
    assertThat(log.readNewestCommit()).endsWith("00000000000000000001.json");
    FileIO generated = new HadoopFileIO(new Configuration());
    DeltaVersionCapture.Captured first =
        log.captureChanges(Optional.empty(), null, Optional.empty(), "t-" + key.hashCode(),
            "file:" + warehouse.toAbsolutePath(), generated);
    for (DataFile f : first.metadata().currentSnapshot().addedDataFiles(generated)) {
      String fileKey = f.location().substring(("s3://" + bucket + "/").length());
      assertThat(s3.headObject(b -> b.bucket(bucket).key(fileKey)).contentLength()).isPositive();
    }
    delta.append("t", Map.of("region", Literal.ofString("US")), List.<Object[]>of(new Object[] {2L, "US"}));
    copy(scratch.resolve("t"), bucket, key);
    DeltaVersionCapture.Captured next =
        log.captureChanges(Optional.empty(), first.metadata(), Optional.of(first.deltaState()),
            "t-" + key.hashCode(), "file:" + warehouse.toAbsolutePath(), generated);
    assertThat(next.incremental()).isTrue();
    assertThat(next.metadata().currentSnapshot().summary()).containsEntry("total-data-files", "2");
  }

  /** One DeltaHeads, the table named as a URI and as the raw key: both follow the log. */
  @Test
  void aHeadRememberedUnderTwoSpellingsFollowsTheLog() throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("h", DeltaLogCaptureTest.ORDERS, List.of("region"), Map.of());
    copy(scratch.resolve("h"), BUCKET, "my h");
    DeltaHeads heads = new DeltaHeads();
    DeltaLog uri = new DeltaLog(s3, "s3://lake/my%20h");
    DeltaLog raw = new DeltaLog(s3, "s3://lake/my h");
    assertThat(uri.head(heads)).isEqualTo(raw.head());
    assertThat(heads.size()).isEqualTo(1);
    for (int i = 1; i <= 3; i++) {
      delta.append("h", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {(long) i, "EU"}));
      copy(scratch.resolve("h"), BUCKET, "my h");
      DeltaLog.Head full = raw.head();
      assertThat(full.version()).isEqualTo(i);
      assertThat(uri.head(heads)).isEqualTo(full);
      assertThat(raw.head(heads)).isEqualTo(full);
    }
  }

  /** A next commit over the 1 MiB read whole: stated, read by Kernel, the same capture as a full one. */
  @Test
  void aNextCommitOverOneMebibyteIsCapturedAsAFullCapture() throws Exception {
    KernelTableWriter delta = new KernelTableWriter(scratch, s3, BUCKET);
    delta.create("big", DeltaLogCaptureTest.ORDERS, List.of("region"), Map.of());
    delta.append("big", Map.of("region", Literal.ofString("EU")), List.<Object[]>of(new Object[] {1L, "EU"}));
    copy(scratch.resolve("big"), BUCKET, "big");
    DeltaLog log = new DeltaLog(s3, "s3://lake/big");
    FileIO generated = new HadoopFileIO(new Configuration());
    String gen = "file:" + warehouse.toAbsolutePath();
    DeltaVersionCapture.Captured first =
        log.captureChanges(Optional.empty(), null, Optional.empty(), "t-big", gen, generated);

    delta.append("big", Map.of("region", Literal.ofString("US")), List.<Object[]>of(new Object[] {2L, "US"}));
    Path commit = scratch.resolve("big/_delta_log/00000000000000000002.json");
    String padded =
        Files.readString(commit)
            + "{\"txn\":{\"appId\":\"" + "x".repeat((1 << 20) + 100) + "\",\"version\":1}}\n";
    Files.writeString(commit, padded, StandardCharsets.UTF_8);
    assertThat(Files.size(commit)).isGreaterThan(1 << 20);
    copy(scratch.resolve("big"), BUCKET, "big");

    DeltaVersionCapture.Captured next =
        log.captureChanges(Optional.empty(), first.metadata(), Optional.of(first.deltaState()), "t-big", gen, generated);
    DeltaVersionCapture.Captured full =
        log.captureChanges(Optional.empty(), null, Optional.empty(), "t-big2", gen, generated);
    assertThat(next.incremental()).isTrue();
    assertThat(files(next.metadata(), generated)).isEqualTo(files(full.metadata(), generated));
    assertThat(new DeltaLog(s3, "s3://lake/big").head(new DeltaHeads()).version()).isEqualTo(2);
  }

  static TreeSet<String> files(TableMetadata m, FileIO io) {
    TreeSet<String> out = new TreeSet<>();
    for (var manifest : m.currentSnapshot().dataManifests(io)) {
      for (DataFile f : org.apache.iceberg.ManifestFiles.read(manifest, io)) {
        out.add(f.location());
      }
    }
    return out;
  }

  /** Copies a local table's files under {@code prefix} of {@code bucket}, new ones only. */
  static void copy(Path table, String bucket, String prefix) throws Exception {
    try (var files = Files.walk(table)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String name = file.getFileName().toString();
        String rel = table.relativize(file).toString().replace('\\', '/');
        String key = prefix.isEmpty() ? rel : prefix + "/" + rel;
        if (name.startsWith(".") || exists(bucket, key)) {
          continue;
        }
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
      }
    }
  }

  static boolean exists(String bucket, String key) {
    try {
      s3.headObject(b -> b.bucket(bucket).key(key));
      return true;
    } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
      return false;
    }
  }
}
