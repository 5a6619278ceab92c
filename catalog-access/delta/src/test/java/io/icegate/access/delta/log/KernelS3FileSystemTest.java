package io.icegate.access.delta.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.defaults.engine.fileio.SeekableInputStream;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Kernel's {@code FileIO} contract over a real S3 API (s3proxy): listing from a name, seeking,
 * refusals.
 */
class KernelS3FileSystemTest {

  static ObjectStoreFixture store;
  static S3Client s3;
  static KernelS3FileSystem files;
  static final byte[] BLOB = new byte[600_000];

  @BeforeAll
  static void setUp() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket("store");
    s3 = store.newClient();
    files = new KernelS3FileSystem(s3);
    for (String name :
        List.of(
            "00000000000000000009.json",
            "00000000000000000010.checkpoint.parquet",
            "00000000000000000010.json",
            "00000000000000000011.json",
            "_last_checkpoint",
            "_sidecars/x.parquet")) {
      put("t/_delta_log/" + name, "{}");
    }
    put("t/_delta_logx/00000000000000000010.json", "{}"); // a sibling sharing the prefix
    for (int i = 0; i < BLOB.length; i++) {
      BLOB[i] = (byte) (i * 31 + i / 7);
    }
    s3.putObject(b -> b.bucket("store").key("blob"), RequestBody.fromBytes(BLOB));
  }

  static void put(String key, String body) {
    s3.putObject(b -> b.bucket("store").key(key), RequestBody.fromString(body));
  }

  @AfterAll
  static void tearDown() throws Exception {
    s3.close();
    store.close();
  }

  static List<String> names(CloseableIterator<FileStatus> it) throws IOException {
    List<String> names = new ArrayList<>();
    try (it) {
      it.forEachRemaining(f -> names.add(f.getPath().substring(f.getPath().lastIndexOf('/') + 1)));
    }
    return names;
  }

  @Test
  void listFromGivesTheDirectorysFilesAtOrAfterTheNameInOrder() throws IOException {
    assertThat(names(files.listFrom("s3://store/t/_delta_log/00000000000000000010")))
        .containsExactly(
            "00000000000000000010.checkpoint.parquet",
            "00000000000000000010.json",
            "00000000000000000011.json",
            "_last_checkpoint"); // not _sidecars/, a subdirectory, nor _delta_logx
    assertThat(names(files.listFrom("s3://store/t/_delta_log/00000000000000000010.json")))
        .startsWith("00000000000000000010.json");
    try (CloseableIterator<FileStatus> it = files.listFrom("s3a://store/t/_delta_log/0")) {
      FileStatus first = it.next();
      assertThat(first.getPath()).isEqualTo("s3a://store/t/_delta_log/00000000000000000009.json");
      assertThat(first.getSize()).isEqualTo(2);
      assertThat(first.getModificationTime()).isPositive();
    }
    assertThatThrownBy(() -> files.listFrom("s3://store/none/_delta_log/0"))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void streamsSeekBackwardAndForwardWithRangedReads() throws IOException {
    try (SeekableInputStream in = files.newInputFile("s3://store/blob", BLOB.length).newStream()) {
      byte[] head = new byte[10];
      in.readFully(head, 0, 10);
      assertThat(head).containsExactly(slice(0, 10));
      in.seek(BLOB.length - 8); // far ahead: a ranged GET
      byte[] tail = new byte[8];
      in.readFully(tail, 0, 8);
      assertThat(tail).containsExactly(slice(BLOB.length - 8, 8));
      assertThat(in.read()).isEqualTo(-1);
      in.seek(100); // backward: reopened
      assertThat(in.read()).isEqualTo(BLOB[100] & 0xff);
      in.seek(5_000); // a short skip within the open response
      in.readFully(head, 0, 10);
      assertThat(head).containsExactly(slice(5_000, 10));
      assertThat(in.getPos()).isEqualTo(5_010);
      in.seek(BLOB.length - 2);
      assertThatThrownBy(() -> in.readFully(new byte[4], 0, 4)).isInstanceOf(EOFException.class);
    }
    // size unknown (as Kernel passes for _last_checkpoint): found by reading
    assertThat(files.newInputFile("s3://store/blob", -1).length()).isEqualTo(BLOB.length);
  }

  @Test
  void missingObjectsAreFileNotFoundAndWritesAreRefused() {
    assertThatThrownBy(() -> files.newInputFile("s3://store/t/_delta_log/_nope", 0).newStream())
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("404");
    assertThatThrownBy(() -> files.getFileStatus("s3://store/nope"))
        .isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> files.newOutputFile("s3://store/t/x"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> files.delete("s3://store/blob"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> files.resolvePath("gs://store/t")).isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * A whole read is one GET: the object's bytes and the status a HEAD states (size, time); a
   * missing object is empty, one over the size asked for is its status alone; the store's other
   * refusals stay failures.
   */
  @Test
  void wholeReadsGiveBytesAndTheStatusAHeadGives() throws IOException {
    FileStatus head = files.getFileStatus("s3://store/blob");
    var whole = files.readWhole("s3://store/blob", BLOB.length).orElseThrow();
    assertThat(whole.content()).hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(BLOB));
    assertThat(whole.status().getPath()).isEqualTo("s3://store/blob");
    assertThat(whole.status().getSize()).isEqualTo(head.getSize());
    assertThat(whole.status().getModificationTime()).isEqualTo(head.getModificationTime()).isPositive();

    var large = files.readWhole("s3://store/blob", BLOB.length - 1).orElseThrow();
    assertThat(large.content()).isEmpty();
    assertThat(large.status().getSize()).isEqualTo(BLOB.length);
    // the aborted response left the client usable
    assertThat(files.readWhole("s3://store/t/_delta_log/00000000000000000010.json", 100))
        .hasValueSatisfying(f -> assertThat(new String(f.content().orElseThrow())).isEqualTo("{}"));

    assertThat(files.readWhole("s3://store/t/_delta_log/00000000000000000099.json", 100)).isEmpty();
    // a refusal (keys the store does not know: 403) is a failure, never "missing"
    try (S3Client stranger =
        S3Client.builder()
            .endpointOverride(store.endpoint())
            .region(software.amazon.awssdk.regions.Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                        "stranger", "not-the-secret")))
            .build()) {
      assertThatThrownBy(() -> new KernelS3FileSystem(stranger).readWhole("s3://store/blob", 100))
          .isInstanceOf(IOException.class)
          .isNotInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("403");
    }
  }

  static byte[] slice(int from, int length) {
    byte[] out = new byte[length];
    System.arraycopy(BLOB, from, out, 0, length);
    return out;
  }
}
