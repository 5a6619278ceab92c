package io.icegate.access.delta.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.LongType;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A table whose log at the captured path was replaced by a file copy of an earlier state (the same
 * Delta table id) and written on: never captured on top of the old capture, which names files the
 * copy does not hold. Tables written by Kernel's own writer on local disk.
 */
class RestoredTableTest extends LocalLakeTest {

  /**
   * A table restored from a file copy of an earlier state (same Delta table id, so not "a new
   * table") and written on: its commit file of the captured version is another file (another stamp),
   * so the capture loads in full, finds the same table id and returns the previous capture as is.
   */
  @Test
  void aTableRestoredFromACopyAndWrittenOnAtTheCapturedVersionIsNotTheOldCapture() {
    Path root = lake.resolve("r");
    delta.create("r", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("r", "EU", 1); // v1
    Path backup = lake.resolve("r-backup");
    copyTree(root, backup);
    lakes.append("r", "US", 2); // v2
    Captured old = captureByPath(delta.engine(), "r", null);

    RecreatedTableTest.delete(root);
    copyTree(backup, root);
    lakes.append("r", "APAC", 3); // v2', same table id
    RecreatedTableTest.dateLogLater(root);

    Captured again = captureByPath(delta.engine(), "r", old);
    Captured first = lakes.capture("r", null, "r-first");
    // the live files first (a wrong capture names files the table no longer holds), then the rows
    assertThat(CapturedTables.liveState(io, again.metadata()).keySet())
        .isEqualTo(CapturedTables.liveState(io, first.metadata()).keySet());
    assertThat(CapturedTables.rows(io, again.metadata()))
        .isEqualTo(CapturedTables.rows(io, first.metadata()));
  }

  /** As above, with one more version than captured: the new commit applied on the old capture. */
  @Test
  void aTableRestoredFromACopyAndWrittenOnPastTheCapturedVersionIsNotBuiltOnTheOldCapture() {
    Path root = lake.resolve("s");
    delta.create("s", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("s", "EU", 1); // v1
    Path backup = lake.resolve("s-backup");
    copyTree(root, backup);
    lakes.append("s", "US", 2); // v2
    Captured old = captureByPath(delta.engine(), "s", null);

    RecreatedTableTest.delete(root);
    copyTree(backup, root);
    lakes.append("s", "APAC", 3); // v2'
    lakes.append("s", "APAC", 4); // v3'
    RecreatedTableTest.dateLogLater(root);

    Captured again = captureByPath(delta.engine(), "s", old);
    Captured first = lakes.capture("s", null, "s-first");
    // the live files first (a wrong capture names files the table no longer holds), then the rows
    assertThat(CapturedTables.liveState(io, again.metadata()).keySet())
        .isEqualTo(CapturedTables.liveState(io, first.metadata()).keySet());
    assertThat(CapturedTables.rows(io, again.metadata()))
        .isEqualTo(CapturedTables.rows(io, first.metadata()));
  }




  /**
   * A head remembered from a full load after which the table was written anew: the stamp is of the
   * commit file Kernel loaded (from its listing), so the new table's file does not match and the
   * remembered head is not used; the caller loads the new table in full.
   */
  @Test
  void aHeadLoadedBeforeTheTableWasWrittenAnewIsNotUsedForTheNewTable() {
    Path root = lake.resolve("hd");
    delta.create("hd", DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    lakes.append("hd", "EU", 1); // v1
    var loaded = delta.snapshot("hd"); // the full load
    RecreatedTableTest.delete(root);
    delta.create(
        "hd", DeltaVersionCaptureTest.ORDERS.add("extra", LongType.LONG, true), List.of("region"),
        Map.of());
    delta.commitNothing("hd"); // v1 of the new table
    RecreatedTableTest.dateLogLater(root);
    DeltaHeads heads = new DeltaHeads();
    heads.remember(delta.engine(), delta.location("hd"), loaded);

    assertThat(heads.since(delta.engine(), delta.location("hd"))).isEmpty();
  }

  static void copyTree(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
