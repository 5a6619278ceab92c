package io.icegate.overlay.generated;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * The generated files one captured metadata references, as {@link GeneratedFilesCollector}
 * counts them live: the metadata file itself and those its metadata log names (kept within the
 * retention, {@link CapturedHistory}), and per retained snapshot its manifest list, its manifests
 * and the position delete files its delete manifests list. Data files are the upstream's and
 * never listed under a generated prefix, so they are not read. Locations in the form {@link
 * GeneratedFiles#local} gives.
 */
final class ReferencedFiles {

  private ReferencedFiles() {}

  /** Every generated file {@code metadata} references, its manifests read through {@code io}. */
  static Set<String> of(TableMetadata metadata, FileIO io) {
    Set<String> files = new HashSet<>();
    add(files, metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> add(files, entry.file()));
    for (Snapshot snapshot : metadata.snapshots()) {
      add(files, snapshot.manifestListLocation());
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        // a manifest shared by several snapshots is read once
        if (add(files, manifest.path()) && manifest.content() == ManifestContent.DELETES) {
          try (ManifestReader<DeleteFile> deletes =
              ManifestFiles.readDeleteManifest(manifest, io, metadata.specsById())) {
            deletes.forEach(file -> add(files, file.location()));
          } catch (IOException e) {
            throw new UncheckedIOException("delete manifest " + manifest.path(), e);
          }
        }
      }
    }
    return files;
  }

  /** The metadata file at {@code location}, or empty when it is gone. */
  static Optional<TableMetadata> read(String location, FileIO io) {
    try {
      return Optional.of(TableMetadataParser.read(io, location));
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  /** Adds {@code location} (when there is one); whether it was new. */
  private static boolean add(Set<String> files, String location) {
    return location != null && files.add(GeneratedFiles.local(location));
  }
}
