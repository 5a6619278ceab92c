package io.icegate.access.delta.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.access.delta.iceberg.DeltaHeads;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.VendedStorageCredentials;
import io.icegate.access.storage.s3.VendedS3Client;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Reading a Delta log on a real S3 API (s3proxy) with Delta Kernel: JSON commits, checkpoints,
 * failures.
 */
class DeltaLogTest {

  static final String BUCKET = "lake";
  static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
          + "{\"name\":\"region\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}";

  static ObjectStoreFixture store;
  static S3Client s3;
  static DeltaLogWriter log;
  @TempDir static Path scratch;

  @BeforeAll
  static void setUp() throws Exception {
    ObjectStoreFixture.useChecksumsOnlyWhenRequired();
    store = ObjectStoreFixture.startS3Proxy();
    store.createBucket(BUCKET);
    s3 = store.newClient();
    log = new DeltaLogWriter(s3, BUCKET);
  }

  @AfterAll
  static void tearDown() throws Exception {
    s3.close();
    store.close();
  }

  static String location(String path) {
    return "s3://" + BUCKET + "/" + path;
  }

  @Test
  void theHeadOfAJsonLogIsItsNewestVersionAndMetadata() {
    log.commitSchemaString(
        "json/orders", 0, SCHEMA, List.of("region"), Map.of("delta.appendOnly", "true"));
    log.commitAppend("json/orders", 1);

    DeltaLog.Head head = new DeltaLog(s3, location("json/orders") + "/").head();
    assertThat(head.version()).isEqualTo(1);
    assertThat(head.commitLocation())
        .isEqualTo(location("json/orders/_delta_log/00000000000000000001.json"));
    assertThat(head.schemaString()).contains("\"region\"");
    assertThat(head.partitionColumns()).containsExactly("region");
    assertThat(head.configuration()).containsEntry("delta.appendOnly", "true");
    assertThat(new DeltaLog(s3, location("json/orders")).readNewestCommit())
        .isEqualTo(head.commitLocation());
  }

  @Test
  void aSchemaKeptOnlyInAParquetCheckpointIsRead() {
    KernelTableWriter kernel = new KernelTableWriter(scratch, s3, BUCKET);
    String path = "kernel/checkpointed";
    StructType orders = new StructType().add("id", LongType.LONG).add("region", StringType.STRING);
    // Kernel changes a schema only under column mapping
    kernel.create(path, orders, List.of(), Map.of("delta.columnMapping.mode", "name"));
    kernel.changeSchema(path, kernel.snapshot(path).getSchema().add("amount", LongType.LONG));
    kernel.commitNothing(path);
    assertThat(kernel.checkpoint(path)).isEqualTo(2);
    // commits 0 and 1 cleaned up: the new schema survives only in the checkpoint
    kernel.upload(
        path,
        name -> name.equals("_last_checkpoint")
            || name.startsWith("00000000000000000002.") && !name.endsWith(".crc"));

    DeltaLog.Head head = new DeltaLog(s3, location(path)).head();
    assertThat(head.version()).isEqualTo(2);
    assertThat(head.schemaString()).contains("\"amount\"");
    assertThat(head.configuration()).containsEntry("delta.columnMapping.mode", "name");
  }

