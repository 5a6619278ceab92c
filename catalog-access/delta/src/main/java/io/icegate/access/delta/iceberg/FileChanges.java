package io.icegate.access.delta.iceberg;

import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The difference between the files of the previous capture and the active files of the Delta
 * version being captured, handed to a {@link RowDelta} as it is found: a new data file is added, a
 * file no longer active is removed, a file whose deletion vector changed gets its old delete file
 * replaced. Unchanged files produce nothing, so Iceberg keeps their manifests as they are.
 */
final class FileChanges {

  private final PartitionSpec spec;
  private final SafeFileMetrics metrics;
  private final PartitionValues partitions;
  private final DeletionVectorFiles vectors;
  private final FileIO dataIo;
  private final StableSchema.Mapped mapped;
  private final RowDelta delta;
  private final Map<String, DataFile> liveData = new HashMap<>();
  private final Map<String, DeleteFile> liveDeletes = new HashMap<>();
  private final Set<String> active = new HashSet<>();

  FileChanges(
      TableMetadata base,
      FileIO generatedIo,
      SafeFileMetrics metrics,
      PartitionValues partitions,
      DeletionVectorFiles vectors,
      FileIO dataIo,
      StableSchema.Mapped mapped,
      RowDelta delta) {
    this.spec = base.spec();
    this.metrics = metrics;
    this.partitions = partitions;
    this.vectors = vectors;
    this.dataIo = dataIo;
    this.mapped = mapped;
    this.delta = delta;
    Snapshot current = base.currentSnapshot();
    if (current != null) {
      load(current, base, generatedIo);
    }
  }

  /** The live files of the previous capture, by data file path. */
  private void load(Snapshot current, TableMetadata base, FileIO io) {
    try {
      for (ManifestFile manifest : current.dataManifests(io)) {
        try (ManifestReader<DataFile> files = ManifestFiles.read(manifest, io, base.specsById())) {
          files.forEach(f -> liveData.put(f.location(), f.copyWithoutStats()));
        }
      }
      for (ManifestFile manifest : current.deleteManifests(io)) {
        try (ManifestReader<DeleteFile> files =
            ManifestFiles.readDeleteManifest(manifest, io, base.specsById())) {
          files.forEach(f -> liveDeletes.put(f.referencedDataFile(), f.copyWithoutStats()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading the previous capture's manifests failed", e);
    }
  }

  /** One active file of the Delta version. */
  void active(
      FileStatus file,
      Map<String, String> partitionValues,
      Optional<String> stats,
      Optional<DeletionVectorDescriptor> vector) {
    String path = file.getPath();
    active.add(path);
    DataFile before = liveData.get(path);
    // a file captured under an older spec is entered again under the current one: its partition
    // tuple must name the current schema's ids (they change once, when column mapping is enabled)
    boolean dataChanged =
        before == null
            || before.fileSizeInBytes() != file.getSize()
            || before.specId() != spec.specId();
    PartitionData partition = partitions.of(partitionValues);
    if (dataChanged) {
      if (before != null) {
        delta.removeRows(before);
      }
      Metrics fileMetrics =
          metrics
              .fromStats(stats)
              .orElseGet(() -> DeltaVersionCapture.footer(dataIo, path, file.getSize(), mapped));
      delta.addRows(DeltaVersionCapture.dataFile(spec, file, partition, fileMetrics));
    }
    DeleteFile deletesBefore = liveDeletes.get(path);
    Optional<String> deletesNow = vector.map(v -> vectors.location(path, v, spec));
    boolean deletesSame =
        !dataChanged
            && deletesBefore != null
            && deletesNow.isPresent()
            && deletesBefore.location().equals(deletesNow.get());
    if (deletesBefore != null && !deletesSame) {
      delta.removeDeletes(deletesBefore);
    }
    if (vector.isPresent() && !deletesSame) {
      delta.addDeletes(vectors.write(path, vector.get(), spec, partition));
    }
  }

  /** Removes every file of the previous capture the Delta version no longer has. */
  void removeInactive() {
    liveData.forEach(
        (path, file) -> {
          if (!active.contains(path)) {
            delta.removeRows(file);
            DeleteFile deletes = liveDeletes.get(path);
            if (deletes != null) {
              delta.removeDeletes(deletes);
            }
          }
        });
  }
}
