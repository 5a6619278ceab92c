package io.icegate.overlay.generated;

import com.apple.foundationdb.Range;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.core.jobs.EffectivePlan;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * The retention of a captured Delta table's history (issue 28, "Retention"): for a Delta upstream
 * the history is the captured versions, one Iceberg snapshot each, plus the metadata log naming
 * earlier metadata files. At each capture, snapshots whose Delta commit time is older than the
 * retention, and metadata-log entries older than it, are dropped from the new metadata; the
 * current snapshot never is. Without a retention only the current snapshot is kept and the
 * metadata log is empty (the default: "the current capture only"). Age is the snapshot's
 * own timestamp (the Delta commit time), as Iceberg's snapshot expiry measures it.
 *
 * <p>The retention applied is the longest of the Table's own Overlay's and the effective plan's
 * of its Integration ({@link EffectivePlan}: the longest of the active Overlays'), read when
 * capturing, so a retention change takes effect at the next round without superseding a run.
 * The files only dropped snapshots referenced are left to collection.
 *
 * <p>History also expires while nothing changes upstream: each capture pointer records when its
 * oldest kept history dates from ({@link #historySince}), and a round whose upstream did not
 * change republishes a capture whose history has expired ({@link #expired}) without it, reading
 * nothing upstream; a round in which nothing expired writes nothing.
 */
public final class CapturedHistory {

  private CapturedHistory() {}

  /**
   * The retention for the Tables of {@code overlay} as stored now, read in {@code tx}: the longest
   * of its own and its Integration's effective one; empty for the current capture only.
   */
  public static Optional<Duration> retention(ReadTransaction tx, Repositories repositories,
      Resource<CatalogOverlay> overlay) {
    String account = overlay.accountId();
    Resource<CatalogOverlay> now =
        repositories.overlays(account).get(tx, overlay.id()).orElse(overlay);
    Optional<Resource<Integration>> integration =
        repositories.integrations(account).get(tx, now.spec().integrationId());
    Optional<Duration> planned = Optional.empty();
    if (integration.isPresent()) {
      List<Resource<CatalogOverlay>> overlays = new ArrayList<>();
      Range range = KeyLayout.resources(account, ResourceKind.OVERLAY).range();
      for (KeyValue kv : tx.getRange(range.begin, range.end)) {
        overlays.add(repositories.overlays(account).codec().read(kv.value()));
      }
      planned = EffectivePlan.of(integration.get(), overlays, Duration.ZERO).retention();
    }
    return Stream.concat(now.spec().retentionPeriod().stream(), planned.stream())
        .max(Comparator.naturalOrder());
  }

  /**
   * {@code captured} without the history older than {@code retention} at {@code nowMillis}: its
   * snapshots other than the current one taken before the cut, and its metadata-log entries
   * before it; everything but the current snapshot without a retention. {@code captured} itself
   * when nothing is older.
   */
  public static TableMetadata pruned(TableMetadata captured, Optional<Duration> retention,
      long nowMillis) {
    long cut = cut(retention, nowMillis);
    Snapshot current = captured.currentSnapshot();
    List<Long> expired = new ArrayList<>();
    for (Snapshot snapshot : captured.snapshots()) {
      if ((current == null || snapshot.snapshotId() != current.snapshotId())
          && snapshot.timestampMillis() < cut) {
        expired.add(snapshot.snapshotId());
      }
    }
    boolean oldLog = captured.previousFiles().stream().anyMatch(e -> e.timestampMillis() < cut);
    if (expired.isEmpty() && !oldLog) {
      return captured;
    }
    TableMetadata kept = expired.isEmpty() ? captured
        : TableMetadata.buildFrom(captured).removeSnapshots(expired).build();
    return oldLog ? withoutLogBefore(kept, cut) : kept;
  }

  /**
   * The time of the oldest history {@code captured} keeps besides its current snapshot: its
   * earlier snapshots' and metadata-log entries' timestamps ({@link
   * io.icegate.overlay.store.capture.CapturePointer#historySinceMillis}); empty when it keeps
   * none. History expires when this falls before the retention's cut ({@link #expired}).
   */
  public static Optional<Long> historySince(TableMetadata captured) {
    Snapshot current = captured.currentSnapshot();
    Stream<Long> snapshots = captured.snapshots().stream()
        .filter(s -> current == null || s.snapshotId() != current.snapshotId())
        .map(Snapshot::timestampMillis);
    Stream<Long> log = captured.previousFiles().stream()
        .map(TableMetadata.MetadataLogEntry::timestampMillis);
    return Stream.concat(snapshots, log).min(Comparator.naturalOrder());
  }

  /**
   * Whether history kept since {@code historySinceMillis} (see {@link #historySince}) has
   * something older than {@code retention} at {@code nowMillis}: what a round checks, from the
   * capture pointer alone, to prune a capture whose upstream did not change.
   */
  public static boolean expired(Long historySinceMillis, Optional<Duration> retention,
      long nowMillis) {
    return historySinceMillis != null && historySinceMillis < cut(retention, nowMillis);
  }

  private static long cut(Optional<Duration> retention, long nowMillis) {
    return retention.map(r -> nowMillis - r.toMillis()).orElse(Long.MAX_VALUE);
  }

  /**
   * {@code metadata} without metadata-log entries before {@code cut}, edited as JSON: Iceberg's
   * builder offers no removal of log entries.
   */
  private static TableMetadata withoutLogBefore(TableMetadata metadata, long cut) {
    try {
      JsonNode node = JsonUtil.mapper().readTree(TableMetadataParser.toJson(metadata));
      ArrayNode kept = JsonUtil.mapper().createArrayNode();
      for (JsonNode entry : node.path("metadata-log")) {
        if (entry.path("timestamp-ms").asLong() >= cut) {
          kept.add(entry);
        }
      }
      ((ObjectNode) node).set("metadata-log", kept);
      return TableMetadataParser.fromJson(metadata.metadataFileLocation(), node);
    } catch (IOException e) {
      throw new UncheckedIOException("metadata JSON that Iceberg wrote does not read back", e);
    }
  }
}
