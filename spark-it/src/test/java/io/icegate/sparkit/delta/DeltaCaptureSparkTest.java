package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.sparkit.testing.WorkDirs;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Delta tables written by delta-spark (deletion vectors after a DELETE, column mapping enabled on an
 * existing table then a renamed column, a checkpoint, sub-millisecond timestamps), captured as
 * Iceberg metadata by icegate's Delta capture, and read by Spark's Iceberg reader from that
 * metadata: the rows must be exactly those Spark reads from the Delta table itself, at the latest
 * version and at an earlier captured one. No gateway here: this checks the mapping end to end with
 * the real writer and the real reader; serving it through load-table is not wired yet.
 */
@Tag("spark")
class DeltaCaptureSparkTest {

  static SparkSession spark;
  static Path work;
  static FileIO io;

  @BeforeAll
  static void start() throws Exception {
    work = WorkDirs.fresh("delta-capture");
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("icegate-delta-capture")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.local.dir", work.resolve("spark-local").toString())
            .config("spark.sql.warehouse.dir", work.resolve("spark-warehouse").toString())
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config(
                "spark.sql.extensions",
                "io.delta.sql.DeltaSparkSessionExtension,"
                    + "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            // Iceberg's source loads a path (here a metadata.json) through this catalog; without
            // it Iceberg would set up a Hive one
            .config("spark.sql.catalog.default_iceberg", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.default_iceberg.type", "hadoop")
            .config("spark.sql.catalog.default_iceberg.warehouse", work.resolve("iceberg-default").toUri().toString())
            .getOrCreate();
    io = new HadoopFileIO(new Configuration());
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  /** Captures the latest version on top of {@code previous} and writes the metadata file. */
  static Captured capture(String table, TableMetadata previous, int n) {
    Engine engine = DefaultEngine.create(new Configuration());
    Snapshot snapshot = TableManager.loadSnapshot(table).build(engine);
    String generated = "file:" + work.resolve("warehouse/orders");
    TableMetadata metadata =
        DeltaVersionCapture.capture(
            engine, snapshot, previous, new DeltaVersionCapture.Target("spark-it/orders", generated, io, io));
    String file = generated + "/v" + n + ".metadata.json";
    TableMetadataParser.overwrite(metadata, io.newOutputFile(file));
    return new Captured(metadata, file, snapshot.getVersion());
  }

  record Captured(TableMetadata metadata, String file, long version) {}

  static List<String> rows(Dataset<Row> data) {
    return data.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void sparkReadsTheCapturedVersionsAsItReadsTheDeltaTable() {
    String table = "file:" + work.resolve("lake/orders");
    String delta = "delta.`" + table + "`";
    spark.sql(
        "CREATE TABLE " + delta + " (id BIGINT, name STRING, ts TIMESTAMP, region STRING) USING delta"
            + " PARTITIONED BY (region) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true',"
            + " 'delta.checkpointInterval' = '4')");
    spark.sql(
        "INSERT INTO " + delta + " VALUES"
            + " (1, 'a', TIMESTAMP'2023-11-14 22:13:20.123456', 'EU'),"
            + " (2, 'b', TIMESTAMP'2023-11-14 22:13:20.123', 'EU'),"
            + " (3, 'c', TIMESTAMP'2023-11-14 22:13:21', 'EU'),"
            + " (4, 'd', NULL, 'US')");
    Captured first = capture(table, null, 1);
    spark.sql("DELETE FROM " + delta + " WHERE id = 2");
    Captured second = capture(table, first.metadata(), 2);

    assertThat(second.metadata().currentSnapshot().deleteManifests(io)).isNotEmpty();
    List<String> deltaRows = rows(spark.read().format("delta").load(table));
    assertThat(deltaRows).hasSize(3);
    assertThat(rows(spark.read().format("iceberg").load(second.file()))).isEqualTo(deltaRows);
    String atBound = "ts = TIMESTAMP'2023-11-14 22:13:20.123456'";
    assertThat(rows(spark.read().format("iceberg").load(second.file()).where(atBound)))
        .isEqualTo(rows(spark.read().format("delta").load(table).where(atBound)))
        .hasSize(1);
    // time travel to the version before the DELETE, as Delta shows it
    assertThat(
            rows(
                spark.read()
                    .format("iceberg")
                    .option("snapshot-id", first.metadata().currentSnapshot().snapshotId())
                    .load(second.file())))
        .isEqualTo(
            rows(spark.read().format("delta").option("versionAsOf", first.version()).load(table)))
        .hasSize(4);

    spark.sql(
        "ALTER TABLE " + delta + " SET TBLPROPERTIES ('delta.minReaderVersion' = '2',"
            + " 'delta.minWriterVersion' = '5', 'delta.columnMapping.mode' = 'name')");
    spark.sql("ALTER TABLE " + delta + " RENAME COLUMN name TO label");
    spark.sql("INSERT INTO " + delta + " VALUES (5, 'e', TIMESTAMP'2024-01-01 00:00:00', 'US')");
    spark.sql("DELETE FROM " + delta + " WHERE id = 3");
    Captured third = capture(table, second.metadata(), 3);

    assertThat(third.metadata().schema().findField("label")).isNotNull();
    assertThat(rows(spark.read().format("iceberg").load(third.file())))
        .isEqualTo(rows(spark.read().format("delta").load(table)))
        .hasSize(3);
  }
}
