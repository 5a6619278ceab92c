package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base of the capture's FileIO decorators, over Iceberg's own FileIOs (Hadoop's on a
 * temporary directory, the in-memory one): what a decorator does not override reaches the
 * delegate, the file-typed calls go through the decorator's own overrides, and closing a
 * decorator leaves the delegate open.
 */
class ForwardingFileIOTest {

  @TempDir Path dir;

  @Test
  void whatADecoratorDoesNotOverrideReachesTheDelegate() throws IOException {
    HadoopFileIO store = new HadoopFileIO(new Configuration());
    store.initialize(new HashMap<>(Map.of("icegate.test-setting", "on")));
    FileIO io = new ForwardingFileIO(store) {};
    String path = dir.resolve("file.bin").toUri().toString();

    try (PositionOutputStream out = io.newOutputFile(path).create()) {
      out.write(new byte[] {1, 2, 3});
    }
    assertThat(store.newInputFile(path).getLength()).isEqualTo(3);
    assertThat(io.newInputFile(path).getLength()).isEqualTo(3);
    assertThat(io.newInputFile(path, 3).getLength()).isEqualTo(3);
    assertThat(io.properties()).containsEntry("icegate.test-setting", "on");
    io.deleteFile(path);
    assertThat(store.newInputFile(path).exists()).isFalse();
  }

  @Test
  void fileTypedCallsGoThroughTheDecoratorsOverrides() {
    InMemoryFileIO store = new InMemoryFileIO();
    String location = "mem://" + UUID.randomUUID() + "/data.parquet";
    store.addFile(location, new byte[10]);
    List<String> seen = new ArrayList<>();
    FileIO io = new ForwardingFileIO(store) {
      @Override
      public InputFile newInputFile(String path, long length) {
        seen.add("read " + path + " " + length);
        return super.newInputFile(path, length);
      }

      @Override
      public void deleteFile(String path) {
        seen.add("delete " + path);
        super.deleteFile(path);
      }
    };
    DataFile data = DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .withFormat(FileFormat.PARQUET)
        .build();

    InputFile read = io.newInputFile(data);
    io.deleteFile(read);
    assertThat(seen).containsExactly("read " + location + " 10", "delete " + location);
    assertThat(store.fileExists(location)).isFalse();
  }

  @Test
  void closingADecoratorLeavesTheDelegateOpen() {
    InMemoryFileIO store = new InMemoryFileIO();
    new ForwardingFileIO(store) {}.close();
    assertThat(store.isClosed()).isFalse();
  }
}
