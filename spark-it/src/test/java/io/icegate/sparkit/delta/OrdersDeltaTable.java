package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.sparkit.testing.S3Objects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Delta table {@code orders} of the gateway tests, written by delta-spark on local disk (the
 * Spark JVM has no Hadoop S3 filesystem) and copied to the lake store after each batch of commits,
 * as a writer's commits land there; Spark's direct Delta reads use the local copy, the same files.
 */
final class OrdersDeltaTable {
  /** Where the table lives on the lake store. */
  static final String LOCATION = "s3://lake/gold/orders";
  /** A sub-millisecond timestamp some rows sit at, below and above (Spark SQL, UTC session). */
  static final String BOUND = "TIMESTAMP'2023-11-14 22:13:20.123456'";

  private final SparkSession spark;
  private final Path table;
  private final Map<String, String> lakeKeys;

  /**
   * @param table the local directory delta-spark writes
   * @param lakeKeys S3FileIO settings of the lake store ({@link S3Objects#fileIoProperties})
   */
  OrdersDeltaTable(SparkSession spark, Path table, Map<String, String> lakeKeys) {
    this.spark = spark;
    this.table = table;
    this.lakeKeys = lakeKeys;
  }

  /**
   * Versions 0 to 4: a table partitioned by {@code region} with deletion vectors and a checkpoint
   * every 4 versions, rows with sub-millisecond timestamps, a DELETE (a deletion vector in version
   * 2), an added column {@code note}, rows with it; then the table goes to the lake store.
   */
  void writeVersionsZeroToFour() throws IOException {
    sql("CREATE TABLE " + delta() + " (id BIGINT, name STRING, ts TIMESTAMP, region STRING)"
        + " USING delta PARTITIONED BY (region) TBLPROPERTIES ("
        + "'delta.enableDeletionVectors' = 'true', 'delta.checkpointInterval' = '4')");
    sql("INSERT INTO " + delta() + " VALUES"
        + " (1, 'a', TIMESTAMP'2023-11-14 22:13:20.123456', 'EU'),"
        + " (2, 'b', TIMESTAMP'2023-11-14 22:13:20.123', 'EU'),"
        + " (3, 'c', TIMESTAMP'2023-11-14 22:13:20.123457', 'EU'),"
        + " (4, 'd', NULL, 'US'),"
        + " (5, 'e', TIMESTAMP'2023-11-14 22:13:20.124', 'US')");
    sql("DELETE FROM " + delta() + " WHERE id = 2");
    sql("ALTER TABLE " + delta() + " ADD COLUMNS (note STRING)");
    sql("INSERT INTO " + delta() + " VALUES (6, 'f', " + BOUND + ", 'APAC', 'new')");
    upload();

    assertThat(version()).isEqualTo(4);
    assertThat(table.resolve("_delta_log/00000000000000000004.checkpoint.parquet"))
        .isRegularFile();
    assertThat(Files.readString(table.resolve("_delta_log/00000000000000000002.json")))
        .contains("\"deletionVector\"");
    assertThat(S3Objects.list(lakeKeys, LOCATION))
        .contains(LOCATION + "/_delta_log/00000000000000000004.checkpoint.parquet");
  }

  /** Version 5: one row 1 µs below the bound. */
  void insertJustBelowTheBound() throws IOException {
    sql("INSERT INTO " + delta() + " VALUES (7, 'g', TIMESTAMP'2023-11-14 22:13:20.123455', 'EU',"
        + " 'late')");
    upload();
    assertThat(version()).isEqualTo(5);
  }

  /**
   * Versions 6 to 8: column mapping enabled on the existing table, {@code name} renamed to {@code
   * label}, rows written under column mapping (files with field ids beside the older ones
   * without), a second checkpoint.
   */
  void enableColumnMappingThenRename() throws IOException {
    sql("ALTER TABLE " + delta() + " SET TBLPROPERTIES ('delta.minReaderVersion' = '2',"
        + " 'delta.minWriterVersion' = '5', 'delta.columnMapping.mode' = 'name')");
    sql("ALTER TABLE " + delta() + " RENAME COLUMN name TO label");
    sql("INSERT INTO " + delta() + " VALUES (8, 'h', TIMESTAMP'2024-01-01 00:00:00.000001', 'US',"
        + " 'mapped')");
    upload();
    assertThat(version()).isEqualTo(8);
    assertThat(table.resolve("_delta_log/00000000000000000008.checkpoint.parquet"))
        .isRegularFile();
    assertThat(latest().columns()).containsExactly("id", "label", "ts", "region", "note");
  }

  /** Version 9: deletes row 3 from a file that already has a deletion vector (a replaced one). */
  void deleteFromAFileWithADeletionVector() throws IOException {
    sql("DELETE FROM " + delta() + " WHERE id = 3");
    upload();
    assertThat(version()).isEqualTo(9);
  }

  /** The table's latest rows, read by Spark directly. */
  Dataset<Row> latest() {
    return spark.read().format("delta").load(uri());
  }

  /** Its rows at {@code version} ({@code versionAsOf}). */
  Dataset<Row> at(long version) {
    return spark.read().format("delta").option("versionAsOf", version).load(uri());
  }

  /** The table's latest version, from its log (Delta Kernel; no Spark job). */
  long version() {
    return TableManager.loadSnapshot(uri()).build(DefaultEngine.create(new Configuration()))
        .getVersion();
  }

  /** Puts the local table's files on the lake store (as its writer's commits land there). */
  void upload() throws IOException {
    S3Objects.upload(lakeKeys, table, LOCATION);
  }

  /** {@code file:/...}, without the trailing slash {@code Path.toUri} gives a directory. */
  String uri() {
    return "file:" + table.toAbsolutePath();
  }

  /** The table's name in Spark SQL: {@code delta.`file:/...`}. */
  String delta() {
    return "delta.`" + uri() + "`";
  }

  void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  /**
   * Unity serves the table as {@code main.gold.orders}, partitioned by {@code region}, with the
   * columns of versions 0 to 5 (before {@code name} is renamed); Unity's table id.
   */
  static String serveInUnity(UnityCatalogFixture unity) {
    String id = unity.addTable("main", "gold", "orders", "EXTERNAL", "DELTA", LOCATION,
        unityColumns("name"));
    unity.partitionBy("main", "gold", "orders", List.of("region"));
    return id;
  }

  /**
   * Unity's table {@code tableId} follows the rename of {@link #enableColumnMappingThenRename}
   * (Unity mirrors the Delta schema).
   */
  static void serveRenamedInUnity(UnityCatalogFixture unity, String tableId) {
    unity.addTable("main", "gold", "orders", "EXTERNAL", "DELTA", LOCATION, unityColumns("label"),
        tableId);
    unity.partitionBy("main", "gold", "orders", List.of("region"));
  }

  /** Unity's column list of the table (Unity mirrors the Delta schema). */
  private static Map<String, String> unityColumns(String nameColumn) {
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "long");
    columns.put(nameColumn, "string");
    columns.put("ts", "timestamp");
    columns.put("region", "string");
    columns.put("note", "string");
    return columns;
  }
}
