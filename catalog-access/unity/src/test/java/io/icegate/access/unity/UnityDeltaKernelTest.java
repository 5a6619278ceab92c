package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.schema.DeltaSchemas;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta logs written by Delta Kernel itself (transactions and a Parquet checkpoint), read back by
 * the provider through Kernel over the vended S3 client: a schema that survives only in a
 * checkpoint, and Delta column-mapping ids carried into the Iceberg schema.
 */
class UnityDeltaKernelTest {

  static final NamespacePath SALES = NamespacePath.of("sales");
  static final Map<String, String> UNITY_COLUMNS = Map.of("id", "long");

  static UnityEnvironment env;
  static KernelTableWriter kernel;
  @TempDir static Path scratch;

  static final StructType ORDERS =
      new StructType().add("id", LongType.LONG).add("region", StringType.STRING);

  @BeforeAll
  static void setUp() throws Exception {
    env = new UnityEnvironment();
    kernel = new KernelTableWriter(scratch, env.s3, UnityEnvironment.BUCKET);
  }

  @AfterAll
  static void tearDown() throws Exception {
    env.close();
  }

  static CatalogClient client() {
    return env.open(Map.of("catalog", "main"));
  }

  @Test
  void aSchemaKeptOnlyInAParquetCheckpointIsRead() {
    String path = "t/checkpointed";
    // Kernel changes a schema only under column mapping; "name" mode here, "id" mode below
    kernel.create(path, ORDERS, List.of("region"), Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "name"));
    StructType evolved = kernel.snapshot(path).getSchema().add("amount", LongType.LONG);
    assertThat(kernel.changeSchema(path, evolved)).isEqualTo(1);
    assertThat(kernel.commitNothing(path)).isEqualTo(2);
    assertThat(kernel.checkpoint(path)).isEqualTo(2);
    // the log after cleanup: the commits before the checkpoint, 1 among them (the only JSON holding
    // the new schema), are gone; Delta keeps the checkpoint version's own commit
    List<String> uploaded =
        kernel.upload(
            path,
            name -> name.equals("_last_checkpoint")
                || name.startsWith("00000000000000000002.") && !name.endsWith(".crc"));
    assertThat(uploaded)
        .containsExactly(
            "00000000000000000002.checkpoint.parquet", "00000000000000000002.json", "_last_checkpoint");
    env.log.commitAppend(path, 3);
    env.unity.addTable("main", "sales", "checkpointed", "EXTERNAL", "DELTA", env.location(path), UNITY_COLUMNS);

    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "checkpointed");
      assertThat(table.properties())
          .containsEntry(UnityClient.SCHEMA_SOURCE, "delta-log")
          .containsEntry(UnityClient.DELTA_LOG_VERSION, "3")
          .doesNotContainKey(UnityClient.SCHEMA_FALLBACK_REASON);
      assertThat(SchemaParser.fromJson(table.schemaJson()).columns())
          .extracting(Types.NestedField::name, f -> f.type().toString())
          .containsExactly(tuple("id", "long"), tuple("region", "string"), tuple("amount", "long"));
      assertThat(UnityStorageTest.partitionFields(table)).containsExactly(tuple("region", "identity"));
    }
  }

  @Test
  void columnMappingIdsBecomeTheIcebergFieldIds() {
    String path = "t/mapped";
    StructType initial =
        new StructType()
            .add("id", LongType.LONG)
            .add("name", StringType.STRING)
            .add("tags", new ArrayType(StringType.STRING, true))
            .add("attrs", new MapType(StringType.STRING, IntegerType.INTEGER, true))
            .add("address", new StructType().add("city", StringType.STRING));
    kernel.create(path, initial, List.of(), Map.of(DeltaSchemas.COLUMN_MAPPING_MODE, "id"));
    // drop "name", rename "id" to "order_id", add "email": ids stay with their columns
    List<StructField> fields = new ArrayList<>();
    for (StructField f : kernel.snapshot(path).getSchema().fields()) {
      if (f.getName().equals("name")) {
        continue;
      }
      fields.add(
          f.getName().equals("id")
              ? new StructField("order_id", f.getDataType(), f.isNullable(), f.getMetadata())
              : f);
    }
    fields.add(new StructField("email", StringType.STRING, true));
    fields.add(new StructField("phone", StringType.STRING, true));
    kernel.changeSchema(path, new StructType(fields));
    // then drop "phone", the newest column: its id stays taken (maxColumnId) though no field has it
    StructType withoutPhone = new StructType();
    for (StructField f : kernel.snapshot(path).getSchema().fields()) {
      if (!f.getName().equals("phone")) {
        withoutPhone = withoutPhone.add(f);
      }
    }
    kernel.changeSchema(path, withoutPhone);
    StructType logged = kernel.snapshot(path).getSchema();
    int maxColumnId =
        Integer.parseInt(
            kernel.snapshot(path).getTableProperties().get(DeltaSchemas.MAX_COLUMN_ID));
    kernel.upload(path, name -> true);
    env.unity.addTable("main", "sales", "mapped", "EXTERNAL", "DELTA", env.location(path), UNITY_COLUMNS);

    try (CatalogClient client = client()) {
      UpstreamTable table = client.loadTable(SALES, "mapped");
      assertThat(table.properties()).containsEntry(UnityClient.SCHEMA_SOURCE, "delta-log");
      Schema schema = SchemaParser.fromJson(table.schemaJson());
      assertThat(schema.columns()).extracting(Types.NestedField::name)
          .containsExactly("order_id", "tags", "attrs", "address", "email");
      for (StructField f : logged.fields()) {
        long deltaId = f.getMetadata().getLong(DeltaSchemas.COLUMN_MAPPING_ID);
        assertThat(schema.findField(f.getName()).fieldId()).as(f.getName()).isEqualTo(deltaId);
      }
      long cityId =
          ((StructType) logged.get("address").getDataType())
              .get("city").getMetadata().getLong(DeltaSchemas.COLUMN_MAPPING_ID);
      assertThat(schema.findField("address.city").fieldId()).isEqualTo(cityId);
      // "name" had id 2: a dropped column's id is not handed out again, so 2 is nowhere
      assertThat(schema.findField("order_id").fieldId()).isEqualTo(1);
      assertThat(schema.findField(2)).isNull();
      // list elements and map entries have no Delta id here (no IcebergCompatV2 nested ids):
      // fresh ones above every id Delta ever assigned, the dropped "phone" included
      int highestLive = 0;
      for (StructField f : logged.fields()) {
        highestLive = Math.max(highestLive, f.getMetadata().getLong(DeltaSchemas.COLUMN_MAPPING_ID).intValue());
      }
      assertThat(maxColumnId).isGreaterThan(highestLive);
      assertThat(schema.findField("tags.element").fieldId()).isGreaterThan(maxColumnId);
      assertThat(schema.findField("attrs.key").fieldId()).isGreaterThan(maxColumnId);
      assertThat(schema.findField("attrs.value").fieldId()).isGreaterThan(maxColumnId);
    }
  }
}
