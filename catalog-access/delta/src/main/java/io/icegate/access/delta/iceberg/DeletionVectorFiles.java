package io.icegate.access.delta.iceberg;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.FileIO;

/**
 * A Delta deletion vector as an Iceberg format-2 position delete file: the vector's row indexes
 * (positions in the data file, from 0, exactly Iceberg's {@code pos}) read with Delta Kernel,
 * written with Iceberg's Avro position delete writer in the data file's partition, with {@code
 * referenced_data_file} set. The file's name derives from the data file and the vector's unique id,
 * so a vector is written once per spec, and a changed vector (a later DELETE on the same file) gets a new
 * file while the old one stays for the snapshots that used it.
 */
final class DeletionVectorFiles {

  private final Engine engine;
  private final String tablePath;
  private final FileIO io;
  private final String generatedLocation;

  /**
   * @param tablePath the Delta table's root, against which relative vectors resolve
   * @param generatedLocation where generated files go
   */
  DeletionVectorFiles(Engine engine, String tablePath, FileIO io, String generatedLocation) {
    this.engine = engine;
    this.tablePath = tablePath;
    this.io = io;
    this.generatedLocation = generatedLocation;
  }

  /**
   * Where the delete file of this vector on this data file, in a partition of {@code spec}, lives
   * (a data file entered again under a new spec gets its deletes again, in a new file).
   */
  String location(String dataFilePath, DeletionVectorDescriptor vector, PartitionSpec spec) {
    UUID name =
        UUID.nameUUIDFromBytes(
            (dataFilePath + "\n" + vector.getUniqueId() + "\n" + spec.specId())
                .getBytes(StandardCharsets.UTF_8));
    // as the FileIO spells it: that is the location its writer records in the delete file (Hadoop's
    // writes file:/x for file:///x), and iceberg-core removes a delete file only by its exact
    // recorded location, so a removal named any other way removes nothing
    return io.newOutputFile(generatedLocation + "/deletes/" + name + "-deletes.avro").location();
  }

  /** Reads the vector and writes its delete file at {@link #location}. */
  DeleteFile write(
      String dataFilePath, DeletionVectorDescriptor vector, PartitionSpec spec, StructLike partition) {
    long[] positions =
        DeletionVectorUtils.loadNewDvAndBitmap(engine, tablePath, vector)._2.toArray();
    java.util.Arrays.sort(positions); // Iceberg requires positions in order
    String location = location(dataFilePath, vector, spec);
    try {
      PositionDeleteWriter<Object> writer =
          Avro.writeDeletes(io.newOutputFile(location))
              .withSpec(spec)
              .withPartition(partition)
              .overwrite()
              .buildPositionWriter();
      PositionDelete<Object> delete = PositionDelete.create();
      try (writer) {
        for (long position : positions) {
          writer.write(delete.set(dataFilePath, position));
        }
      }
      return FileMetadata.deleteFileBuilder(spec)
          .copy(writer.toDeleteFile())
          .withReferencedDataFile(dataFilePath)
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + location + " failed", e);
    }
  }
}
