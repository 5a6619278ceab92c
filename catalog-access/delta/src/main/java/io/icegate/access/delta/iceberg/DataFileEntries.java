package io.icegate.access.delta.iceberg;

import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.MetricsConfig;
import io.delta.kernel.utils.FileStatus;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.FileIO;

/**
 * Delta data files as Iceberg {@link DataFile} entries of one capture: path and size as the log
 * gives them, the partition tuple from the log's partition values ({@link PartitionValues}), and
 * metrics from the log's statistics ({@link SafeFileMetrics}) or, where the log has none, from the
 * file's Parquet footer.
 *
 * <p>An instance serves one thread: its statistics parser, partition tuple and entry builder are
 * reused from file to file (a new builder makes a new partition tuple, which builds and prints an
 * Avro schema of the partition type each time).
 */
final class DataFileEntries {

  private final PartitionSpec spec;
  private final SafeFileMetrics metrics;
  private final PartitionValues partitions;
  private final FileIO dataIo;
  private final StableSchema.Mapped mapped;
  private final Map<String, String> deltaProperties;
  private final DataFiles.Builder builder;

  /**
   * @param spec the capture's identity spec over {@code mapped}'s schema
   * @param deltaProperties the Delta table's properties (statistics settings)
   * @param dataIo reads the upstream's data files, for footers
   */
  DataFileEntries(
      PartitionSpec spec,
      StableSchema.Mapped mapped,
      Map<String, String> deltaProperties,
      FileIO dataIo) {
    this.spec = spec;
    this.mapped = mapped;
    this.dataIo = dataIo;
    this.deltaProperties = deltaProperties;
    this.metrics = new SafeFileMetrics(mapped.schema(), mapped.physicalPaths(), deltaProperties);
    this.partitions = new PartitionValues(spec, mapped.physicalPaths());
    this.builder = DataFiles.builder(spec);
  }

  /** A new instance for another thread, on the same capture. */
  DataFileEntries another() {
    return new DataFileEntries(spec, mapped, deltaProperties, dataIo);
  }

  PartitionSpec spec() {
    return spec;
  }

  /**
   * @throws IllegalArgumentException when a value cannot be read as its column's type
   */
  PartitionData partition(Map<String, String> partitionValues) {
    return partitions.of(partitionValues);
  }

  /** The entry of an active data file. */
  DataFile active(FileStatus file, PartitionData partition, Optional<String> stats) {
    Metrics fileMetrics =
        metrics
            .fromStats(stats)
            .orElseGet(
                () -> footer(dataIo, file.getPath(), file.getSize(), mapped));
    return cleared()
        .withPath(file.getPath())
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(file.getSize())
        .withPartition(partition)
        .withMetrics(fileMetrics)
        .build();
  }

  /**
   * An entry naming a file to remove by path and partition only (Iceberg matches removals by path
   * and opens only the manifests whose partition ranges can hold it).
   */
  DataFile removal(String path, PartitionData partition) {
    return cleared()
        .withPath(path)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(0)
        .withRecordCount(0)
        .withPartition(partition)
        .build();
  }

  private DataFiles.Builder cleared() {
    builder.clear();
    return builder;
  }


  /** Footer metrics, for files the log has no statistics for. */
  static Metrics footer(FileIO dataIo, String path, long size, StableSchema.Mapped mapped) {
    return ParquetUtil.fileMetrics(
        dataIo.newInputFile(path, size), MetricsConfig.getDefault(), mapped.nameMapping());
  }
}
