package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A capture of a version whose snapshot id (derived from the table identity
 * and the version) the previous capture's metadata already holds. CaptureOperations.newSnapshotId
 * always answers that one id, and iceberg-core's SnapshotProducer.snapshotId asks again while the
 * metadata holds the id it got: the capture spins at 100% CPU forever (seen in a thread dump:
 * TableMetadata.snapshot <- SnapshotProducer.snapshotId <- MergingSnapshotProducer, from
 * AppendedFiles.commit). Each test gives up after 20 s; the spinning thread goes on until the JVM
 * exits.
 */
class SnapshotIdTakenTest extends LocalLakeTest {

  /**
   * A table rolled back to an earlier version (its later commit files deleted, or an older copy
   * restored: the same Delta table id) and written on: the next version after the rollback takes
   * the snapshot id the captured later version had.
   */
  @Test
  void aTableRolledBackAndWrittenOnIsCaptured() {
    Path root = lake.resolve("back");
    delta.create("back", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("back", "EU", 1); // v1
    Path backup = lake.resolve("back-copy");
    RestoredTableTest.copyTree(root, backup);
    lakes.append("back", "US", 2); // v2
    Captured atTwo = captureByPath(delta.engine(), "back", null);

    RecreatedTableTest.delete(root);
    RestoredTableTest.copyTree(backup, root); // rolled back to v1
    Captured atOne = captureByPath(delta.engine(), "back", atTwo); // a full load of v1: passes
    lakes.append("back", "APAC", 3); // v2'

    Captured again =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> captureByPath(delta.engine(), "back", atOne));
    Captured first = lakes.capture("back", null, "back-first");
    assertThat(CapturedTables.liveState(io, again.metadata()).keySet())
        .isEqualTo(CapturedTables.liveState(io, first.metadata()).keySet());
    // v2' is other rows than the v2 captured before: a reader holding v2's id must not get them
    assertThat(again.metadata().currentSnapshot().snapshotId())
        .isNotEqualTo(atTwo.metadata().currentSnapshot().snapshotId());
  }

  /**
   * A chosen version (Delta Sharing: the version the share serves) older than the captured one,
   * and already captured once: its snapshot id is in the metadata.
   */
  @Test
  void anOlderChosenVersionAlreadyCapturedIsCaptured() {
    delta.create("older", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    long v1 = lakes.append("older", "EU", 1);
    Captured one = chosen("older", Optional.of(v1), null);
    lakes.append("older", "US", 2);
    Captured two = chosen("older", Optional.empty(), one);
    assertThat(two.metadata().snapshots()).hasSize(2);

    Captured back =
        assertTimeoutPreemptively(
            Duration.ofSeconds(20), () -> chosen("older", Optional.of(v1), two));
    assertThat(back.metadata().currentSnapshot().summary())
        .containsEntry(DeltaVersionCapture.DELTA_VERSION, "" + v1);
  }

  Captured chosen(String table, Optional<Long> version, Captured previous) {
    return DeltaVersionCapture.captureChanges(
        delta.engine(),
        delta.location(table),
        version,
        previous == null ? null : previous.metadata(),
        previous == null ? Optional.empty() : Optional.of(previous.deltaState()),
        lakes.target(table, table));
  }
}
