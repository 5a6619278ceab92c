package io.icegate.gateway.fixturestore;

import java.io.IOException;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileAppender;

/** One append commit of a real Parquet data file, written with Iceberg's generic writer. */
public final class ParquetAppend {
  private ParquetAppend() {}

  /**
   * Writes {@code rows} to {@code table.location() + "/data/" + file} and commits an append of
   * it.
   *
   * @param partitionPath the file's partition ({@code kind=click}), or null when unpartitioned
   * @return the committed data file
   */
  public static DataFile commit(Table table, String file, String partitionPath, List<Record> rows)
      throws IOException {
    String path = table.location() + "/data/" + file;
    FileAppender<Record> appender = new GenericAppenderFactory(table.schema())
        .newAppender(table.io().newOutputFile(path), FileFormat.PARQUET);
    try (appender) {
      rows.forEach(appender::add);
    }
    DataFiles.Builder builder = DataFiles.builder(table.spec()).withPath(path)
        .withFormat(FileFormat.PARQUET).withFileSizeInBytes(appender.length())
        .withMetrics(appender.metrics());
    if (partitionPath != null) {
      builder.withPartitionPath(partitionPath);
    }
    DataFile dataFile = builder.build();
    table.newAppend().appendFile(dataFile).commit();
    return dataFile;
  }
}
