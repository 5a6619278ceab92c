package io.icegate.filecheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import java.net.URI;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Validation of a table on a real S3-compatible store (s3proxy through the iceberg-rest fixture):
 * the table is written with the store's identity, then checked through {@link ValidationFileIO}
 * holding only vended-style keys. s3proxy accepts one identity and ignores session tokens, so
 * "only the vended keys are used" is shown by vending wrong keys and expecting the check to fail.
 */
class S3DataFileCheckTest {

  private static final String BUCKET = "warehouse";
  private static final OutboundAddressPolicy POLICY = OutboundAddressPolicy.defaults();

  private static ObjectStoreFixture store;
  private static S3FileIO writerIo;

  private FileTable table;
  private String location;

  @BeforeAll
  static void startStore() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    writerIo = new S3FileIO();
    writerIo.initialize(new HashMap<>(store.s3FileIoProperties()));
  }

  @AfterAll
  static void stopStore() throws Exception {
    writerIo.close();
    store.close();
  }

  @BeforeEach
  void createTable() {
    location = "s3://" + BUCKET + "/db/t" + System.nanoTime();
    table = new FileTable(writerIo, location);
  }


  private VendedStorageCredentials vended(String accessKeyId, String secretAccessKey) {
    Map<String, String> properties = new HashMap<>(store.s3Settings());
    properties.put(VendedStorageCredentials.S3_ACCESS_KEY_ID, accessKeyId);
    properties.put(VendedStorageCredentials.S3_SECRET_ACCESS_KEY, secretAccessKey);
    properties.put(VendedStorageCredentials.S3_SESSION_TOKEN, "session-token-not-checked");
    return new VendedStorageCredentials(location, properties, Instant.now().plusSeconds(900));
  }

  private List<FileProblem> checkWith(VendedStorageCredentials credentials) {
    ValidationFileIO.Opened opened =
        ValidationFileIO.open(location, Optional.of(credentials), Map.of(), false, POLICY);
    assertThat(opened).isInstanceOf(ValidationFileIO.Ready.class);
    try (FileIO io = ((ValidationFileIO.Ready) opened).io()) {
      return DataFileCheck.check(table.metadata(), io);
    }
  }

  @Test
  void goodTableReadWithVendedKeysHasNoProblems() {
    DataFile parquet = table.writeData(FileFormat.PARQUET, 10);
    table.append(parquet, table.writeData(FileFormat.ORC, 4), table.writeData(FileFormat.AVRO, 6));
    table.addDeletes(table.writePositionDeletes(FileFormat.PARQUET, parquet, 0, 9));

    assertThat(checkWith(vended(store.accessKeyId(), store.secretAccessKey()))).isEmpty();
  }

  @Test
  void missingObjectIsOneProblem() {
    DataFile gone = table.writeData(FileFormat.PARQUET, 3);
    table.append(gone, table.writeData(FileFormat.PARQUET, 3));
    URI uri = URI.create(gone.location());
    try (S3Client s3 = store.newClient()) {
      s3.deleteObject(b -> b.bucket(uri.getHost()).key(uri.getPath().substring(1)));
    }

    assertThat(checkWith(vended(store.accessKeyId(), store.secretAccessKey())))
        .containsExactly(new FileProblem(gone.location(), "PARQUET", "the file does not exist"));
  }

  @Test
  void wrongVendedKeysAreOneAccessProblemOnTheManifestList() {
    table.append(table.writeData(FileFormat.PARQUET, 3), table.writeData(FileFormat.ORC, 3));
    String secret = "wrong-secret-0123456789";

    List<FileProblem> problems = checkWith(vended("wrong-key-id", secret));

    assertThat(problems).hasSize(1);
    FileProblem problem = problems.get(0);
    assertThat(problem.filePath()).isEqualTo(table.metadata().currentSnapshot().manifestListLocation());
    assertThat(problem.message()).startsWith("the manifest list cannot be read: HTTP 403");
    assertThat(problem.toString()).doesNotContain(secret).doesNotContain("session-token");
  }

  @Test
  void vendedCredentialsWithoutStoreSettingsUseTheConnectionSettings() {
    table.append(table.writeData(FileFormat.AVRO, 2));
    Map<String, String> keysOnly =
        Map.of(
            VendedStorageCredentials.S3_ACCESS_KEY_ID, store.accessKeyId(),
            VendedStorageCredentials.S3_SECRET_ACCESS_KEY, store.secretAccessKey());
    VendedStorageCredentials credentials = new VendedStorageCredentials(location, keysOnly, null);

    ValidationFileIO.Opened opened =
        ValidationFileIO.open(location, Optional.of(credentials), store.s3Settings(), false, POLICY);

    try (FileIO io = ((ValidationFileIO.Ready) opened).io()) {
      assertThat(DataFileCheck.check(table.metadata(), io)).isEmpty();
    }
  }

  @Test
  void manifestNamingALocalFileIsRefusedForThatFile() {
    DataFile local =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("file:/etc/hostname")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(10)
            .withRecordCount(1)
            .build();
    table.append(table.writeData(FileFormat.PARQUET, 2), local);

    assertThat(checkWith(vended(store.accessKeyId(), store.secretAccessKey())))
        .containsExactly(
            new FileProblem(
                "file:/etc/hostname", "PARQUET", ValidationFileIO.LOCAL_FILES_NOT_ALLOWED));
  }
}