  /**
   * A head read through the process's remembered heads is the head a full load reads, first, with
   * nothing new, after a schema change and across a checkpoint; once remembered, an unchanged
   * table's head and one commit's reads no checkpoint (the s3proxy fixture records every GET).
   */
  @Test
  void aRememberedHeadFollowsTheCommitsSinceAndEqualsAFullLoad() {
    KernelTableWriter kernel = new KernelTableWriter(scratch, s3, BUCKET);
    String path = "kernel/remembered";
    StructType orders = new StructType().add("id", LongType.LONG).add("region", StringType.STRING);
    kernel.create(path, orders, List.of("region"), Map.of("delta.columnMapping.mode", "name"));
    kernel.commitNothing(path);
    kernel.checkpoint(path);
    kernel.uploadTable(path);
    DeltaHeads heads = new DeltaHeads();
    DeltaLog log = new DeltaLog(s3, location(path));

    assertThat(log.head(heads)).isEqualTo(log.head());
    assertThat(heads.size()).isEqualTo(1);
    int before = store.reads().size();
    DeltaLog.Head unchanged = log.head(heads);
    // a full load reads _last_checkpoint and the checkpoint; the remembered head neither
    assertThat(store.reads().subList(before, store.reads().size()))
        .noneMatch(key -> key.contains("checkpoint"));
    assertThat(unchanged).isEqualTo(log.head());

    kernel.changeSchema(path, kernel.snapshot(path).getSchema().add("amount", LongType.LONG));
    kernel.uploadTable(path);
    int beforeChange = store.reads().size();
    DeltaLog.Head changed = log.head(heads);
    List<String> reads = store.reads().subList(beforeChange, store.reads().size());
    assertThat(reads).noneMatch(key -> key.contains("checkpoint"));
    assertThat(changed).isEqualTo(log.head());
    assertThat(changed.schemaString()).contains("\"amount\"");

    kernel.commitNothing(path);
    kernel.commitNothing(path); // two commits since: read through Kernel's listing
    kernel.uploadTable(path);
    assertThat(log.head(heads)).isEqualTo(log.head());
    int beforeUnchanged = store.reads().size();
    assertThat(log.head(heads).version()).isEqualTo(kernel.snapshot(path).getVersion());
    assertThat(store.reads().subList(beforeUnchanged, store.reads().size()))
        .noneMatch(key -> key.contains("checkpoint"));
  }

  @Test
  void noLogIsUnreadableAndNamesWhereItLooked() {
    assertThatThrownBy(() -> new DeltaLog(s3, location("absent")).head())
        .isInstanceOf(DeltaLog.UnreadableLogException.class)
        .hasMessageContaining("no Delta commits under " + location("absent/_delta_log/"));
    assertThatThrownBy(() -> new DeltaLog(s3, location("absent")).readNewestCommit())
        .isInstanceOf(DeltaLog.UnreadableLogException.class)
        .hasMessageContaining("no Delta commits");
    assertThatThrownBy(() -> new DeltaLog(s3, "gs://lake/t"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStoreRefusalIsUnreadableWithItsStatusAndAPolicyRefusalIsItself() {
    log.writeVersions("refused/t", 1, SCHEMA);
    VendedStorageCredentials wrong =
        new VendedStorageCredentials(
            location("refused"),
            Map.of(
                VendedStorageCredentials.S3_ACCESS_KEY_ID, "wrong",
                VendedStorageCredentials.S3_SECRET_ACCESS_KEY, "wrong-secret"),
            null);
    try (S3Client refused =
        VendedS3Client.open(wrong, store.s3Settings(), OutboundAddressPolicy.defaults())) {
      assertThatThrownBy(() -> new DeltaLog(refused, location("refused/t")).head())
          .isInstanceOf(DeltaLog.UnreadableLogException.class)
          .hasMessageContaining("HTTP 403")
          .hasMessageNotContaining("wrong-secret");
      assertThatThrownBy(() -> new DeltaLog(refused, location("refused/t")).readNewestCommit())
          .isInstanceOf(DeltaLog.UnreadableLogException.class)
          .hasMessageContaining("HTTP 403");
    }
    VendedStorageCredentials right =
        new VendedStorageCredentials(
            location("refused"),
            Map.of(
                VendedStorageCredentials.S3_ACCESS_KEY_ID, store.accessKeyId(),
                VendedStorageCredentials.S3_SECRET_ACCESS_KEY, store.secretAccessKey()),
            null);
    try (S3Client denied =
        VendedS3Client.open(
            right, store.s3Settings(), OutboundAddressPolicy.defaults().denyLoopback())) {
      assertThatThrownBy(() -> new DeltaLog(denied, location("refused/t")).head())
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.ADDRESS_DENIED));
    }
  }
}
