package io.icegate.access.delta.iceberg;

import static io.icegate.access.delta.iceberg.CountedEngine.commitName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.icegate.access.delta.iceberg.DeltaVersionCapture.Captured;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.iceberg.TableMetadata;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one commit after a captured version is read without listing the log ({@link
 * NextCommitProbe}), and what is read is exactly what Kernel's listing would have given: the same
 * changes, end version, timestamp, protocol and metadata. Every other answer of the two existence
 * checks (no commit, several, a commit landing between them, a failed check) must end in Kernel's
 * listing and the newest version, or in a version the table really had. Tables are written by
 * Kernel's own writer on local disk and read through Kernel's default engine, with its log
 * listings counted and chosen existence checks steered ({@link CountedEngine}).
 */
class NextCommitProbeTest extends LocalLakeTest {

  CountedEngine engine;

  @BeforeEach
  void setUp() {
    engine = new CountedEngine(delta.engine());
  }

  @Test
  void theOneNewCommitIsReadWithoutListingTheLogAndAsTheListingReadsIt() {
    long v = table("one", 2);
    long next = lakes.append("one", "APAC", 10);
    assertThat(next).isEqualTo(v + 1);
    String path = delta.location("one");

    CommitChanges probed = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isZero();
    // the three checks were made, by name: the next commit, the one after it and the captured one
    assertThat(engine.checked())
        .extracting(NextCommitProbeTest::name)
        .containsExactlyInAnyOrder(commitName(v + 1), commitName(v + 2), commitName(v));

    engine.reset();
    CommitChanges listed = listed(path, v, v + 1);
    assertSame(probed, listed);
    assertThat(probed.endVersion()).isEqualTo(v + 1);
    assertThat(probed.commits()).isOne();
    assertThat(probed.changes())
        .singleElement()
        .satisfies(c -> assertThat(c.before()).isEmpty())
        .satisfies(c -> assertThat(c.after().orElseThrow().partitionValues()).containsEntry("region", "APAC"));
  }

