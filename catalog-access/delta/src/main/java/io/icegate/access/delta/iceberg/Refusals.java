package io.icegate.access.delta.iceberg;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.FileStatus;
import java.util.Optional;

/**
 * The capture's refusals of what Iceberg readers would read wrongly: a reader feature this mapping
 * cannot serve, data files outside the table location. Each names the feature and a commit file
 * ({@link DeltaVersionCapture.UnrepresentableFeatureException}).
 */
final class Refusals {

  private Refusals() {}

  /** A feature Kernel itself refused to read, named with the version's (or newest) commit file. */
  static DeltaVersionCapture.UnrepresentableFeatureException refused(
      String feature, Engine engine, String tablePath, Optional<Long> version, Exception cause) {
    String commitFile =
        version
            .map(v -> DeltaVersionCapture.commitFile(tablePath, v))
            .orElseGet(() -> LogListing.newestCommit(engine, tablePath));
    return new DeltaVersionCapture.UnrepresentableFeatureException(
        feature, commitFile, cause.getMessage());
  }

  /** A data file must lie under the table's root (as Kernel names the root and the file). */
  static void refuseOutside(FileStatus file, String tablePath, String commitFile) {
    if (!file.getPath().startsWith(tablePath + "/")) {
      throw new DeltaVersionCapture.UnrepresentableFeatureException(
          "data files outside the table location", commitFile, file.getPath());
    }
  }

  /** A reader feature whose data Iceberg readers would read wrongly through this mapping. */
  static void refuseUnservable(Snapshot snapshot, String commitFile) {
    for (String feature : snapshot.getProtocol().getReaderFeatures()) {
      if (!DeltaVersionCapture.SERVABLE_READER_FEATURES.contains(feature)) {
        throw new DeltaVersionCapture.UnrepresentableFeatureException(
            feature, commitFile, "the table's protocol requires reader feature " + feature);
      }
    }
  }
}
