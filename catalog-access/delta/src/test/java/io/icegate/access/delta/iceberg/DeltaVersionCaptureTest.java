package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta versions written by Delta Kernel's own writer (data files with Kernel's statistics,
 * checkpoints, column mapping) captured as Iceberg snapshots, then read back with Iceberg's generic
 * reader, which plans with the manifests' bounds and partition values and maps columns by id or by
 * the name mapping, as Spark's and Trino's Iceberg readers do.
 */
class DeltaVersionCaptureTest {

  static final long TS = 1_700_000_000_123_456L; // sub-millisecond: .123456 s

  static final StructType ORDERS =
      new StructType()
          .add("id", LongType.LONG, false)
          .add("name", StringType.STRING, true)
          .add("ts", TimestampType.TIMESTAMP, true)
          .add("region", StringType.STRING, true);

  @TempDir Path lake;
  @TempDir Path warehouse;
  KernelTableWriter delta;
  FileIO io;

  @BeforeEach
  void setUp() {
    delta = new KernelTableWriter(lake, null, null);
    io = new HadoopFileIO(new Configuration());
  }

  TableMetadata capture(String table, TableMetadata previous) {
    Target target =
        new Target("account/catalog/" + table, warehouse.resolve(table).toUri().toString().replaceAll("/$", ""), io, io);
    return DeltaVersionCapture.capture(delta.engine(), delta.snapshot(table), previous, target);
  }

  long createOrders(String table) {
    return delta.create(table, ORDERS, List.of("region"), Map.of());
  }

  long appendOrders(String table, String region, Object[]... rows) {
    List<Object[]> withRegion = new ArrayList<>();
    for (Object[] row : rows) {
      withRegion.add(new Object[] {row[0], row[1], row[2], region});
    }
    return delta.append(table, Map.of("region", Literal.ofString(region)), withRegion);
  }

  Table table(TableMetadata metadata) {
    return new BaseTable(new CaptureOperations(metadata, io, warehouse.toString(), 0), "captured");
  }

  List<List<Object>> read(TableMetadata metadata) {
    return IcebergRows.read(table(metadata), null, Expressions.alwaysTrue());
  }

  List<List<Object>> read(TableMetadata metadata, Expression filter) {
    return IcebergRows.read(table(metadata), null, filter);
  }

  List<List<Object>> readAt(TableMetadata metadata, Snapshot snapshot) {
    return IcebergRows.read(table(metadata), snapshot.snapshotId(), Expressions.alwaysTrue());
  }

  @Test
  void partitionedVersionsBecomeSnapshotsWithTheRowsDeltaHolds() {
    createOrders("orders");
    long v1 = appendOrders("orders", "EU", new Object[] {1L, "a", TS}, new Object[] {2L, "b", TS + 5});
    long v2 = appendOrders("orders", "US", new Object[] {3L, "c", null});

    TableMetadata first = capture("orders", null);
    assertThat(first.formatVersion()).isEqualTo(2);
    assertThat(first.spec().fields()).singleElement().satisfies(f -> {
      assertThat(f.transform().isIdentity()).isTrue();
      assertThat(first.schema().findColumnName(f.sourceId())).isEqualTo("region");
    });
    assertThat(first.currentSnapshot().snapshotId())
        .isEqualTo(DeltaVersionCapture.snapshotId("account/catalog/orders", v2));
    assertThat(first.currentSnapshot().summary()).containsEntry(DeltaVersionCapture.DELTA_VERSION, "" + v2);
    assertThat(first.currentSnapshot().timestampMillis())
        .isEqualTo(delta.snapshot("orders").getTimestamp(delta.engine()));
    // partition values come from the log: the files hold no region column
    assertThat(read(first))
        .containsExactly(
            List.of(1L, "a", TS, "EU"), List.of(2L, "b", TS + 5, "EU"), listOf(3L, "c", null, "US"));
    assertThat(read(first, Expressions.equal("region", "US"))).containsExactly(listOf(3L, "c", null, "US"));
    assertThat(v1).isLessThan(v2);
  }