  /** A commit that changes the metadata: the probed read must carry it as the listed read does. */
  @Test
  void theOneNewCommitsMetadataAndProtocolAreThoseTheListingReads() {
    long v = table("meta", 1);
    delta.changeProperties("meta", Map.of("team.owner", "sales"));
    String path = delta.location("meta");

    CommitChanges probed = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isZero();
    CommitChanges listed = listed(path, v, v + 1);

    assertSame(probed, listed);
    assertThat(probed.metadata()).isPresent();
    assertThat(probed.metadata().get().getConfiguration()).containsEntry("team.owner", "sales");
    assertThat(probed.changes()).isEmpty();

    // a table's creation commit sets the protocol too
    CommitChanges first = CommitChanges.read(newTableEngine("fresh"), delta.location("fresh"), -1,
        Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isZero();
    assertThat(first.protocol()).isPresent();
    assertSame(first, listed(delta.location("fresh"), -1, 0));
  }

  @Test
  void severalNewCommitsAreListedAndReadToTheNewest() {
    long v = table("several", 1);
    lakes.append("several", "EU", 10);
    lakes.append("several", "US", 11);
    long newest = lakes.append("several", "APAC", 12);
    String path = delta.location("several");

    CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isGreaterThanOrEqualTo(1);
    assertThat(read.endVersion()).isEqualTo(newest);
    assertThat(read.commits()).isEqualTo(3);
    assertThat(read.changes()).hasSize(3);
    assertSame(read, listed(path, v, newest));
  }

  /**
   * No commit since: the next two commit files are missing and the captured version's is there,
   * so the answer is "no change" without a listing (an unchanged table's capture reads nothing of
   * its log). Without the captured version's commit file (cleaned up after a checkpoint, or the
   * table written anew with fewer versions) the listing decides, as before.
   */
  @Test
  void noNewCommitIsNoChangeWithoutAListingWhileTheCapturedCommitIsThere() {
    long v = table("none", 2);
    String path = delta.location("none");
    CommitChanges none = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(none.commits()).isZero();
    assertThat(none.endVersion()).isEqualTo(v);
    assertThat(none.changes()).isEmpty();
    assertThat(none.protocol()).isEmpty();
    assertThat(none.metadata()).isEmpty();
    assertThat(engine.logListings()).isZero();
    assertThat(engine.checked())
        .extracting(NextCommitProbeTest::name)
        .contains(commitName(v), commitName(v + 1), commitName(v + 2));

    engine.reset();
    engine.onCheckOf(commitName(v), CountedEngine.missing());
    assertThat(CommitChanges.read(engine, path, v, Optional.empty())).isEmpty();
    assertThat(engine.logListings()).isGreaterThanOrEqualTo(1);
  }

  /** An unchanged table's capture by path returns the previous capture itself, listing nothing. */
  @Test
  void anUnchangedTableIsCapturedAsItWasWithoutReadingItsLog() {
    table("same", 2);
    Captured first = captureByPath(delta.engine(), "same", null, Optional.empty());
    engine.reset();
    Captured again =
        captureByPath(engine, "same", first.metadata(), Optional.of(first.deltaState()));
    assertThat(again.metadata()).isSameAs(first.metadata());
    assertThat(again.addedDataFiles()).isEmpty();
    assertThat(again.removedDataFiles()).isEmpty();
    assertThat(again.deltaState().toJson()).isEqualTo(first.deltaState().toJson());
    // a full load of the version would list the log (and read its checkpoint, if any)
    assertThat(engine.logListings()).isZero();
  }

  /**
   * A commit lands after the check for {@code v + 2} said "none": the probe reads {@code v + 1},
   * which was the newest when checked — a real version of the table, read exactly.
   */
  @Test
  void aCommitLandingAfterTheSecondCheckLeavesTheVersionThatWasNewest() {
    long v = table("race", 1);
    lakes.append("race", "EU", 10);
    String path = delta.location("race");
    // the landing commit is written ahead in a copy and only copied in by the check: a Kernel
    // append inside the check takes over a second on a loaded machine, past the probe's wait for
    // its checks (SECOND_CHECK_WAIT), which then rightly goes to the listing
    Path ahead = lake.resolve("race-ahead");
    RestoredTableTest.copyTree(lake.resolve("race"), ahead);
    lakes.append("race-ahead", "US", 11);
    engine.onCheckOf(
        commitName(v + 2), CountedEngine.checkBefore(() -> land(ahead, lake.resolve("race"))));

    CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isZero();
    assertThat(read.endVersion()).isEqualTo(v + 1);
    assertThat(delta.snapshot("race").getVersion()).isEqualTo(v + 2); // it did land
    engine.reset();
    assertSame(read, listed(path, v, v + 1));
  }

  /**
   * The check for {@code v + 2} answers "missing" though the commit is on disk (a store whose
   * listing and lookups disagree for a moment): {@code v + 1} was still written before {@code v +
   * 2}, so reading it alone reads a real version.
   */
  @Test
  void aSecondCheckThatMissesAnExistingCommitStillReadsARealVersion() {
    long v = table("missed", 1);
    lakes.append("missed", "EU", 10);
    lakes.append("missed", "US", 11);
    String path = delta.location("missed");
    engine.onCheckOf(commitName(v + 2), CountedEngine.missing());

    CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isZero();
    assertThat(read.endVersion()).isEqualTo(v + 1);
    engine.reset();
    assertSame(read, listed(path, v, v + 1));
  }

  /**
   * A commit lands just before the check for {@code v + 2}: the probe's {@code newest()} is false,
   * so the read it made of {@code v + 1} is dropped and Kernel's listing reads to the newest.
   */
  @Test
  void aCommitLandingBeforeTheSecondCheckIsListedAndReadToTheNewest() {
    long v = table("landed", 1);
    lakes.append("landed", "EU", 10);
    String path = delta.location("landed");
    engine.onCheckOf(commitName(v + 2), CountedEngine.checkAfter(() -> lakes.append("landed", "US", 11)));

    CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(engine.logListings()).isGreaterThanOrEqualTo(1);
    assertThat(read.endVersion()).isEqualTo(v + 2);
    assertThat(read.commits()).isEqualTo(2);
    engine.reset();
    assertSame(read, listed(path, v, v + 2));
  }

  /** The probe itself: a present second commit makes {@code newest()} false. */
  @Test
  void theProbeSaysWhetherTheNextCommitIsTheNewest() throws IOException {
    long v = table("probe", 1);
    lakes.append("probe", "EU", 10);
    String path = delta.location("probe");
    String next = engine.getFileSystemClient().resolvePath(DeltaVersionCapture.commitFile(path, v + 1));

    NextCommitProbe.Probe alone = NextCommitProbe.next(engine, path, v).orElseThrow();
    assertThat(alone.commit().orElseThrow().status().getPath()).isEqualTo(next);
    assertThat(alone.newest()).isTrue();

    lakes.append("probe", "US", 11);
    assertThat(NextCommitProbe.next(engine, path, v).orElseThrow().newest()).isFalse();
    assertThat(NextCommitProbe.next(engine, path, v + 2).orElseThrow().commit()).isEmpty();
    assertThat(engine.logListings()).isZero();
  }

  /** A check that fails (not "missing") on either commit leaves the answer to Kernel's listing. */
  @Test
  void aFailingCheckFallsBackToTheListing() {
    long v = table("failing", 1);
    long one = lakes.append("failing", "EU", 10);
    String path = delta.location("failing");
    CommitChanges expected = listed(path, v, one);

    for (long failed : List.of(v + 1, v + 2)) {
      engine.reset();
      engine.onCheckOf(commitName(failed), CountedEngine.failing());
      CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
      assertThat(engine.logListings()).as("failed check of %d", failed).isGreaterThanOrEqualTo(1);
      assertSame(read, expected);
    }
    // the same with two commits since: the listing reads to the newest
    long newest = lakes.append("failing", "US", 11);
    engine.reset();
    engine.onCheckOf(commitName(v + 2), CountedEngine.failing());
    CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
    assertThat(read.endVersion()).isEqualTo(newest);
    engine.reset();
    assertSame(read, listed(path, v, newest));
  }

  /**
   * A file system may report a refused check unchecked (not every client maps its errors to
   * IOException): the next commit's refusal leaves the answer to Kernel's listing, like the
   * second commit's.
   */
  @Test
  void anUncheckedRefusalOfEitherCheckFallsBackToTheListing() {
    long v = table("unchecked", 1);
    long one = lakes.append("unchecked", "EU", 10);
    String path = delta.location("unchecked");
    CommitChanges expected = listed(path, v, one);
    for (long refused : List.of(v + 1, v + 2)) {
      engine.reset();
      engine.onCheckOf(
          commitName(refused),
          (p, real) -> {
            throw new IllegalStateException("403 Forbidden " + p);
          });
      CommitChanges read = CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow();
      assertThat(engine.logListings()).as("refused check of %d", refused).isGreaterThanOrEqualTo(1);
      assertSame(read, expected);
    }
  }

  /**
   * A check for the second commit that never answers (a stuck request) does not hold the read:
   * after {@link NextCommitProbe#SECOND_CHECK_WAIT} the listing answers, with the same result.
   * The check stays blocked until the read has returned, so a read that waited for it would never
   * return (the test's timeout).
   */
  @Test
  void aStuckSecondCheckGivesWayToTheListing() throws Exception {
    long v = table("stuck", 1);
    long one = lakes.append("stuck", "EU", 10);
    String path = delta.location("stuck");
    CommitChanges expected = listed(path, v, one);
    CountDownLatch released = new CountDownLatch(1);
    engine.reset();
    engine.onCheckOf(
        commitName(v + 2),
        (p, real) -> {
          try {
            released.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cancelled by the reader: answer nothing more
          }
          throw new FileNotFoundException(p);
        });
    try {
      CommitChanges read =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () -> CommitChanges.read(engine, path, v, Optional.empty()).orElseThrow());
      assertThat(engine.logListings()).isGreaterThanOrEqualTo(1);
      assertSame(read, expected);
    } finally {
      released.countDown();
    }
  }

