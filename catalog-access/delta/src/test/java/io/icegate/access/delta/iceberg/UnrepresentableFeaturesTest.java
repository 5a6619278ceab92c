package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Target;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.UnrepresentableFeatureException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta logs whose tables Iceberg readers would read wrongly, written as literal commit files
 * following the Delta protocol (PROTOCOL.md: "Protocol Evolution", "Table Features", "Catalog-managed
 * tables", "Variant Data Type", "Add File and Remove File"): each capture is refused with {@link
 * UnrepresentableFeatureException} naming the feature and the commit file of the captured version,
 * whichever of Kernel or the capture notices first.
 */
class UnrepresentableFeaturesTest {

  static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}";
  static final String VARIANT_SCHEMA =
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},"
          + "{\"name\":\"payload\",\"type\":\"variant\",\"nullable\":true,\"metadata\":{}}]}";

  @TempDir Path lake;
  @TempDir Path warehouse;
  Engine engine;
  FileIO io;

  @BeforeEach
  void setUp() {
    engine = DefaultEngine.create(new Configuration());
    io = new HadoopFileIO(new Configuration());
  }

  @Test
  void catalogManagedCommitsAreRefusedByName() {
    commit(
        "managed",
        0,
        "{\"commitInfo\":{\"inCommitTimestamp\":1700000000000,\"operation\":\"CREATE TABLE\"}}",
        protocol("catalogManaged", "inCommitTimestamp"),
        metaData(SCHEMA, "\"delta.enableInCommitTimestamps\":\"true\""));

    assertRefused("managed", 0, "catalogManaged");
  }

  @Test
  void aVariantColumnIsRefusedByName() {
    commit("variant", 0, protocol("variantType"), metaData(VARIANT_SCHEMA, ""));

    assertRefused("variant", 0, "variantType");
  }

  @Test
  void aReaderFeatureIcebergReadersWouldIgnoreIsRefusedByName() {
    commit("widened", 0, protocol("typeWidening"), metaData(SCHEMA, ""));

    assertRefused("widened", 0, "typeWidening");
  }

  @Test
  void aReaderFeatureKernelDoesNotKnowIsRefusedByName() {
    commit("future", 0, protocol("someFutureFeature"), metaData(SCHEMA, ""));

    assertRefused("future", 0, "someFutureFeature");
  }

  @Test
  void aDataFileOutsideTheTableLocationIsRefusedInAFullAndInAnIncrementalCapture() {
    commit("outside", 0, "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}", metaData(SCHEMA, ""));
    commit("outside", 1, add("part-0.parquet"));
    TableMetadata first = capture("outside", null);
    assertThat(first.currentSnapshot()).isNotNull();

    String elsewhere = lake.resolve("elsewhere").resolve("part-1.parquet").toUri().toString();
    commit("outside", 2, add(elsewhere));
    assertRefused("outside", 2, "data files outside the table location", first);
    assertRefused("outside", 2, "data files outside the table location", null);
  }

  // --- helpers ---

  void assertRefused(String table, long version, String feature) {
    assertRefused(table, version, feature, null);
  }

  void assertRefused(String table, long version, String feature, TableMetadata previous) {
    assertThatThrownBy(() -> capture(table, previous))
        .isInstanceOf(UnrepresentableFeatureException.class)
        .hasMessageContaining(feature)
        .satisfies(
            e -> {
              UnrepresentableFeatureException refused = (UnrepresentableFeatureException) e;
              assertThat(refused.feature()).isEqualTo(feature);
              assertThat(refused.commitFile())
                  .endsWith(table + "/_delta_log/" + String.format("%020d.json", version));
            });
  }

  TableMetadata capture(String table, TableMetadata previous) {
    return DeltaVersionCapture.captureChanges(
            engine,
            location(table),
            Optional.empty(),
            previous,
            Optional.empty(),
            new Target(
                "account/catalog/" + table,
                warehouse.resolve(table).toUri().toString().replaceAll("/$", ""),
                io,
                io))
        .metadata();
  }

  String location(String table) {
    return lake.resolve(table).toUri().toString();
  }

  static String protocol(String... features) {
    String list = "[\"" + String.join("\",\"", features) + "\"]";
    return "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":"
        + list
        + ",\"writerFeatures\":"
        + list
        + "}}";
  }

  static String metaData(String schema, String configuration) {
    return "{\"metaData\":{\"id\":\"6f0f5d3e-0000-4000-8000-000000000001\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
        + "\"schemaString\":"
        + quote(schema)
        + ",\"partitionColumns\":[],\"configuration\":{"
        + configuration
        + "},\"createdTime\":1700000000000}}";
  }

  static String add(String path) {
    return "{\"add\":{\"path\":"
        + quote(path)
        + ",\"partitionValues\":{},\"size\":100,\"modificationTime\":1700000000000,\"dataChange\":true,"
        + "\"stats\":\"{\\\"numRecords\\\":1,\\\"minValues\\\":{\\\"id\\\":1},\\\"maxValues\\\":{\\\"id\\\":1},\\\"nullCount\\\":{\\\"id\\\":0}}\"}}";
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  void commit(String table, long version, String... actions) {
    Path log = lake.resolve(table).resolve("_delta_log");
    try {
      Files.createDirectories(log);
      Files.writeString(
          log.resolve(String.format("%020d.json", version)),
          String.join("\n", actions) + "\n",
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