  @Test
  void subMillisecondTimestampsAreFoundAtTheirBound() {
    createOrders("times");
    appendOrders("times", "EU", new Object[] {1L, "a", TS - 10}, new Object[] {2L, "b", TS});
    appendOrders("times", "EU", new Object[] {3L, "c", TS + 10_000_000});
    TableMetadata captured = capture("times", null);

    // the maximum of the first file is TS; Delta writes it truncated to the millisecond
    Expression atBound = Expressions.equal("ts", TS);
    List<FileScanTask> planned = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table(captured).newScan().filter(atBound).planFiles()) {
      tasks.forEach(planned::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(planned).hasSize(1);
    assertThat(read(captured, atBound)).containsExactly(List.of(2L, "b", TS, "EU"));
  }

  @Test
  void aNewCommitReusesTheManifestsOfUnchangedFilesAndKeepsTheEarlierVersion() {
    createOrders("grow");
    appendOrders("grow", "EU", new Object[] {1L, "a", TS});
    TableMetadata first = capture("grow", null);
    long v2 = appendOrders("grow", "US", new Object[] {2L, "b", TS});
    TableMetadata second = capture("grow", first);

    Snapshot before = first.currentSnapshot();
    Snapshot after = second.currentSnapshot();
    assertThat(after.parentId()).isEqualTo(before.snapshotId());
    assertThat(after.snapshotId()).isEqualTo(DeltaVersionCapture.snapshotId("account/catalog/grow", v2));
    assertThat(after.timestampMillis()).isGreaterThanOrEqualTo(before.timestampMillis());
    Set<String> reused = paths(before.allManifests(io));
    assertThat(paths(after.allManifests(io))).containsAll(reused).hasSize(reused.size() + 1);
    assertThat(read(second)).containsExactly(List.of(1L, "a", TS, "EU"), List.of(2L, "b", TS, "US"));
    // time travel to the earlier captured version
    assertThat(readAt(second, before))
        .containsExactly(List.of(1L, "a", TS, "EU"));
    // capturing the same version again changes nothing
    assertThat(capture("grow", second)).isSameAs(second);
    // the metadata survives Iceberg's JSON form (it is what the catalog stores and serves)
    TableMetadata parsed = TableMetadataParser.fromJson(TableMetadataParser.toJson(second));
    assertThat(parsed.snapshots()).hasSize(2);
  }

  @Test
  void removedFilesLeaveTheSnapshotAndCheckpointedLogsAreRead() {
    createOrders("shrink");
    appendOrders("shrink", "EU", new Object[] {1L, "a", TS});
    appendOrders("shrink", "US", new Object[] {2L, "b", TS});
    TableMetadata first = capture("shrink", null);
    delta.removeFiles("shrink", p -> p.contains("region=EU"));
    delta.checkpoint("shrink");
    TableMetadata second = capture("shrink", first);

    assertThat(read(second)).containsExactly(List.of(2L, "b", TS, "US"));
    assertThat(readAt(second, first.currentSnapshot()))
        .hasSize(2);
  }

  @Test
  void aFileWithoutStatisticsGetsItsRecordCountFromTheFooter() {
    createOrders("bare");
    delta.appendWithoutStats(
        "bare",
        Map.of("region", Literal.ofString("EU")),
        List.of(new Object[] {1L, "a", TS, "EU"}, new Object[] {2L, "b", TS, "EU"}));
    TableMetadata captured = capture("bare", null);

    List<DataFile> files = new ArrayList<>();
    captured.currentSnapshot().addedDataFiles(io).forEach(files::add);
    assertThat(files).singleElement().satisfies(f -> assertThat(f.recordCount()).isEqualTo(2));
    assertThat(read(captured)).hasSize(2);
  }

  @Test
  void columnMappingEnabledOnAnExistingPartitionedTableThenARenameAndAnAddedColumnKeepTheRows() {
    StructType address =
        new StructType().add("city", StringType.STRING, true).add("zip", StringType.STRING, true);
    StructType schema =
        new StructType()
            .add("id", LongType.LONG, false)
            .add("name", StringType.STRING, true)
            .add("address", address, true)
            .add("region", StringType.STRING, true);
    delta.create("mapped", schema, List.of("region"), Map.of());
    delta.append(
        "mapped",
        Map.of("region", Literal.ofString("EU")),
        List.<Object[]>of(new Object[] {1L, "a", null, "EU"}));
    TableMetadata first = capture("mapped", null);
    assertThat(ids(first.schema()).values()).allMatch(id -> id >= StableSchema.FIRST_ASSIGNED_ID);

    delta.changeProperties("mapped", Map.of("delta.columnMapping.mode", "name"));
    StructType current = delta.snapshot("mapped").getSchema();
    StructField name = current.get("name");
    delta.changeSchema(
        "mapped",
        new StructType()
            .add(current.get("id"))
            .add(new StructField("label", name.getDataType(), name.isNullable(), name.getMetadata()))
            .add(current.get("address"))
            .add(current.get("region"))
            .add("added", IntegerType.INTEGER, true));
    TableMetadata second = capture("mapped", first);

    StructType mapped = delta.snapshot("mapped").getSchema();
    for (String column : List.of("id", "label", "address", "region", "added")) {
      int deltaId = ((Number) mapped.get(column).getMetadata().get("delta.columnMapping.id")).intValue();
      assertThat(second.schema().findField(column).fieldId()).as(column).isEqualTo(deltaId);
    }
    assertThat(second.schema().findField("name")).isNull();
    assertThat(second.schemas()).hasSize(2);
    // the file written before column mapping has no field ids: read through the name mapping,
    // under the physical name the column kept
    String physical = (String) mapped.get("label").getMetadata().get("delta.columnMapping.physicalName");
    assertThat(NameMappingParser.fromJson(second.property(TableProperties.DEFAULT_NAME_MAPPING, null)).find(physical).id())
        .isEqualTo(second.schema().findField("label").fieldId());
    // the partition column's id changed too: the file is entered again under a spec on the new id
    assertThat(second.specs()).hasSize(2);
    assertThat(second.schema().findColumnName(second.spec().fields().get(0).sourceId()))
        .isEqualTo("region");
    // one partition field id names one (source, transform) across all specs, as iceberg-core's
    // Partitioning.partitionType demands of every filtered scan (spark-it found id 1000 twice)
    Map<Integer, String> fieldsById = new HashMap<>();
    for (PartitionSpec spec : second.specs()) {
      for (PartitionField field : spec.fields()) {
        String definition = field.sourceId() + "/" + field.transform();
        assertThat(fieldsById.putIfAbsent(field.fieldId(), definition))
            .as("partition field %d", field.fieldId())
            .isIn(null, definition);
      }
    }
    assertThat(second.spec().fields().get(0).fieldId())
        .isGreaterThan(first.spec().fields().get(0).fieldId());
    assertThat(read(second)).containsExactly(listOf(1L, "a", null, "EU", null));
    // the snapshot captured before would read the renumbered columns as missing: dropped
    assertThat(second.snapshots()).singleElement();
    assertThat(second.snapshot(first.currentSnapshot().snapshotId())).isNull();
  }

  @Test
  void columnMappingEnabledOnAnExistingTableDropsTheSnapshotsCapturedBeforeAndKeepsLaterOnes() {
    delta.create("plain", ORDERS, List.of(), Map.of());
    delta.append("plain", Map.of(), List.<Object[]>of(new Object[] {1L, "a", TS, "EU"}));
    TableMetadata first = capture("plain", null);
    Map<String, Integer> idsBefore = ids(first.schema());

    delta.changeProperties("plain", Map.of("delta.columnMapping.mode", "name"));
    TableMetadata second = capture("plain", first);
    // Delta numbered the existing columns; the table's one name mapping now gives the old file's
    // columns those ids, so only snapshots on them can read it
    assertThat(ids(second.schema()).values()).allMatch(id -> id < StableSchema.FIRST_ASSIGNED_ID);
    assertThat(second.snapshots()).singleElement();
    assertThat(second.snapshot(first.currentSnapshot().snapshotId())).isNull();
    assertThat(read(second)).containsExactly(List.of(1L, "a", TS, "EU"));
    // ids are never reused: the earlier schema stays, and the last id covers it
    assertThat(second.schemas()).hasSize(2);
    assertThat(second.lastColumnId()).isGreaterThanOrEqualTo(Collections.max(idsBefore.values()));

    // (Kernel writes no data into column-mapped tables: a commit without files)
    delta.commitNothing("plain");
    TableMetadata third = capture("plain", second);
    // from the change on, history is kept again and time travel reads each version's rows
    assertThat(third.snapshots()).hasSize(2);
    assertThat(third.schema().asStruct()).isEqualTo(second.schema().asStruct());
    assertThat(readAt(third, second.currentSnapshot())).containsExactly(List.of(1L, "a", TS, "EU"));
    assertThat(read(third)).containsExactly(List.of(1L, "a", TS, "EU"));
  }

  static Map<String, Integer> ids(Schema schema) {
    return schema.columns().stream()
        .flatMap(f -> flatten(f, "").stream())
        .collect(Collectors.toMap(e -> e.getKey(), e -> e.getValue()));
  }

  static List<Map.Entry<String, Integer>> flatten(Types.NestedField field, String prefix) {
    List<Map.Entry<String, Integer>> out = new ArrayList<>();
    out.add(Map.entry(prefix + field.name(), field.fieldId()));
    if (field.type().isStructType()) {
      field.type().asStructType().fields().forEach(f -> out.addAll(flatten(f, prefix + field.name() + ".")));
    }
    return out;
  }

  static Set<String> paths(List<ManifestFile> manifests) {
    return manifests.stream().map(ManifestFile::path).collect(Collectors.toSet());
  }

  static List<Object> listOf(Object... values) {
    return new ArrayList<>(java.util.Arrays.asList(values));
  }
}