  /**
   * The engine given to Kernel answers a listing of the log with the commit alone (at or after the
   * listed name), and any other directory's listing from the real file system.
   */
  @Test
  void theListingEngineAnswersOnlyTheLogWithTheCommit() throws IOException {
    long v = table("listing", 2);
    String path = delta.location("listing");
    NextCommitProbe.Probe probe = NextCommitProbe.next(engine, path, v - 1).orElseThrow();
    FileStatus commit = probe.commit().orElseThrow().status();
    String log = commit.getPath().substring(0, commit.getPath().lastIndexOf('/') + 1);
    var listing = NextCommitProbe.listing(engine, commit).getFileSystemClient();

    assertThat(paths(listing.listFrom(log + String.format("%020d", 0)))).containsExactly(commit.getPath());
    assertThat(paths(listing.listFrom(commit.getPath()))).containsExactly(commit.getPath());
    assertThat(paths(listing.listFrom(log + String.format("%020d", v + 1)))).isEmpty();
    assertThat(engine.logListings()).isZero();

    // another directory (a partition's data files, the table root, a directory inside the log)
    // is really listed
    Files.createDirectories(lake.resolve("listing/_delta_log/_sidecars"));
    Files.writeString(lake.resolve("listing/_delta_log/_sidecars/1.parquet"), "x");
    String root = engine.getFileSystemClient().resolvePath(path);
    for (String from : List.of(root + "/region=EU/0", root + "/0", log + "_sidecars/0")) {
      List<String> real = paths(delta.engine().getFileSystemClient().listFrom(from));
      assertThat(paths(listing.listFrom(from))).as(from).isEqualTo(real);
    }
    assertThat(paths(listing.listFrom(root + "/region=EU/0"))).isNotEmpty();
    assertThat(paths(listing.listFrom(root + "/0"))).anyMatch(p -> p.endsWith("/_delta_log"));
    assertThat(paths(listing.listFrom(log + "_sidecars/0"))).singleElement().asString().endsWith("/1.parquet");
  }

