package io.icegate.filecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link DataFileCheck} on real tables on local disk: data and delete files written by Iceberg's
 * generic Parquet/ORC/Avro appenders, manifests and manifest lists by Iceberg's commit path, then
 * damaged on disk the way the must-show cases describe.
 */
class DataFileCheckTest {

  @TempDir Path dir;
  private FileTable table;
  private ValidationFileIO io;

  @BeforeEach
  void setUp() {
    table = new FileTable(FileTable.localIO(), "file:" + dir.resolve("t"));
    io = ValidationFileIO.localOnly();
  }

  private List<FileProblem> check() {
    return DataFileCheck.check(table.metadata(), io);
  }

  private static Path local(String location) {
    return Path.of(location.replaceFirst("^file:", ""));
  }

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "ORC", "AVRO"})
  void goodTableOfEachFormatHasNoProblems(FileFormat format) {
    table.append(table.writeData(format, 5), table.writeData(format, 3));
    table.append(table.writeData(format, 7));

    assertThat(check()).isEmpty();
  }

  @Test
  void tableWithoutSnapshotHasNoProblems() {
    assertThat(table.metadata().currentSnapshot()).isNull();
    assertThat(check()).isEmpty();
  }

  @Test
  void truncatedParquetFileWhoseSizeTheManifestAgreesWithFailsOnItsFooter() throws IOException {
    DataFile good = table.writeData(FileFormat.PARQUET, 5);
    DataFile written = table.writeData(FileFormat.PARQUET, 50);
    long truncatedLength = written.fileSizeInBytes() / 2;
    truncate(local(written.location()), truncatedLength);
    table.append(good, withSize(written, truncatedLength));

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).filePath()).isEqualTo(written.location());
    assertThat(problems.get(0).fileFormat()).isEqualTo("PARQUET");
    assertThat(problems.get(0).message()).startsWith("the Parquet footer cannot be read");
  }

  @Test
  void truncatedFileIsShorterThanTheManifestSays() throws IOException {
    DataFile written = table.writeData(FileFormat.PARQUET, 50);
    truncate(local(written.location()), written.fileSizeInBytes() - 10);
    table.append(written, table.writeData(FileFormat.PARQUET, 2));

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).message())
        .isEqualTo(
            "the file is "
                + (written.fileSizeInBytes() - 10)
                + " bytes long but the manifest records "
                + written.fileSizeInBytes()
                + " bytes");
  }

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "ORC", "AVRO"})
  void columnWhoseTypeContradictsTheSchemaIsAProblem(FileFormat format) {
    Schema nameAsInt =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.IntegerType.get()));
    Record row = GenericRecord.create(nameAsInt);
    row.setField("id", 1L);
    row.setField("name", 7);
    DataFile contradicting = table.writeData(format, nameAsInt, List.of(row));
    table.append(table.writeData(format, 3), contradicting);

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).filePath()).isEqualTo(contradicting.location());
    assertThat(problems.get(0).message())
        .isEqualTo("column name (field id 2) is int in the file but string in the table schema");
  }

  @Test
  void promotedTypeAndDroppedColumnStillConform() {
    // Written when id was an int and a column 3 existed; the table now has id long and no 3.
    Schema older =
        new Schema(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "gone", Types.StringType.get()));
    FileTable evolving =
        new FileTable(FileTable.localIO(), "file:" + dir.resolve("evolving"), older, Map.of());
    Record row = GenericRecord.create(older);
    row.setField("id", 1);
    row.setField("name", "a");
    row.setField("gone", "b");
    evolving.append(evolving.writeData(FileFormat.PARQUET, older, List.of(row)));
    evolving.table().updateSchema().updateColumn("id", Types.LongType.get()).commit();
    evolving.table().updateSchema().deleteColumn("gone").commit();

    assertThat(DataFileCheck.check(evolving.metadata(), io)).isEmpty();
  }

  @Test
  void columnWithAFieldIdNoSchemaHasIsAProblem() {
    Schema stranger =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(42, "extra", Types.StringType.get()));
    Record row = GenericRecord.create(stranger);
    row.setField("id", 1L);
    row.setField("extra", "x");
    table.append(table.writeData(FileFormat.PARQUET, stranger, List.of(row)));

    assertThat(check())
        .singleElement()
        .extracting(FileProblem::message)
        .isEqualTo("column extra has field id 42, which no schema of the table has");
  }

  @Test
  void missingFileIsAProblem() throws IOException {
    DataFile gone = table.writeData(FileFormat.PARQUET, 4);
    table.append(gone, table.writeData(FileFormat.PARQUET, 4));
    Files.delete(local(gone.location()));

    assertThat(check())
        .containsExactly(new FileProblem(gone.location(), "PARQUET", "the file does not exist"));
  }

  @Test
  void corruptOrcFileIsAProblem() throws IOException {
    DataFile orc = table.writeData(FileFormat.ORC, 20);
    table.append(orc, table.writeData(FileFormat.ORC, 2));
    // The postscript and footer sit at the end of an ORC file.
    overwrite(local(orc.location()), orc.fileSizeInBytes() - 40, 40);

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).filePath()).isEqualTo(orc.location());
    assertThat(problems.get(0).fileFormat()).isEqualTo("ORC");
    assertThat(problems.get(0).message()).startsWith("the file is not a readable ORC file");
  }

  @Test
  void corruptAvroFileIsAProblem() throws IOException {
    DataFile avro = table.writeData(FileFormat.AVRO, 20);
    table.append(avro, table.writeData(FileFormat.AVRO, 2));
    // The last 16 bytes are the final block's sync marker.
    overwrite(local(avro.location()), avro.fileSizeInBytes() - 16, 16);

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).filePath()).isEqualTo(avro.location());
    assertThat(problems.get(0).fileFormat()).isEqualTo("AVRO");
    assertThat(problems.get(0).message()).contains("does not end with the file's sync marker");
  }

  @Test
  void avroFileWithBadMagicIsAProblem() throws IOException {
    DataFile avro = table.writeData(FileFormat.AVRO, 3);
    table.append(avro);
    overwrite(local(avro.location()), 0, 4);

    assertThat(check())
        .singleElement()
        .extracting(FileProblem::message)
        .isEqualTo("the file is not an Avro container file (wrong magic bytes)");
  }

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "ORC", "AVRO"})
  void rowCountThatDisagreesWithTheManifestIsAProblem(FileFormat format) {
    DataFile written = table.writeData(format, 10);
    DataFile misrecorded =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .copy(written)
            .withRecordCount(11)
            .build();
    table.append(misrecorded, table.writeData(format, 1));

    assertThat(check())
        .containsExactly(
            new FileProblem(
                written.location(),
                format.name(),
                "the file holds 10 rows but the manifest records 11"));
  }

  @Test
  void parquetWithoutFieldIdsPassesWithANameMappingAndFailsWithout() throws IOException {
    DataFile plain = writeParquetWithoutIds(3);
    table.append(plain);

    assertThat(check())
        .singleElement()
        .extracting(FileProblem::message)
        .isEqualTo(
            "the file's columns carry no Iceberg field ids and the table has no name mapping"
                + " (schema.name-mapping.default)");

    table
        .table()
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(FileTable.SCHEMA)))
        .commit();

    assertThat(check()).isEmpty();
  }

  @Test
  void avroWithoutFieldIdsPassesWithANameMappingAndFailsWithout() throws IOException {
    org.apache.avro.Schema plain =
        new org.apache.avro.Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"plain\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"name\",\"type\":[\"null\",\"string\"]}]}");
    Path file = dir.resolve("plain.avro");
    try (org.apache.avro.file.DataFileWriter<org.apache.avro.generic.GenericRecord> writer =
        new org.apache.avro.file.DataFileWriter<>(
            new org.apache.avro.generic.GenericDatumWriter<>(plain))) {
      writer.create(plain, file.toFile());
      for (int i = 0; i < 4; i++) {
        org.apache.avro.generic.GenericRecord row = new org.apache.avro.generic.GenericData.Record(plain);
        row.put("id", (long) i);
        row.put("name", "n" + i);
        writer.append(row);
      }
    }
    table.append(
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("file:" + file)
            .withFormat(FileFormat.AVRO)
            .withFileSizeInBytes(Files.size(file))
            .withRecordCount(4)
            .build());

    assertThat(check()).singleElement().extracting(FileProblem::message)
        .isEqualTo(TableColumns.NO_IDS_NO_MAPPING);

    table
        .table()
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(FileTable.SCHEMA)))
        .commit();

    assertThat(check()).isEmpty();
  }

  @Test
  void orcWithoutFieldIdsPassesWithANameMappingAndFailsWithout() throws IOException {
    org.apache.orc.TypeDescription plain =
        org.apache.orc.TypeDescription.fromString("struct<id:bigint,name:string>");
    Path file = dir.resolve("plain.orc");
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    try (org.apache.orc.Writer writer =
        org.apache.orc.OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            org.apache.orc.OrcFile.writerOptions(conf)
                .setSchema(plain)
                .fileSystem(org.apache.hadoop.fs.FileSystem.getLocal(conf).getRaw()))) {
      var batch = plain.createRowBatch();
      var ids = (org.apache.orc.storage.ql.exec.vector.LongColumnVector) batch.cols[0];
      var names = (org.apache.orc.storage.ql.exec.vector.BytesColumnVector) batch.cols[1];
      for (int i = 0; i < 3; i++) {
        ids.vector[i] = i;
        names.setVal(i, ("n" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      batch.size = 3;
      writer.addRowBatch(batch);
    }
    table.append(
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath("file:" + file)
            .withFormat(FileFormat.ORC)
            .withFileSizeInBytes(Files.size(file))
            .withRecordCount(3)
            .build());

    assertThat(check()).singleElement().extracting(FileProblem::message)
        .isEqualTo(TableColumns.NO_IDS_NO_MAPPING);

    table
        .table()
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(FileTable.SCHEMA)))
        .commit();

    assertThat(check()).isEmpty();
  }

  @Test
  void parquetWithoutIdsAndAColumnTheMappingLacksIsAProblem() throws IOException {
    table
        .table()
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(
                MappingUtil.create(
                    new Schema(Types.NestedField.required(1, "id", Types.LongType.get())))))
        .commit();
    table.append(writeParquetWithoutIds(2));

    assertThat(check())
        .singleElement()
        .extracting(FileProblem::message)
        .isEqualTo(
            "column name has no Iceberg field id and no entry in the table's name mapping");
  }

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "ORC", "AVRO"})
  void goodPositionDeleteFilesConform(FileFormat format) {
    DataFile data = table.writeData(format, 10);
    table.append(data);
    table.addDeletes(table.writePositionDeletes(format, data, 1, 3, 5));

    assertThat(check()).isEmpty();
  }

  @Test
  void deleteFilesAreCheckedToo() throws IOException {
    DataFile data = table.writeData(FileFormat.PARQUET, 10);
    table.append(data);
    DeleteFile missing = table.writePositionDeletes(FileFormat.PARQUET, data, 2);
    DeleteFile corrupt = table.writePositionDeletes(FileFormat.AVRO, data, 4);
    table.addDeletes(missing, corrupt, table.writePositionDeletes(FileFormat.ORC, data, 6));
    Files.delete(local(missing.location()));
    overwrite(local(corrupt.location()), corrupt.fileSizeInBytes() - 16, 16);

    assertThat(check())
        .extracting(FileProblem::filePath)
        .containsExactlyInAnyOrder(missing.location(), corrupt.location());
  }

  @Test
  void unreadableManifestIsOneProblemNamingIt() throws IOException {
    table.append(table.writeData(FileFormat.PARQUET, 1));
    String manifest = table.metadata().currentSnapshot().allManifests(io).get(0).path();
    Files.delete(local(manifest));

    List<FileProblem> problems = check();

    assertThat(problems).hasSize(1);
    assertThat(problems.get(0).filePath()).isEqualTo(manifest);
    assertThat(problems.get(0).message()).startsWith("the manifest cannot be read");
  }

  @Test
  void oneProblemPerBadFileAmongGoodOnes() throws IOException {
    DataFile a = table.writeData(FileFormat.PARQUET, 3);
    DataFile b = table.writeData(FileFormat.ORC, 3);
    DataFile c = table.writeData(FileFormat.AVRO, 3);
    table.append(a, b, c, table.writeData(FileFormat.PARQUET, 3));
    Files.delete(local(a.location()));
    overwrite(local(c.location()), 0, c.fileSizeInBytes()); // every problem at once

    assertThat(check())
        .extracting(FileProblem::filePath)
        .containsExactlyInAnyOrder(a.location(), c.location());
  }

  @Test
  void parallelAndSequentialChecksFindTheSameProblemsInManifestOrder() throws IOException {
    List<DataFile> files = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      files.add(table.writeData(FileFormat.PARQUET, 2));
    }
    table.append(files.toArray(DataFile[]::new));
    for (int i = 0; i < files.size(); i += 3) {
      Files.delete(local(files.get(i).location()));
    }

    List<FileProblem> sequential = DataFileCheck.check(table.metadata(), io, 1);
    List<FileProblem> parallel = DataFileCheck.check(table.metadata(), io, 4);

    assertThat(sequential).hasSize(4);
    assertThat(parallel).isEqualTo(sequential);
    List<FileProblem> streamed = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    DataFileCheck.check(table.metadata(), io, 3, streamed::add);
    assertThat(streamed).containsExactlyInAnyOrderElementsOf(sequential);
    List<FileProblem> defaults = new java.util.ArrayList<>();
    DataFileCheck.check(table.metadata(), io, defaults::add);
    assertThat(defaults).containsExactlyInAnyOrderElementsOf(sequential);
  }

  private DataFile writeParquetWithoutIds(int rows) throws IOException {
    MessageType type =
        MessageTypeParser.parseMessageType(
            "message plain { required int64 id; optional binary name (STRING); }");
    Path file = dir.resolve("plain-" + System.nanoTime() + ".parquet");
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(type).build()) {
      for (int i = 0; i < rows; i++) {
        writer.write(groups.newGroup().append("id", (long) i).append("name", "n" + i));
      }
    }
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("file:" + file)
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(Files.size(file))
        .withRecordCount(rows)
        .build();
  }

  private static DataFile withSize(DataFile file, long size) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .copy(file)
        .withFileSizeInBytes(size)
        .build();
  }

  private static void truncate(Path file, long length) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(length);
    }
  }

  /** Overwrites {@code length} bytes at {@code offset} with a pattern no format produces. */
  private static void overwrite(Path file, long offset, long length) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(offset);
      for (long i = 0; i < length; i++) {
        raf.write(0x5A);
      }
    }
  }
}
