package io.icegate.overlay.tablevalidation;

import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.filecheck.FileProblem;
import io.icegate.overlay.generated.DeltaCaptureRecord;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * The checks of a captured Delta table (issue 26) beside the current snapshot's full check:
 *
 * <ul>
 *   <li><b>Incremental.</b> When the capture this one extended validated clean and the capture's
 *       stored change record names what it added ({@link DeltaCaptureRecord}, kept with the
 *       capture in the store, so any gateway sharing it sees it), only the data files it added
 *       and the delete files of those are checked; every other file keeps the earlier clean
 *       verdict. So a validation costs what the change costs.
 *   <li><b>Time travel.</b> A retained snapshot ({@code CapturedHistory}) may name data files the
 *       current one no longer does, which the upstream may have vacuumed since. Each such file is
 *       checked for existence only (one metadata request each), at every validation; one that is
 *       gone is a validation error naming the snapshot and its Delta version, so the table is
 *       hidden rather than time travel returning partial rows. (Chosen over dropping such
 *       snapshots at capture: validation is where "gone files" are reported for every table,
 *       and an administrator sees which version and file; shortening the Overlay's retention
 *       below the upstream's vacuum horizon, or the override, clears it.)
 * </ul>
 */
final class DeltaFileChecks {

  private DeltaFileChecks() {}

  /**
   * Which files of a captured Delta table's current snapshot to check: with {@link
   * FileScope#CHANGED}, only those its capture added when its change record says it extended the
   * capture validated clean just before it ({@code expected}); else all.
   */
  static Predicate<ContentFile<?>> which(FileScope scope, Captures.Capture capture,
      Optional<ValidationStatus> expected) {
    if (scope == FileScope.ALL || expected.isEmpty()) {
      return file -> true;
    }
    ValidationStatus before = expected.get();
    CapturePointer pointer = capture.pointer();
    return DeltaCaptureRecord.of(capture).change()
        .filter(c -> c.baseGeneration() == pointer.captureGeneration() - 1
            && before.captureGeneration() == c.baseGeneration()
            && before.state() == ValidationState.VALID)
        .map(c -> addedOnly(c.addedDataFiles()))
        .orElse(file -> true);
  }

  /** The files of the current snapshot an incremental check reads: those {@code added} names. */
  private static Predicate<ContentFile<?>> addedOnly(Set<String> added) {
    return file -> file instanceof DeleteFile delete
        ? delete.referencedDataFile() == null || added.contains(delete.referencedDataFile())
        : added.contains(file.location());
  }

  /**
   * One problem per data file a retained, non-current snapshot references that the current
   * snapshot does not and that no longer exists; empty without such snapshots.
   */
  static List<FileProblem> vacuumed(TableMetadata metadata, FileIO io) {
    Snapshot current = metadata.currentSnapshot();
    if (current == null || metadata.snapshots().size() < 2) {
      return List.of();
    }
    Map<String, List<String>> manifests = new HashMap<>();
    Set<String> live = new HashSet<>(dataFiles(current, metadata, io, manifests));
    Map<String, Snapshot> onlyEarlier = new LinkedHashMap<>();
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.snapshotId() != current.snapshotId()) {
        for (String path : dataFiles(snapshot, metadata, io, manifests)) {
          if (!live.contains(path)) {
            onlyEarlier.putIfAbsent(path, snapshot);
          }
        }
      }
    }
    List<FileProblem> problems = new ArrayList<>();
    for (Map.Entry<String, Snapshot> entry : onlyEarlier.entrySet()) {
      String why;
      try {
        if (io.newInputFile(entry.getKey()).exists()) {
          continue;
        }
        why = "no longer exists (vacuumed upstream?)";
      } catch (RuntimeException e) {
        why = "cannot be checked: " + e.getMessage();
      }
      Snapshot snapshot = entry.getValue();
      problems.add(new FileProblem(entry.getKey(), "PARQUET", "time-travel snapshot "
          + snapshot.snapshotId() + " (Delta version "
          + snapshot.summary().get(DeltaVersionCapture.DELTA_VERSION) + ") references this "
          + "file, which " + why + ": reading that snapshot would fail or miss rows"));
    }
    return problems;
  }

  /** The live data files of {@code snapshot}; each manifest read once per call ({@code seen}). */
  private static List<String> dataFiles(Snapshot snapshot, TableMetadata metadata, FileIO io,
      Map<String, List<String>> seen) {
    List<String> files = new ArrayList<>();
    for (ManifestFile manifest : snapshot.dataManifests(io)) {
      files.addAll(seen.computeIfAbsent(manifest.path(), path -> {
        List<String> paths = new ArrayList<>();
        try (ManifestReader<DataFile> reader =
            ManifestFiles.read(manifest, io, metadata.specsById()).select(List.of("file_path"))) {
          reader.forEach(file -> paths.add(file.location()));
        } catch (IOException e) {
          throw new UncheckedIOException("manifest " + path, e);
        }
        return paths;
      }));
    }
    return files;
  }
}