  /**
   * A capture by path after one append reads the commit without listing the log and leaves what a
   * full capture of the version leaves.
   */
  @Test
  void anAppendAfterACaptureIsCapturedIncrementallyWithoutListingTheLog() {
    table("capture", 2);
    Captured first = captureByPath(delta.engine(), "capture", null, Optional.empty());
    lakes.append("capture", "APAC", 10);

    Captured second = captureByPath(engine, "capture", first.metadata(), Optional.of(first.deltaState()));
    assertThat(second.incremental()).isTrue();
    assertThat(engine.logListings()).isZero();
    assertThat(second.addedDataFiles()).singleElement();

    Captured full = lakes.capture("capture", null, "capture-full");
    assertThat(CapturedTables.liveState(io, second.metadata()))
        .hasSize(3)
        .isEqualTo(CapturedTables.liveState(io, full.metadata()));
    assertThat(CapturedTables.rows(io, second.metadata()))
        .isEqualTo(CapturedTables.rows(io, full.metadata()));
    assertThat(second.deltaState().toJson()).isEqualTo(full.deltaState().toJson());
    assertThat(second.metadata().currentSnapshot().timestampMillis())
        .isEqualTo(full.metadata().currentSnapshot().timestampMillis());
  }

  // --- helpers ---

  /** The same read through Kernel's listing: an end version given never probes. */
  CommitChanges listed(String path, long fromExclusive, long toInclusive) {
    int before = engine.logListings();
    CommitChanges listed =
        CommitChanges.read(engine, path, fromExclusive, Optional.of(toInclusive)).orElseThrow();
    // the count sees Kernel's listing, so a zero elsewhere means no listing
    assertThat(engine.logListings()).isGreaterThan(before);
    return listed;
  }

  /** A new table with only its creation commit; the counted engine, reset. */
  CountedEngine newTableEngine(String table) {
    delta.create(table, DeltaVersionCaptureTest.ORDERS, List.of("region"), Map.of());
    engine.reset();
    return engine;
  }

  Captured captureByPath(
      Engine with,
      String table,
      TableMetadata previous,
      Optional<CapturedDeltaState> state) {
    return DeltaVersionCapture.captureChanges(
        with, delta.location(table), Optional.empty(), previous, state, lakes.target(table, table));
  }

  static void assertSame(CommitChanges actual, CommitChanges expected) {
    assertThat(actual.changes()).isEqualTo(expected.changes());
    assertThat(actual.commits()).isEqualTo(expected.commits());
    assertThat(actual.endVersion()).isEqualTo(expected.endVersion());
    assertThat(actual.endTimestamp()).isEqualTo(expected.endTimestamp());
    assertThat(actual.protocol()).isEqualTo(expected.protocol());
    assertThat(actual.metadata()).isEqualTo(expected.metadata());
  }

  static List<String> paths(CloseableIterator<FileStatus> files) throws IOException {
    List<String> paths = new ArrayList<>();
    try (files) {
      files.forEachRemaining(f -> paths.add(f.getPath()));
    }
    return paths;
  }

  static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * Copies into {@code root} the files of {@code ahead} it has not, the commit files last, as a
   * writer lands a commit: its data files first, then the commit that names them.
   */
  static void land(Path ahead, Path root) {
    try (Stream<Path> files = Files.walk(ahead)) {
      List<Path> missing =
          files
              .filter(Files::isRegularFile)
              .filter(f -> !Files.exists(root.resolve(ahead.relativize(f).toString())))
              .sorted(Comparator.comparing((Path f) -> f.toString().endsWith(".json")))
              .toList();
      for (Path file : missing) {
        Path target = root.resolve(ahead.relativize(file).toString());
        Files.createDirectories(target.getParent());
        Files.copy(file, target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
