package io.icegate.access.delta.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Reads a table's rows the way Iceberg engines do (Spark's reader does the same steps): plan with
 * the manifests' partition values and bounds, read each Parquet file with the table's {@code
 * schema.name-mapping.default} (iceberg-data's own {@code IcebergGenerics} ignores it), fill
 * identity partition columns from the manifest, drop rows named by position deletes, apply the
 * filter to what remains. Rows come back as plain value lists (timestamps as microseconds), ordered
 * by their first column.
 */
public final class IcebergRows {

  private static final OffsetDateTime EPOCH = OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

  private IcebergRows() {}

  public static List<List<Object>> read(Table table, Long snapshotId, Expression filter) {
    TableScan scan = table.newScan().filter(filter);
    if (snapshotId != null) {
      scan = scan.useSnapshot(snapshotId);
    }
    Schema schema = scan.schema();
    String mappingJson = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    NameMapping mapping = mappingJson == null ? null : NameMappingParser.fromJson(mappingJson);
    List<List<Object>> out = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
      for (FileScanTask task : tasks) {
        GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, schema, schema);
        Schema read = deletes.requiredSchema();
        Map<Integer, ?> constants =
            PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
        Parquet.ReadBuilder builder =
            Parquet.read(table.io().newInputFile(task.file().location()))
                .project(read)
                .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(read, fileSchema, constants));
        if (mapping != null) {
          builder = builder.withNameMapping(mapping);
        }
        // the evaluator compares Iceberg's internal values (microseconds), not java.time ones
        InternalRecordWrapper internal = new InternalRecordWrapper(read.asStruct());
        Evaluator residual = new Evaluator(read.asStruct(), filter == null ? Expressions.alwaysTrue() : filter);
        try (CloseableIterable<Record> records = deletes.filter(builder.build())) {
          for (Record r : records) {
            if (residual.eval(internal.wrap(r))) {
              out.add(values(r, schema.columns().size()));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(Comparator.comparing(r -> ((Number) r.get(0)).longValue()));
    return out;
  }

  private static List<Object> values(Record r, int columns) {
    List<Object> row = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      Object v = r.get(i);
      row.add(v instanceof OffsetDateTime t ? ChronoUnit.MICROS.between(EPOCH, t) : v);
    }
    return row;
  }
}
