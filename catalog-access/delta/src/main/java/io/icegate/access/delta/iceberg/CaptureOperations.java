package io.icegate.access.delta.iceberg;

import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The {@link TableOperations} Iceberg's own snapshot producers run against during one capture: the
 * metadata lives in memory (the caller stores the result; no {@code metadata.json} is written
 * here), manifests and manifest lists go under the generated-files location, and the one new
 * snapshot takes the id derived from the Delta version, so capturing the same version twice yields
 * the same snapshot id.
 */
final class CaptureOperations implements TableOperations {

  private final FileIO io;
  private final String generatedLocation;
  private final long snapshotId;
  private TableMetadata current;

  CaptureOperations(TableMetadata base, FileIO io, String generatedLocation, long snapshotId) {
    this.current = base;
    this.io = io;
    this.generatedLocation = generatedLocation;
    this.snapshotId = snapshotId;
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
      throw new CommitFailedException("a capture's metadata changed under it");
    }
    current = metadata;
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return generatedLocation + "/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    return LocationProviders.locationsFor(current.location(), current.properties());
  }

  /**
   * The id of the captured version; never one the table holds already: iceberg-core asks again
   * until it gets a free id, and this one never changes, so a taken id is refused instead of
   * asked for forever (the capture makes room for it first: {@link DeltaVersionCapture}).
   */
  @Override
  public long newSnapshotId() {
    if (current().snapshot(snapshotId) != null) {
      throw new IllegalStateException(
          "snapshot id " + snapshotId + " of the captured Delta version is already in the table");
    }
    return snapshotId;
  }
}
