package io.icegate.filecheck;

import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Checks one Parquet data or delete file by its footer alone (no row group is read): the footer
 * parses, every column maps by Iceberg field id (or through the table's name mapping when the file
 * carries no ids) to a column of the table with a compatible type, and the row groups hold the
 * manifest's record count.
 */
final class ParquetFileCheck {

  private ParquetFileCheck() {}

  /**
   * @param input the file, whose length is already known to equal the manifest's
   * @return a sentence saying what is wrong, or empty when the file conforms
   */
  static Optional<String> problem(
      ContentFile<?> file, org.apache.iceberg.io.InputFile input, TableColumns columns) {
    MessageType fileSchema;
    long rows;
    // A plain configuration: Parquet's default builds a Hadoop Configuration per file, which parses
    // Hadoop's default XML resources each time (most of a footer check's cost when measured).
    ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).build();
    try (ParquetFileReader reader = ParquetFileReader.open(new FooterInput(input), options)) {
      fileSchema = reader.getFooter().getFileMetaData().getSchema();
      rows = reader.getRecordCount();
    } catch (IOException | RuntimeException e) {
      return Optional.of("the Parquet footer cannot be read: " + DataFileCheck.reason(e));
    }

    if (!ParquetSchemaUtil.hasIds(fileSchema)) {
      Optional<NameMapping> mapping = columns.nameMapping();
      if (mapping.isEmpty()) {
        return Optional.of(TableColumns.NO_IDS_NO_MAPPING);
      }
      fileSchema = ParquetSchemaUtil.applyNameMapping(fileSchema, mapping.get());
    }
    for (var column : fileSchema.getColumns()) {
      if (column.getPrimitiveType().getId() == null) {
        return Optional.of(TableColumns.unmapped(String.join(".", column.getPath())));
      }
    }
    Set<Integer> carried = new HashSet<>();
    collectIds(fileSchema, carried);
    MessageType read = fileSchema;
    Optional<String> nonConforming =
        columns.nonConforming(() -> ParquetSchemaUtil.convert(read), carried);
    if (nonConforming.isPresent()) {
      return nonConforming;
    }
    if (rows != file.recordCount()) {
      return Optional.of(DataFileCheck.rowCountMismatch(rows, file.recordCount()));
    }
    return Optional.empty();
  }

  /** The ids the file's columns really carry (a converter invents ids for the rest). */
  private static void collectIds(GroupType group, Set<Integer> ids) {
    for (Type field : group.getFields()) {
      if (field.getId() != null) {
        ids.add(field.getId().intValue());
      }
      if (!field.isPrimitive()) {
        collectIds(field.asGroupType(), ids);
      }
    }
  }

  /** Parquet's view of an Iceberg {@link org.apache.iceberg.io.InputFile}. */
  private record FooterInput(org.apache.iceberg.io.InputFile file) implements InputFile {

    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
      return new DelegatingSeekableInputStream(stream) {
        @Override
        public long getPos() throws IOException {
          return stream.getPos();
        }

        @Override
        public void seek(long newPos) throws IOException {
          stream.seek(newPos);
        }
      };
    }
  }
}
