package io.icegate.access.delta.iceberg;

import io.delta.kernel.Snapshot;
import io.delta.kernel.SnapshotBuilder;
import io.delta.kernel.TableManager;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.UnsupportedTableFeatureException;
import io.icegate.access.delta.schema.DeltaPartitions;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;

/**
 * One Delta version as one Iceberg snapshot (format 2): the table metadata of the previous capture
 * with this version's schema (stable ids, {@link StableSchema}), identity partition spec and one
 * more snapshot whose manifests list every active file of the version, with path, size, record
 * count, partition values from the log and bounds that never exclude a row ({@link
 * SafeFileMetrics}); rows removed by deletion vectors are removed by position delete files ({@link
 * DeletionVectorFiles}).
 *
 * <p>The snapshot is produced by iceberg-core's own {@link RowDelta} against the previous capture,
 * so the manifests of files that did not change are reused as they are and only the change is
 * written (new files in a new manifest; manifests holding removed files rewritten by Iceberg's
 * filter). Snapshot ids derive from (table identity, Delta version); the timestamp is the Delta
 * commit's, never earlier than the previous snapshot's. The data files stay where Delta wrote them;
 * manifests, manifest lists and delete files go under {@link Target#generatedLocation()}. The
 * metadata itself is returned, not written: the caller stores it, and beside it the version's
 * Delta protocol and metadata ({@link CapturedDeltaState}), which the next capture takes back as an
 * input; they are never part of the Iceberg metadata a client reads.
 */
public final class DeltaVersionCapture {

  /** Snapshot summary property: the Delta version the snapshot shows. */
  public static final String DELTA_VERSION = "icegate.delta.version";

  /** Table property: the Delta table the metadata shows (its location). */
  public static final String DELTA_TABLE = "icegate.delta.table";

  /**
   * Delta reader features whose data Iceberg readers see correctly through this mapping; a table
   * needing any other is refused by name ({@link UnrepresentableFeatureException}). Public for the
   * Delta Sharing client, which declares these to a sharing server.
   */
  public static final Set<String> SERVABLE_READER_FEATURES =
      Set.of("columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint", "vacuumProtocolCheck");

  /**
   * Where one capture writes and what it is called.
   *
   * @param tableIdentity a stable identity of the table (snapshot ids derive from it)
   * @param generatedLocation the table's generated-files prefix under the target warehouse, no
   *     trailing slash
   * @param generatedIo writes generated files (and reads the previous capture's manifests)
   * @param dataIo reads the upstream's data files, for footers when the log has no statistics
   */
  public record Target(
      String tableIdentity, String generatedLocation, FileIO generatedIo, FileIO dataIo) {}

  /** A Delta feature this mapping cannot serve correctly; names the feature and a commit file. */
  public static final class UnrepresentableFeatureException extends RuntimeException {
    private final String feature;
    private final String commitFile;

    UnrepresentableFeatureException(String feature, String commitFile, String detail) {
      super("Delta feature '" + feature + "' (" + commitFile + ") cannot be served as Iceberg: " + detail);
      this.feature = feature;
      this.commitFile = commitFile;
    }

    public String feature() {
      return feature;
    }

    public String commitFile() {
      return commitFile;
    }
  }

  /**
   * The most changed files whose commit runs iceberg-core's manifest filter, merge and manifest
   * list steps on the capture's own thread ({@link CallingThread}): a change this small touches
   * few manifests, read one after the other.
   */
  static final int INLINE_CHANGES = 64;

  /** The reader feature of tables whose commits a catalog coordinates. */
  static final String CATALOG_MANAGED = "catalogManaged";

  private DeltaVersionCapture() {}

  /**
   * What one capture did.
   *
   * @param metadata the metadata whose current snapshot shows the captured version
   * @param incremental whether it read only the commits since the previous capture (else a full
   *     scan of the version: the first capture, or the commits since are cleaned up, or the
   *     partition spec changed, or column mapping was enabled on the
   *     existing table: then the snapshots captured before are dropped, see {@link
   *     StableSchema.Mapped#renumbered})
   * @param addedDataFiles the data files the new snapshot added (new, or entered again because
   *     they changed): the only ones validation has to check; empty when nothing changed
   * @param removedDataFiles the data file paths whose entries the new snapshot removed (a path may
   *     also be among the added files, entered again)
   * @param deltaState the captured version's Delta protocol and metadata, not part of {@code
   *     metadata}: the caller keeps it with the capture and hands it to the next one
   */
  public record Captured(
      TableMetadata metadata,
      boolean incremental,
      List<DataFile> addedDataFiles,
      Set<String> removedDataFiles,
      CapturedDeltaState deltaState) {
    public Captured {
      addedDataFiles = List.copyOf(addedDataFiles);
      removedDataFiles = Set.copyOf(removedDataFiles);
      Objects.requireNonNull(deltaState, "deltaState");
    }
  }

