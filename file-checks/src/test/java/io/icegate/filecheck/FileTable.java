package io.icegate.filecheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.io.OutputFile;

/**
 * A real Iceberg table for validation tests: Iceberg's own commit path ({@link BaseTable} over an
 * in-memory {@link TableOperations}) writes manifests and the manifest list through the given
 * FileIO (local disk or S3), and Iceberg's generic appenders write Parquet, ORC and Avro data and
 * delete files. {@link #metadata()} round-trips through metadata JSON, as capture stores it.
 */
final class FileTable {

  static final Schema SCHEMA =
      new Schema(
          org.apache.iceberg.types.Types.NestedField.required(
              1, "id", org.apache.iceberg.types.Types.LongType.get()),
          org.apache.iceberg.types.Types.NestedField.optional(
              2, "name", org.apache.iceberg.types.Types.StringType.get()));

  private final FileIO io;
  private final String location;
  private final Operations ops;
  private final Table table;

  FileTable(FileIO io, String location, Schema schema, Map<String, String> properties) {
    this.io = io;
    this.location = location;
    Map<String, String> props = new HashMap<>(properties);
    props.putIfAbsent(TableProperties.FORMAT_VERSION, "2");
    this.ops =
        new Operations(
            io,
            TableMetadata.newTableMetadata(
                schema, PartitionSpec.unpartitioned(), SortOrder.unsorted(), location, props));
    this.table = new BaseTable(ops, "t");
  }

  FileTable(FileIO io, String location) {
    this(io, location, SCHEMA, Map.of());
  }

  /** Reads and writes local paths, with or without a {@code file:} scheme. */
  static FileIO localIO() {
    return new FileIO() {
      @Override
      public org.apache.iceberg.io.InputFile newInputFile(String path) {
        return org.apache.iceberg.Files.localInput(path);
      }

      @Override
      public OutputFile newOutputFile(String path) {
        return org.apache.iceberg.Files.localOutput(path.replaceFirst("^file:", ""));
      }

      @Override
      public void deleteFile(String path) {
        new java.io.File(path.replaceFirst("^file:", "")).delete();
      }
    };
  }

  Table table() {
    return table;
  }

  /** The current metadata as capture would hand it over: written as JSON and parsed back. */
  TableMetadata metadata() {
    return TableMetadataParser.fromJson(TableMetadataParser.toJson(ops.current()));
  }

  static List<Record> rows(int count) {
    List<Record> rows = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      Record row = GenericRecord.create(SCHEMA);
      row.setField("id", (long) i);
      row.setField("name", "row-" + i);
      rows.add(row);
    }
    return rows;
  }

  String newPath(FileFormat format) {
    return location + "/data/" + UUID.randomUUID() + "." + format.name().toLowerCase();
  }

  /** Writes {@code rows} in {@code format} with {@code schema} (not necessarily the table's). */
  DataFile writeData(FileFormat format, Schema schema, List<Record> rows) {
    String path = newPath(format);
    OutputFile out = io.newOutputFile(path);
    FileAppender<Record> appender = new GenericAppenderFactory(schema).newAppender(out, format);
    try (appender) {
      appender.addAll(rows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(path)
        .withFormat(format)
        .withFileSizeInBytes(appender.length())
        .withMetrics(appender.metrics())
        .build();
  }

  DataFile writeData(FileFormat format, int rowCount) {
    return writeData(format, SCHEMA, rows(rowCount));
  }

  /** A position delete file deleting {@code positions} of {@code target}. */
  DeleteFile writePositionDeletes(FileFormat format, DataFile target, long... positions) {
    String path = newPath(format);
    PositionDeleteWriter<Record> writer =
        new GenericAppenderFactory(SCHEMA)
            .newPosDeleteWriter(
                EncryptedFiles.plainAsEncryptedOutput(io.newOutputFile(path)), format, null);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      for (long position : positions) {
        writer.write(delete.set(target.location(), position, null));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDeleteFile();
  }

  void append(DataFile... files) {
    var append = table.newAppend();
    for (DataFile file : files) {
      append.appendFile(file);
    }
    append.commit();
  }

  void addDeletes(DeleteFile... files) {
    var delta = table.newRowDelta();
    for (DeleteFile file : files) {
      delta.addDeletes(file);
    }
    delta.commit();
  }

  /** Metadata kept in memory; manifests and manifest lists go through the FileIO. */
  private static final class Operations implements TableOperations {
    private final FileIO io;
    private TableMetadata current;

    Operations(FileIO io, TableMetadata initial) {
      this.io = io;
      this.current = initial;
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      if (base != current) {
        throw new IllegalStateException("concurrent commit in a single-threaded test");
      }
      current = metadata;
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return current.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(current.location(), current.properties());
    }
  }
}
