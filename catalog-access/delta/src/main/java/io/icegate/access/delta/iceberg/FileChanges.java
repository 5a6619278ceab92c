package io.icegate.access.delta.iceberg;

import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
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
 *
 * <p>Two ways in. A full capture ({@link #readPrevious}) reads the previous capture's manifests, hears
 * every active file of the version ({@link #active}) and removes the rest ({@link
 * #removeInactive}). An incremental one reads no manifest: it hears only
 * the files the commits since the previous capture touched ({@link #changed}), and names the
 * entries to remove by path and partition, so Iceberg opens only the manifests whose partition
 * ranges can hold them. Both record which data files they added and which paths they removed, for
 * validation that checks only what changed.
 */
final class FileChanges {

  private final PartitionSpec spec;
  private final DataFileEntries entries;
  private final DeletionVectorFiles vectors;
  private final RowDelta delta;
  private final Map<String, DataFile> liveData = new HashMap<>();
  private final Map<String, DeleteFile> liveDeletes = new HashMap<>();
  private final Set<String> active = new HashSet<>();
  private final List<DataFile> added = new ArrayList<>();
  private final Set<String> removed = new LinkedHashSet<>();

  /**
   * Against the previous capture ({@code base}), without reading its manifests: ready for {@link
   * #changed}; {@link #readPrevious} first for {@link #active}.
   */
  FileChanges(DataFileEntries entries, DeletionVectorFiles vectors, RowDelta delta) {
    this.spec = entries.spec();
    this.entries = entries;
    this.vectors = vectors;
    this.delta = delta;
  }

  /** Reads the live files of the previous capture from its manifests (a full capture needs them). */
  FileChanges readPrevious(TableMetadata base, FileIO io) {
    Snapshot current = base.currentSnapshot();
    if (current != null) {
      load(current, base, io);
    }
    return this;
  }

  /** The live files of a capture, by data file path. */
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
  void active(ActiveFiles.ActiveFile activeFile) {
    FileStatus file = activeFile.file();
    Optional<DeletionVectorDescriptor> vector = activeFile.vector();
    String path = file.getPath();
    if (!liveData.isEmpty()) {
      active.add(path); // only files of the previous capture can be inactive (a first has none)
    }
    DataFile before = liveData.get(path);
    // a file captured under an older spec is entered again under the current one: its partition
    // tuple must name the current schema's ids (they change once, when column mapping is enabled)
    boolean dataChanged =
        before == null
            || before.fileSizeInBytes() != file.getSize()
            || before.specId() != spec.specId();
    PartitionData partition = entries.partition(activeFile.partitionValues());
    if (dataChanged) {
      if (before != null) {
        removeRows(before);
      }
      addRows(entries.active(file, partition, activeFile.stats()));
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
            removeRows(file);
            DeleteFile deletes = liveDeletes.get(path);
            if (deletes != null) {
              delta.removeDeletes(deletes);
            }
          }
        });
  }

  /**
   * One path the commits since the previous capture touched ({@link CommitChanges}). A file a
   * {@code remove} named and that is live again with the same size is the same immutable file:
   * its entry stays and only a changed deletion vector swaps its delete file (as {@link #active}
   * does). Otherwise its entries from before are removed, named by path and partition (Iceberg
   * matches removals by path and opens only the manifests whose partition ranges can hold them),
   * and it is added as it is now, if it is live.
   */
  void changed(CommitChanges.Change change) {
    String path = change.path();
    Optional<CommitChanges.Before> before = change.before();
    Optional<CommitChanges.After> after = change.after();
    boolean sameFile =
        before.isPresent()
            && after.isPresent()
            && before.get().removed()
            && before.get().size().map(s -> s == after.get().file().getSize()).orElse(true);
    PartitionData partitionBefore =
        before.map(b -> entries.partition(b.partitionValues().orElse(Map.of()))).orElse(null);
    if (before.isPresent() && !sameFile) {
      removeRows(entries.removal(path, partitionBefore));
    }
    Optional<String> deletesBefore =
        before.flatMap(CommitChanges.Before::vector).map(v -> vectors.location(path, v, spec));
    Optional<String> deletesAfter =
        after.flatMap(CommitChanges.After::vector).map(v -> vectors.location(path, v, spec));
    boolean deletesSame = sameFile && deletesBefore.equals(deletesAfter);
    if (deletesBefore.isPresent() && !deletesSame) {
      delta.removeDeletes(
          FileMetadata.deleteFileBuilder(spec)
              .ofPositionDeletes()
              .withPath(deletesBefore.get())
              .withFileSizeInBytes(0)
              .withRecordCount(0)
              .withPartition(partitionBefore)
              .build());
    }
    if (after.isPresent()) {
      CommitChanges.After now = after.get();
      PartitionData partition = entries.partition(now.partitionValues());
      if (!sameFile) {
        addRows(entries.active(now.file(), partition, now.stats()));
      }
      if (now.vector().isPresent() && !deletesSame) {
        delta.addDeletes(vectors.write(path, now.vector().get(), spec, partition));
      }
    }
  }

  /** The data files this capture added (new, or entered again because they changed). */
  List<DataFile> added() {
    return List.copyOf(added);
  }

  /** The paths whose entries this capture removed (some may be added again: see {@link #added}). */
  Set<String> removed() {
    return Set.copyOf(removed);
  }

  /**
   * Entries built elsewhere for files of this version that are new to the capture (a first
   * capture's files streamed before a deletion vector turned up: {@link FirstCapture}).
   */
  void addedBefore(List<DataFile> files) {
    files.forEach(this::addRows);
  }

  private void addRows(DataFile entry) {
    delta.addRows(entry);
    added.add(entry);
  }

  private void removeRows(DataFile file) {
    delta.removeRows(file);
    removed.add(file.location());
  }
}