  /**
   * @param snapshot the Delta version to capture, loaded by Kernel with {@code engine}
   * @param previous the metadata of this table's previous capture, or null for the first
   * @return metadata whose current snapshot shows {@code snapshot}; {@code previous} itself when it
   *     already shows this version
   * @throws UnrepresentableFeatureException for a feature Iceberg readers would read wrongly
   * @throws io.icegate.access.delta.schema.DeltaSchemas.UnsupportedTypeException for a column type
   *     Iceberg has not
   * @throws UncheckedIOException when reading the log or writing generated files fails
   */
  public static TableMetadata capture(
      Engine engine, Snapshot snapshot, TableMetadata previous, Target target) {
    return captureChanges(engine, snapshot, previous, target).metadata();
  }

  /**
   * As {@link #capture}, saying what changed. When {@code previous} shows an earlier version of
   * the same table under the same partition spec and the log still holds every commit since, only
   * those commits are read ({@link CommitChanges}) and only the manifests holding changed files
   * are rewritten; otherwise the version's files are listed in full by Kernel's scan and compared
   * with the previous capture's manifests. Both give the same live files.
   */
  public static Captured captureChanges(
      Engine engine, Snapshot snapshot, TableMetadata previous, Target target) {
    return capture(engine, snapshot, previous, Optional.empty(), target, Optional.empty(), false);
  }

  /**
   * As above, with the previous capture's Delta state, when known, and the commits since the
   * previous capture when they were read already.
   *
   * @param rewritten whether the captured version's commit file is another than the one stamped
   *     (the log written anew): nothing captured before is built on
   */
  private static Captured capture(
      Engine engine,
      Snapshot snapshot,
      TableMetadata previous,
      Optional<CapturedDeltaState> previousState,
      Target target,
      Optional<CommitChanges> commitsRead,
      boolean rewritten) {
    long version = snapshot.getVersion();
    Future<Optional<CommitStamp>> stamp = CommitStamps.of(engine, snapshot, commitsRead);
    CapturedDeltaState state =
        new CapturedDeltaState(snapshot.getProtocol(), snapshot.getMetadata());
    // a new table at the previous one's path (another Delta table id): nothing captured before is
    // this table's, neither its files nor its versions
    // (a restored copy of the log keeps the id, but not its commit files: rewritten)
    boolean recreated =
        rewritten
            || previousState.isPresent()
                && !previousState.get().metadata().getId().equals(snapshot.getMetadata().getId());
    Optional<Long> previousVersion = capturedVersion(previous);
    if (previousVersion.isPresent() && previousVersion.get() == version && !recreated) {
      return new Captured(
          previous, true, List.of(), Set.of(), state.withCommit(CommitStamps.settled(stamp)));
    }
    String tablePath = snapshot.getPath();
    String commitFile = commitFile(tablePath, version);
    Refusals.refuseUnservable(snapshot, commitFile);
    Map<String, String> deltaProperties = snapshot.getTableProperties();
    StableSchema.Mapped mapped =
        StableSchema.map(snapshot.getSchema().toJson(), deltaProperties, previous);
    // Delta versions reused (a new table, a rewritten or rolled-back log): the history starts over
    boolean startsOver = recreated || SnapshotIds.taken(previous, target.tableIdentity(), version);
    TableMetadata base =
        CaptureBase.of(
            previous,
            mapped,
            SpecFieldIds.stable(
                previous,
                PartitionSpecParser.fromJson(
                    mapped.schema(),
                    DeltaPartitions.identitySpecJson(
                        SchemaParser.toJson(mapped.schema()),
                        snapshot.getPartitionColumnNames(),
                        tablePath))),
            tablePath,
            target.tableIdentity(),
            mapped.renumbered() || startsOver,
            startsOver);
    PartitionSpec spec = base.spec();

    Optional<CommitChanges> commits =
        previousVersion.isPresent()
                && previousVersion.get() < version
                && tablePath.equals(previous.property(DELTA_TABLE, null))
                && previous.spec().specId() == spec.specId()
                && !mapped.renumbered()
                && !startsOver
            ? commitsRead
                .or(() -> CommitChanges.read(engine, tablePath, previousVersion.get(), version))
                .filter(c -> c.endVersion() == version && locatable(c, spec))
            : Optional.empty();
    // a small change's manifest and manifest list upload side by side, while the capture goes on
    try (BackgroundUploads uploads = new BackgroundUploads(target.generatedIo())) {
      boolean small = commits.map(c -> c.changes().size() <= INLINE_CHANGES).orElse(false);
      Captured captured =
          apply(
              engine,
              snapshot,
              target,
              base,
              mapped,
              commits,
              small ? uploads.io() : target.generatedIo(),
              commitFile,
              state.withCommit(CommitStamps.settled(stamp)));
      uploads.await();
      return captured;
    }
  }

