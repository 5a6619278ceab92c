package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;

/**
 * A Delta table deleted and written anew at the same path between two captures: its commit files
 * have the names of the captured table's, so commits after the captured version applied to the
 * previous capture would serve the old table's files with the new table's changes. The next
 * capture must show exactly the new table (the same rows and live files as a first capture of it),
 * whatever its number of versions against the captured one, and none of the old table's snapshots
 * stays reachable. Tables are written by Kernel's own writer on local disk ({@link LocalCaptures}).
 */
class RecreatedTableTest extends LocalLakeTest {

  @Test
  void aNewTableWithMoreVersionsIsCapturedAsItselfNotOnTopOfTheOld() {
    Captured old = oldTableCaptured("more");
    writeAnew("more", 4); // versions 0 to 4; the old capture was of version 2
    assertCapturedAsNewTable("more", old);
  }

  @Test
  void aNewTableWithAsManyVersionsIsNotTakenForTheCapturedOne() {
    Captured old = oldTableCaptured("same");
    writeAnew("same", 2); // versions 0 to 2, as the captured table had
    assertCapturedAsNewTable("same", old);
  }

  @Test
  void aNewTableWithFewerVersionsIsCapturedAsItself() {
    Captured old = oldTableCaptured("fewer");
    writeAnew("fewer", 1);
    assertCapturedAsNewTable("fewer", old);
  }

  /** Once the new table is captured, its next commit is captured from the commits alone again. */
  @Test
  void theNewTablesNextCommitIsIncremental() {
    Captured old = oldTableCaptured("next");
    writeAnew("next", 3);
    Captured anew = captureByPath("next", old);
    lakes.append("next", "EU", 50);

    Captured after = captureByPath("next", anew);
    assertThat(after.incremental()).isTrue();
    assertThat(after.addedDataFiles()).singleElement();
    Captured full = lakes.capture("next", null, "next-full");
    assertThat(CapturedTables.rows(io, after.metadata()))
        .isEqualTo(CapturedTables.rows(io, full.metadata()));
  }

  /**
   * The same log, its commit files untouched: an unchanged table is its previous capture, and a
   * new commit is read from the commits alone (the stamp check passes, not only the new-table one).
   */
  @Test
  void theSameTableKeepsItsCaptureAndHistory() {
    Captured old = oldTableCaptured("kept");
    assertThat(captureByPath("kept", old).metadata()).isSameAs(old.metadata());
    lakes.append("kept", "US", 9);
    Captured next = captureByPath("kept", old);
    assertThat(next.incremental()).isTrue();
    assertThat(next.metadata().snapshots()).hasSize(2);
  }

  /**
   * Every snapshot id a capture ever served keeps naming the rows it named: the new table's
   * versions (as many as the old table's, so the same version numbers) take ids the old table's
   * history never had, also across a second re-creation, and a capture repeated from the same
   * state gives the same ids.
   */
  @Test
  void aNewTablesVersionsTakeSnapshotIdsTheOldTableNeverHad() {
    delta.create("ids", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("ids", "EU", 1);
    Captured atOne = captureByPath("ids", null);
    lakes.append("ids", "US", 2);
    Captured old = captureByPath("ids", atOne);
    Set<Long> oldIds = ids(old);
    assertThat(oldIds).hasSize(2);

    writeAnew("ids", 2);
    Captured anew = captureByPath("ids", old);
    assertThat(ids(anew)).doesNotContainAnyElementsOf(oldIds);
    assertThat(ids(captureByPath("ids", old))).isEqualTo(ids(anew));
    lakes.append("ids", "APAC", 3);
    Captured next = captureByPath("ids", anew);
    assertThat(next.incremental()).isTrue();
    assertThat(ids(next)).hasSize(2).doesNotContainAnyElementsOf(oldIds);

    writeAnew("ids", 3);
    Captured third = captureByPath("ids", next);
    assertThat(ids(third)).doesNotContainAnyElementsOf(oldIds).doesNotContainAnyElementsOf(ids(next));
  }

  static Set<Long> ids(Captured captured) {
    return captured.metadata().snapshots().stream()
        .map(Snapshot::snapshotId)
        .collect(Collectors.toSet());
  }

  // --- helpers ---

  /** A table of versions 0 to 2 (ids 1 and 2), captured by path. */
  Captured oldTableCaptured(String table) {
    delta.create(table, DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append(table, "EU", 1);
    lakes.append(table, "US", 2);
    return captureByPath(table, null);
  }

  /**
   * Deletes the table's directory and writes a new table there: created, then {@code lastVersion}
   * one-row appends (ids from 101). Its log files are dated a few seconds after the old table's,
   * as a table written anew later is: the test itself writes both within a second.
   */
  void writeAnew(String table, int lastVersion) {
    Path root = lake.resolve(table);
    delete(root);
    delta.create(table, DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    for (int v = 1; v <= lastVersion; v++) {
      lakes.append(table, v % 2 == 0 ? "EU" : "APAC", 100 + v);
    }
    dateLogLater(root);
  }

  /** Dates every log file of the table at {@code root} a few seconds from now. */
  static void dateLogLater(Path root) {
    long later = System.currentTimeMillis() + 5_000;
    try (Stream<Path> log = Files.list(root.resolve("_delta_log"))) {
      for (Path file : log.toList()) {
        Files.setLastModifiedTime(file, FileTime.fromMillis(later));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void assertCapturedAsNewTable(String table, Captured old) {
    Captured anew = captureByPath(table, old);
    Captured first = lakes.capture(table, null, table + "-first");

    assertThat(anew.metadata()).isNotSameAs(old.metadata());
    assertThat(CapturedTables.rows(io, anew.metadata()))
        .isEqualTo(CapturedTables.rows(io, first.metadata()))
        .allSatisfy(row -> assertThat((Long) row.get(0)).isGreaterThan(100L));
    assertThat(CapturedTables.liveState(io, anew.metadata()))
        .isEqualTo(CapturedTables.liveState(io, first.metadata()));
    // the old table's versions are not this table's: time travel to them must fail
    assertThat(anew.metadata().snapshots())
        .singleElement()
        .extracting(Snapshot::snapshotId)
        .isEqualTo(anew.metadata().currentSnapshot().snapshotId());
    assertThat(anew.incremental()).isFalse();
    assertThat(anew.deltaState().toJson()).isEqualTo(first.deltaState().toJson());
  }

  Captured captureByPath(String table, Captured previous) {
    return captureByPath(delta.engine(), table, previous);
  }

  static void delete(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
