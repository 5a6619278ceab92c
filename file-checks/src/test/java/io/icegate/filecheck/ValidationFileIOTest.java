package io.icegate.filecheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which locations {@link ValidationFileIO} refuses, and how a refusal reaches the problems. */
class ValidationFileIOTest {

  private static final OutboundAddressPolicy POLICY = OutboundAddressPolicy.defaults();

  @TempDir Path dir;

  @Test
  void localTableIsRefusedUnlessLocalFilesAreAllowed() {
    String location = "file:" + dir.resolve("t");

    ValidationFileIO.Opened opened =
        ValidationFileIO.open(location, Optional.empty(), Map.of(), false, POLICY);

    assertThat(opened)
        .isEqualTo(
            new ValidationFileIO.Refused(
                new FileProblem(location, "", ValidationFileIO.LOCAL_FILES_NOT_ALLOWED)));
    assertThat(ValidationFileIO.open(dir.toString(), Optional.empty(), Map.of(), false, POLICY))
        .isInstanceOf(ValidationFileIO.Refused.class);
    assertThat(ValidationFileIO.open(location, Optional.empty(), Map.of(), true, POLICY))
        .isInstanceOf(ValidationFileIO.Ready.class);
  }

  @Test
  void objectStoreTableWithoutVendedCredentialsIsRefused() {
    ValidationFileIO.Opened opened =
        ValidationFileIO.open("s3://b/t", Optional.empty(), Map.of(), true, POLICY);

    assertThat(opened)
        .isEqualTo(
            new ValidationFileIO.Refused(
                new FileProblem(
                    "s3://b/t", "", "upstream vended no storage credentials for this table")));
  }

  @Test
  void unsupportedSchemeIsRefused() {
    assertThat(ValidationFileIO.open("gs://b/t", Optional.empty(), Map.of(), true, POLICY))
        .extracting(opened -> ((ValidationFileIO.Refused) opened).problem().message())
        .isEqualTo("locations with scheme gs cannot be validated (only S3 is supported)");
  }

  @Test
  void vendedCredentialsWithoutASecretAreRefused() {
    VendedStorageCredentials onlyToken =
        new VendedStorageCredentials(
            "s3://b/t",
            Map.of(VendedStorageCredentials.S3_SESSION_TOKEN, "token-xyz"),
            Instant.now().plusSeconds(600));

    ValidationFileIO.Opened opened =
        ValidationFileIO.open("s3://b/t", Optional.of(onlyToken), Map.of(), false, POLICY);

    assertThat(opened).isInstanceOf(ValidationFileIO.Refused.class);
    assertThat(((ValidationFileIO.Refused) opened).problem().message())
        .isEqualTo(
            "the storage credentials vended for this table lack an S3 access key id or secret key")
        .doesNotContain("token-xyz");
  }

  @Test
  void localTableNamingAnObjectStoreFileHasNoCredentialsForIt() {
    FileTable table = new FileTable(FileTable.localIO(), "file:" + dir.resolve("t"));
    DataFile elsewhere =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("s3://other-bucket/data/x.parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(100)
            .withRecordCount(1)
            .build();
    table.append(table.writeData(FileFormat.PARQUET, 2), elsewhere);

    ValidationFileIO io =
        ((ValidationFileIO.Ready)
                ValidationFileIO.open(
                    "file:" + dir.resolve("t"), Optional.empty(), Map.of(), true, POLICY))
            .io();

    assertThat(DataFileCheck.check(table.metadata(), io))
        .containsExactly(
            new FileProblem(
                "s3://other-bucket/data/x.parquet", "PARQUET", ValidationFileIO.NO_CREDENTIALS));
  }

  @Test
  void writesAndDeletesAreRefused() {
    ValidationFileIO io = ValidationFileIO.localOnly();

    assertThatThrownBy(() -> io.newOutputFile(dir.resolve("x").toString()))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> io.deleteFile(dir.resolve("x").toString()))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