  /** Applies the change (or the whole version) to {@code base} as one snapshot. */
  private static Captured apply(
      Engine engine,
      Snapshot snapshot,
      Target target,
      TableMetadata base,
      StableSchema.Mapped mapped,
      Optional<CommitChanges> commits,
      FileIO generatedIo,
      String commitFile,
      CapturedDeltaState state) {
    long version = snapshot.getVersion();
    String tablePath = snapshot.getPath();
    PartitionSpec spec = base.spec();
    long snapshotId = SnapshotIds.of(target.tableIdentity(), version, base);
    CaptureOperations ops =
        new CaptureOperations(base, generatedIo, target.generatedLocation(), snapshotId);
    Table table = new BaseTable(ops, tablePath);
    RowDelta delta = table.newRowDelta().set(DELTA_VERSION, String.valueOf(version));
    DataFileEntries entries =
        new DataFileEntries(spec, mapped, snapshot.getTableProperties(), target.dataIo());
    DeletionVectorFiles vectors =
        new DeletionVectorFiles(engine, tablePath, target.generatedIo(), target.generatedLocation());
    FileChanges changes = new FileChanges(entries, vectors, delta);
    List<DataFile> added;
    long targetManifestBytes =
        base.propertyAsLong(
            TableProperties.MANIFEST_TARGET_SIZE_BYTES,
            TableProperties.MANIFEST_TARGET_SIZE_BYTES_DEFAULT);
    // every file live after the commits must lie under the table, whichever way they are applied
    commits.ifPresent(
        c ->
            c.changes()
                .forEach(ch -> ch.after().ifPresent(a -> Refusals.refuseOutside(a.file(), tablePath, commitFile))));
    if (commits.isPresent() && AppendedFiles.only(commits.get())) {
      added =
          AppendedFiles.commit(
              table,
              entries,
              commits.get(),
              generatedIo,
              target.generatedLocation(),
              targetManifestBytes,
              version);
    } else if (commits.isPresent()) {
      commits.get().changes().forEach(changes::changed);
      if (commits.get().changes().size() <= INLINE_CHANGES) {
        delta.scanManifestsWith(CallingThread.EXECUTOR);
      }
      delta.commit();
      added = changes.added();
    } else if (base.currentSnapshot() == null) {
      try (FirstCapture first =
          new FirstCapture(
              new StreamedManifests(
                  entries.another(),
                  target.generatedIo(),
                  target.generatedLocation(),
                  targetManifestBytes),
              changes)) {
        ActiveFiles.scan(engine, snapshot, commitFile, first);
        added = first.commit(table, delta, version);
      }
    } else {
      changes.readPrevious(base, target.generatedIo());
      ActiveFiles.scan(engine, snapshot, commitFile, changes::active);
      changes.removeInactive();
      delta.commit();
      added = changes.added();
    }
    long timestamp =
        commits.map(CommitChanges::endTimestamp).orElseGet(() -> snapshot.getTimestamp(engine));
    return new Captured(
        CaptureTimestamps.settle(ops.current(), snapshotId, timestamp),
        commits.isPresent(),
        added,
        changes.removed(),
        state);
  }

  /**
   * As {@link #captureChanges(Engine, Snapshot, TableMetadata, Target)}, loading the version with
   * Kernel first: a table whose protocol Kernel itself refuses to read (a reader feature it does
   * not know) is refused here by that feature's name, as one this mapping cannot serve.
   *
   * <p>When {@code previous} is a capture of this table and {@code previousState} its Delta
   * protocol and metadata ({@link Captured#deltaState}), the commits since are read first and the
   * new version is loaded with the protocol and metadata they leave: Kernel then lists the log but
   * does not read the checkpoint, so the capture's cost follows the change, not the table size.
   *
   * @param tablePath the Delta table's root as Kernel names it
   * @param version the version to capture; empty for the latest
   * @param previousState the Delta state of {@code previous}'s version, as the capture that made
   *     it returned it; empty when unknown (then the version is loaded in full)
   */
  public static Captured captureChanges(
      Engine engine,
      String tablePath,
      Optional<Long> version,
      TableMetadata previous,
      Optional<CapturedDeltaState> previousState,
      Target target) {
    Snapshot snapshot;
    Since since;
    try {
      since = sincePrevious(engine, tablePath, version, previous, previousState, target);
      if (since.captured().isPresent()) {
        return since.captured().get();
      }
      SnapshotBuilder load = TableManager.loadSnapshot(tablePath);
      if (version.isPresent()) {
        load = load.atVersion(version.get());
      }
      snapshot = load.build(engine);
    } catch (UnsupportedTableFeatureException e) {
      throw Refusals.refused(
          new TreeSet<>(e.getUnsupportedFeatures()).first(), engine, tablePath, version, e);
    } catch (IllegalArgumentException e) {
      // Kernel 4.4 refuses a path-only load of a catalog-managed table with an argument check:
      // its newest commits may exist only in the catalog (unpublished), so the log alone is not
      // the table, and icegate reads no catalog's commit API
      if (String.valueOf(e.getMessage()).contains(CATALOG_MANAGED)) {
        throw Refusals.refused(CATALOG_MANAGED, engine, tablePath, version, e);
      }
      throw e;
    }
    return capture(
        engine, snapshot, previous, previousState, target, Optional.empty(), since.rewritten());
  }

