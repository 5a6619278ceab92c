package io.icegate.access.delta.iceberg;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.Metadata;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.utils.FileStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newest versions of Delta tables this process read, by table location, so that the next read
 * of a table's newest version follows the commits since, as an incremental capture does, instead
 * of Kernel loading the version in full (its checkpoint read: a read that grows with the table). A
 * reconcile reads every selected table's newest version for its definition (schema, partition
 * columns, properties), also when nothing changed: with a known head that is three requests sent
 * at once ({@link NextCommitProbe}) and no parse when nothing changed.
 *
 * <p>Only what a later read checks against the store is kept: the version's protocol, metadata and
 * commit file stamp ({@link CommitStamp}). A known head is used only while that commit file is the
 * one stamped and no commit since changed the protocol (Kernel's full load is what refuses an
 * unreadable protocol). Entries are per process; several gateways sharing a store each keep their
 * own, and each checks it against the log it reads. Least recently used entries go first.
 */
public final class DeltaHeads {

  /** The most tables remembered: a few KiB of schema each. */
  static final int DEFAULT_TABLES = 4_096;

  /**
   * A table's newest version as its metadata states it.
   *
   * @param version the version
   * @param schemaJson the schema as Delta schema JSON (Kernel's serialization)
   * @param partitionColumns the partition columns, in order
   * @param configuration the table properties
   * @param commitIdentity the version's commit file's identity ({@link
   *     CapturedDeltaState#commitIdentity}); empty when its file was not stated
   */
  public record Head(
      long version,
      String schemaJson,
      List<String> partitionColumns,
      Map<String, String> configuration,
      Optional<String> commitIdentity) {}

  private final int maxTables;
  private final Map<String, CapturedDeltaState> byLocation;

  public DeltaHeads() {
    this(DEFAULT_TABLES);
  }

  DeltaHeads(int maxTables) {
    if (maxTables <= 0) {
      throw new IllegalArgumentException("maxTables must be positive");
    }
    this.maxTables = maxTables;
    this.byLocation = new LinkedHashMap<>(16, 0.75f, true);
  }

  /**
   * The table's newest version read from the commits since the one remembered; empty when none is
   * remembered or it cannot be used (the log is not the one remembered, the commits since are
   * cleaned up, a commit changed the protocol, a check failed): then the caller loads the version
   * in full and {@link #remember}s it.
   *
   * @param tablePath the table's root as Kernel names it
   */
  public Optional<Head> since(Engine engine, String tablePath) {
    Optional<CapturedDeltaState> known = get(tablePath);
    if (known.isEmpty() || known.get().commit().isEmpty()) {
      return Optional.empty();
    }
    long version = known.get().commit().get().version();
    Optional<CommitChanges> commits =
        CommitChanges.read(engine, tablePath, version, Optional.empty());
    if (commits.isEmpty()
        || !CommitStamps.sameLog(engine, tablePath, known.get(), commits.get())
        || commits.get().protocol().isPresent()) {
      return Optional.empty();
    }
    CommitChanges read = commits.get();
    Metadata metadata = read.metadata().orElse(known.get().metadata());
    Optional<FileStatus> end = read.endCommit();
    if (read.commits() > 0 && end.isEmpty()) {
      // read by a listing, which states no file: stamped once more, as after a full load
      end = NextCommitProbe.commitStatus(engine, tablePath, read.endVersion());
    }
    CapturedDeltaState now =
        new CapturedDeltaState(
            known.get().protocol(),
            metadata,
            read.commits() == 0
                ? known.get().commit()
                : end.map(file -> CommitStamp.of(read.endVersion(), file)));
    put(tablePath, now);
    return Optional.of(head(read.endVersion(), now));
  }

  /**
   * Remembers a version Kernel loaded in full, stamping its commit file as Kernel's listing stated
   * it.
   *
   * @param tablePath the table's root as {@link #since} will be given it
   */
  public void remember(Engine engine, String tablePath, Snapshot snapshot) {
    long version = snapshot.getVersion();
    // the commit file Kernel read the version from, else stated now (a file written since the
    // load would be stamped with the loaded metadata: a checkpoint-only version's rare case)
    Optional<CommitStamp> stamp =
        CommitStamps.loadedCommit(snapshot)
            .or(() -> NextCommitProbe.commitStatus(engine, tablePath, version))
            .map(file -> CommitStamp.of(version, file));
    if (stamp.isPresent()) {
      put(
          tablePath,
          new CapturedDeltaState(snapshot.getProtocol(), snapshot.getMetadata(), stamp));
    }
  }

  /** How many tables are remembered now. */
  public synchronized int size() {
    return byLocation.size();
  }

  private static Head head(long version, CapturedDeltaState state) {
    Metadata metadata = state.metadata();
    return new Head(
        version,
        metadata.getSchema().toJson(),
        VectorUtils.<String>toJavaList(metadata.getPartitionColumns()),
        metadata.getConfiguration(),
        state.commitIdentity());
  }

  /** The identity of a version Kernel loaded in full: its commit file as the listing stated it. */
  public static Optional<String> commitIdentity(Snapshot snapshot) {
    return CommitStamps.loadedCommit(snapshot)
        .map(file -> CommitStamp.of(snapshot.getVersion(), file))
        .map(stamp -> stamp.identity(snapshot.getMetadata().getId()));
  }

  private synchronized Optional<CapturedDeltaState> get(String tablePath) {
    return Optional.ofNullable(byLocation.get(tablePath));
  }

  private synchronized void put(String tablePath, CapturedDeltaState state) {
    byLocation.put(tablePath, state);
    while (byLocation.size() > maxTables) {
      byLocation.remove(byLocation.keySet().iterator().next());
    }
  }
}