  /**
   * The capture from the commits since {@code previous} alone, the version loaded with the
   * protocol and metadata of the previous capture's state and those commits changed; {@code
   * previous} itself when the log holds no commit since ({@link CommitChanges#read}); empty when
   * that cannot be done (no previous capture of this table, no state, no new commit as a listing
   * shows, the commits since are cleaned up).
   */
  /** A capture from the commits since, or none, and whether the log was written anew. */
  private record Since(Optional<Captured> captured, boolean rewritten) {
    static final Since NONE = new Since(Optional.empty(), false);
  }

  private static Since sincePrevious(
      Engine engine,
      String tablePath,
      Optional<Long> version,
      TableMetadata previous,
      Optional<CapturedDeltaState> state,
      Target target) {
    Optional<Long> previousVersion = capturedVersion(previous);
    if (previousVersion.isEmpty()
        || state.isEmpty()
        || version.map(v -> v <= previousVersion.get()).orElse(false)) {
      return Since.NONE;
    }
    // decoded while the commits since are fetched: the commit below reads that list first
    Future<?> manifests = CaptureThreads.decodeManifestsAhead(previous, target.generatedIo());
    Optional<CommitChanges> commits;
    try {
      commits = CommitChanges.read(engine, tablePath, previousVersion.get(), version);
    } finally {
      CaptureThreads.settled(manifests); // never left writing into a snapshot a caller holds
    }
    if (commits.isEmpty()) {
      return Since.NONE; // cleaned up: load the version in full
    }
    CommitStamps.LogCheck log = CommitStamps.check(engine, tablePath, state.get(), commits.get());
    if (log != CommitStamps.LogCheck.SAME) {
      // no stamp to tell by, or the table written anew: load the version in full
      return new Since(Optional.empty(), log == CommitStamps.LogCheck.REWRITTEN);
    }
    if (commits.get().commits() == 0) {
      // the version captured is still the newest: nothing to load, nothing to write
      return new Since(
          Optional.of(new Captured(previous, true, List.of(), Set.of(), state.get())), false);
    }
    Snapshot snapshot =
        TableManager.loadSnapshot(tablePath)
            .atVersion(commits.get().endVersion())
            .withProtocolAndMetadata(
                commits.get().protocol().orElse(state.get().protocol()),
                commits.get().metadata().orElse(state.get().metadata()))
            .build(engine);
    if (!snapshot.getPath().equals(previous.property(DELTA_TABLE, null))) {
      return Since.NONE; // the state is another table's: load this one in full
    }
    return new Since(
        Optional.of(capture(engine, snapshot, previous, state, target, commits, false)), false);
  }

  /** The Delta version the capture's current snapshot shows, if it is one of ours. */
  private static Optional<Long> capturedVersion(TableMetadata previous) {
    if (previous == null || previous.currentSnapshot() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(previous.currentSnapshot().summary().get(DELTA_VERSION)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the commits can be applied without the previous capture's manifests: every file a
   * change removes can be found by partition (a {@code remove} without partition values, optional
   * in the protocol, on a partitioned table cannot).
   */
  private static boolean locatable(CommitChanges commits, PartitionSpec spec) {
    return spec.isUnpartitioned()
        || commits.changes().stream()
            .flatMap(c -> c.before().stream())
            .allMatch(b -> b.partitionValues().isPresent());
  }

  /** The commit file of a version: where a refusal points. */
  static String commitFile(String tablePath, long version) {
    return tablePath.replaceAll("/$", "") + "/_delta_log/" + String.format("%020d.json", version);
  }

  /** The snapshot id of a table's Delta version in its first captured history. */
  public static long snapshotId(String tableIdentity, long version) {
    return SnapshotIds.of(tableIdentity, version);
  }
}
