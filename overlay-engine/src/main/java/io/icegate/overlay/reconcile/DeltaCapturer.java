package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.delta.iceberg.CapturedDeltaState;
import io.icegate.access.delta.iceberg.DeltaVersionCapture;
import io.icegate.access.delta.iceberg.GeneratedFileException;
import io.icegate.access.delta.iceberg.ManifestListCache;
import io.icegate.access.delta.log.DeltaLog;
import io.icegate.access.delta.schema.DeltaSchemas;
import io.icegate.access.model.DeltaTableSource;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.storage.s3.VendedS3Client;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.generated.CapturedHistory;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.generated.DeltaCaptureRecord;
import io.icegate.overlay.generated.DeltaRefusal;
import io.icegate.overlay.generated.GeneratedFiles;
import io.icegate.overlay.generated.MetadataFiles;
import io.icegate.overlay.store.capture.CaptureOutcome;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.relation.TableDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The capture phase for Delta tables (issue 26): each managed Delta Table of the run whose newest
 * Delta commit file differs from its capture pointer's is read through Delta Kernel at the version
 * the upstream names ({@link CatalogClient#deltaTableSource}), with the storage credentials the
 * upstream vends for that table and nothing else, and captured as one more Iceberg snapshot on top
 * of its previous capture ({@link DeltaLog#capture}, {@link DeltaVersionCapture}). The manifests,
 * manifest lists and delete files it generates are written under the target Catalog's warehouse,
 * at {@link GeneratedFiles#location} ({@link CatalogFiles}); the data files stay in
 * the upstream's storage. History older than the retention is dropped ({@link CapturedHistory}).
 * The metadata is written as an Iceberg metadata file ({@link MetadataFiles}) and published,
 * the same bytes, like an Iceberg capture ({@link Captures#publishAll}), its pointer naming the
 * Delta commit file captured and that metadata file, in batches each fenced by the run ({@link
 * RunFence}). Beside the metadata each capture stores, in the same pointer transaction, what it
 * keeps for itself ({@link DeltaCaptureRecord}: the version's Delta state for the next capture,
 * and what it added for validation); neither is ever in the served metadata. A Table whose
 * pointer already names the commit file the run observed costs no upstream call and no write,
 * unless the history it keeps expired (the pointer says since when it keeps history): then its
 * capture is published again without it, the only write (issue 28).
 *
 * <p>A Delta feature that cannot be served as Iceberg is captured as refused ({@link
 * DeltaRefusal}): validation hides the table with one record naming the feature and the commit
 * file. One Table failing otherwise (its log unreadable, a column type Iceberg has not, nothing
 * vended) is a warning naming why, and a count, its capture unchanged; a superseded run stops.
 */
final class DeltaCapturer {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final CapturePointers POINTERS = new CapturePointers();
  private static final String DELTA = "DELTA";

  private final Repositories repositories;
  private final Captures captures;
  private final RunFence fence;
  private final CatalogFiles catalogFiles;
  private final ManifestListCache manifestLists;
  private final OutboundAddressPolicy policy;
  private final int batch;

  /**
   * @param manifestLists the manifest lists this gateway's captures wrote: each capture reads the
   *     one the capture before it wrote
   */
  DeltaCapturer(Repositories repositories, RunFence fence, CatalogFiles catalogFiles,
      ManifestListCache manifestLists, OutboundAddressPolicy policy, int batch) {
    this.repositories = repositories;
    this.captures = new Captures(repositories);
    this.fence = fence;
    this.catalogFiles = catalogFiles;
    this.manifestLists = manifestLists;
    this.policy = policy;
    this.batch = batch;
  }

  /** The managed Delta Tables of a run's inventory whose log was read (a commit file known). */
  List<TableCapturer.Target> ofInventory(Inventory inventory) {
    String account = fence.accountId();
    String overlay = fence.overlay().id();
    return repositories.store().read(tx -> {
      List<TableCapturer.Target> targets = new ArrayList<>();
      for (DesiredRelation desired : inventory.relations()) {
        if (desired.kind() != ResourceKind.TABLE || !DELTA.equals(desired.tableFormat())
            || desired.upstreamMetadataLocation() == null) {
          continue;
        }
        MANAGED.find(tx, account, overlay, ResourceKind.TABLE, desired.externalId())
            .ifPresent(id -> targets.add(new TableCapturer.Target(id, desired.namespace(),
                desired.name(), desired.upstreamMetadataLocation(), desired.upstreamCommit())));
      }
      return targets;
    });
  }

  /**
   * Captures those of {@code targets} whose pointer does not name their known commit file.
   *
   * @param open opens the upstream client, only if some Table must be read
   * @throws IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  TableCapturer.Result capture(List<TableCapturer.Target> targets, Supplier<CatalogClient> open) {
    String account = fence.accountId();
    List<TableCapturer.Target> work = new ArrayList<>();
    Map<TableCapturer.Target, Long> kept = new LinkedHashMap<>(); // unchanged, with history
    Resource<Catalog> catalog = repositories.store().read(tx -> {
      work.clear(); // a retried read starts over
      kept.clear();
      for (TableCapturer.Target target : targets) {
        Optional<CapturePointer> pointer = POINTERS.get(tx, account, target.tableId());
        if (target.knownLocation() == null || pointer.isEmpty()
            || !pointer.get().upstreamMetadataLocation().equals(target.knownLocation())
            || !showsKnownCommit(pointer.get(), target)) {
          work.add(target);
        } else if (pointer.get().historySinceMillis() != null) {
          kept.put(target, pointer.get().historySinceMillis());
        }
      }
      return repositories.catalogs(account).get(tx, fence.overlay().spec().catalogId())
          .orElse(null);
    });
    if (work.isEmpty() && kept.isEmpty()) {
      return new TableCapturer.Tally(targets.size()).result();
    }
    Optional<Duration> retention = repositories.store().read(
        tx -> CapturedHistory.retention(tx, repositories, fence.overlay()));
    // Unchanged upstream, history past the retention: pruned without reading upstream.
    long now = captures.now().toEpochMilli();
    List<TableCapturer.Target> expiring = kept.entrySet().stream()
        .filter(e -> CapturedHistory.expired(e.getValue(), retention, now))
        .map(Map.Entry::getKey).toList();
    TableCapturer.Tally tally =
        new TableCapturer.Tally(targets.size() - work.size() - expiring.size());
    if (work.isEmpty() && expiring.isEmpty()) {
      return tally.result();
    }
    FileIO generatedIo;
    try {
      if (catalog == null) {
        throw new UnsupportedOperationException("the target Catalog is gone");
      }
      if (catalog.spec().warehouse() == null) {
        throw new UnsupportedOperationException(
            "Catalog " + catalog.spec().name() + " has no warehouse");
      }
      generatedIo = catalogFiles.forCatalog(catalog);
    } catch (UnsupportedOperationException e) {
      tally.failed += work.size() + expiring.size();
      tally.warn("capture of " + (work.size() + expiring.size()) + " Delta table(s) skipped: "
          + "generated files cannot be written: " + e.getMessage());
      return tally.result();
    }
    // no file under a Table's prefix without its write lease: a Table deleted from here on
    // leaves an entry for the collector, and one already deleted gets nothing written
    WriteLeases leases = new WriteLeases(repositories, fence, catalog.id());
    Batch batched = new Batch(tally);
    CatalogClient client = null;
    try {
      for (int k = 0; k < work.size(); k++) {
        TableCapturer.Target target = work.get(k);
        if (client == null) {
          try {
            client = open.get();
          } catch (CatalogAccessException e) {
            tally.failed += work.size() - k;
            tally.warn("capture: the upstream could not be opened: " + e.getMessage());
            break;
          }
        }
        // read one at a time: a previous capture's metadata is held only while it is extended
        Optional<Captures.Capture> before = captures.read(account, target.tableId());
        batched.add(target, captureOne(client, target, before,
            new Generated(GeneratedFiles.location(catalog, target.tableId()),
                leases.around(target.tableId(), generatedIo), retention), tally));
      }
      for (TableCapturer.Target target : expiring) {
        batched.add(target, pruned(target, new Generated(
            GeneratedFiles.location(catalog, target.tableId()),
            leases.around(target.tableId(), generatedIo), retention), tally));
      }
      batched.publish();
    } finally {
      if (client != null) {
        client.close();
      }
    }
    return tally.result();
  }

  /**
   * Whether the capture {@code pointer} names shows the commit file the upstream's head states:
   * the same name is not enough, since a table written anew at its path reuses the names of its
   * commit files (the capture then checks the log itself). Without a stated identity the name is
   * all there is to go by.
   */
  private static boolean showsKnownCommit(CapturePointer pointer, TableCapturer.Target target) {
    return target.knownCommit() == null || target.knownCommit().equals(pointer.upstreamCommit());
  }

  /**
   * Where and how a capture writes: the Table's generated prefix, the Catalog's FileIO, and the
   * retention of captured history ({@link CapturedHistory}).
   */
  private record Generated(String location, FileIO io, Optional<Duration> retention) {}

  /** One Table read and captured; empty when it failed (counted, warned) or is unchanged. */
  private Optional<Captures.Candidate> captureOne(CatalogClient client,
      TableCapturer.Target target, Optional<Captures.Capture> before, Generated generated,
      TableCapturer.Tally tally) {
    String what = "capture of Delta table " + target.displayPath();
    TableMetadata stored = before.map(DeltaCapturer::previousOf).orElse(null);
    // a capture stored before the Delta state left the metadata has it in two table properties:
    // read once from there (the capture made now drops them)
    Optional<String> previousState = before.map(DeltaCaptureRecord::of)
        .flatMap(DeltaCaptureRecord::deltaState)
        .or(() -> CapturedDeltaState.fromLegacyProperties(stored).map(CapturedDeltaState::toJson));
    TableMetadata previous = stored;
    if (previous != null && DeltaRefusal.of(previous).isPresent()) {
      // a refused capture is no base for the next snapshot: the last one before it is
      previous = previous.currentSnapshot() == null ? null : DeltaRefusal.cleared(previous);
    }
    try {
      DeltaTableSource source = client.deltaTableSource(
          new NamespacePath(target.upstreamNamespace()), target.upstreamName());
      DeltaVersionCapture.Captured changes;
      try (S3Client s3 = VendedS3Client.open(source.credentials(), source.storeSettings(),
          policy)) {
        changes = new DeltaLog(s3, source.tableLocation()).captureChanges(
            Optional.ofNullable(source.version()), previous,
            previousState.flatMap(CapturedDeltaState::parse), target.tableId(),
            generated.location(), manifestLists.around(generated.io()));
      }
      TableMetadata captured = changes.metadata();
      if (captured == previous) {
        tally.unchanged++;
        // a pointer stored before the head's identity was recorded: noted once, so the next
        // change-free round skips the Table again without capturing it
        CapturePointer pointer = before.map(Captures.Capture::pointer).orElse(null);
        if (pointer != null && target.knownCommit() != null
            && target.knownLocation().equals(pointer.upstreamMetadataLocation())
            && !target.knownCommit().equals(pointer.upstreamCommit())) {
          captures.noteUpstreamCommit(fence.accountId(), target.tableId(), pointer,
              target.knownCommit());
        }
        return Optional.empty();
      }
      return Optional.of(candidate(target, before, commitFile(captured), captured, generated,
          new DeltaCaptureRecord(Optional.of(changes.deltaState().toJson()),
              change(before, previous, changes))));
    } catch (CatalogAccessException e) {
      tally.fail(what + " failed: " + e.code() + ": " + e.getMessage());
    } catch (DeltaVersionCapture.UnrepresentableFeatureException e) {
      // captured as refused: the validation step then hides the table with one record naming
      // the feature and the commit file (DeltaRefusal), until a later commit captures cleanly
      tally.warn(what + " refused: " + e.getMessage());
      // the state kept is the base's: the next capture extends the last one before the refusal
      return Optional.of(candidate(target, before, e.commitFile(),
          DeltaRefusal.refused(refusalBase(target, previous), e.feature(), e.commitFile(),
              e.getMessage()), generated,
          new DeltaCaptureRecord(previousState, Optional.empty())));
    } catch (DeltaSchemas.UnsupportedTypeException e) {
      tally.fail(what + " refused: " + e.getMessage());
    } catch (DeltaLog.UnreadableLogException | GeneratedFileException e) {
      tally.fail(what + " failed: " + e.getMessage());
    } catch (IcegateException e) {
      if (e.code() == ErrorCode.RECONCILE_SUPERSEDED) {
        throw e;
      }
      tally.fail(what + " failed: " + e.code());
    } catch (RuntimeException e) {
      tally.fail(what + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * The capture of {@code metadata}, read from {@code commitFile}, without the history older
   * than the retention ({@link CapturedHistory}): its metadata file written first (the capture's
   * blob holds the same bytes), named for the capture generation it is meant for.
   */
  private Captures.Candidate candidate(TableCapturer.Target target,
      Optional<Captures.Capture> before, String commitFile, TableMetadata metadata,
      Generated generated, DeltaCaptureRecord record) {
    return candidate(target, before, commitFile, metadata, generated, record,
        Captures.Source.UPSTREAM);
  }

  private Captures.Candidate candidate(TableCapturer.Target target,
      Optional<Captures.Capture> before, String commitFile, TableMetadata metadata,
      Generated generated, DeltaCaptureRecord record, Captures.Source source) {
    long generation = before.map(c -> c.pointer().captureGeneration()).orElse(0L) + 1;
    Instant now = captures.now();
    TableMetadata kept = CapturedHistory.pruned(metadata, generated.retention(),
        now.toEpochMilli());
    MetadataFiles.Written file =
        MetadataFiles.write(kept, generated.location(), generation, now, generated.io());
    // the head's identity where the capture shows the file the head named; else none, and the
    // next round captures once more (finding it unchanged, it notes the identity then)
    String commit = commitFile.equals(target.knownLocation()) ? target.knownCommit() : null;
    return new Captures.Candidate(target.tableId(), before.map(Captures.Capture::pointer),
        commitFile, file.json(), file.location(), record.toBytes(),
        CapturedHistory.historySince(kept).orElse(null), source, commit);
  }

  /**
   * The current capture of {@code target} again, without the history the retention expired
   * (issue 28): its upstream did not change, so nothing is read upstream; it keeps the capture's
   * Delta state and tells validation it added no file ({@link DeltaCaptureRecord}). Read without
   * its metadata file's location, so the rewrite logs no entry for the file it replaces (which
   * would itself expire one retention later and rewrite the capture again). Empty (unchanged)
   * when nothing is left to prune or the capture is a refusal, which only a new capture replaces.
   */
  private Optional<Captures.Candidate> pruned(TableCapturer.Target target, Generated generated,
      TableCapturer.Tally tally) {
    Optional<Captures.Capture> before = captures.read(fence.accountId(), target.tableId());
    TableMetadata previous = before.map(c -> TableMetadataParser.fromJson(
        new String(c.metadataJson(), StandardCharsets.UTF_8))).orElse(null);
    if (previous == null || DeltaRefusal.of(previous).isPresent() || CapturedHistory.pruned(
        previous, generated.retention(), captures.now().toEpochMilli()) == previous) {
      tally.unchanged++;
      return Optional.empty();
    }
    CapturePointer pointer = before.get().pointer();
    Optional<String> state = DeltaCaptureRecord.of(before.get()).deltaState()
        .or(() -> CapturedDeltaState.fromLegacyProperties(previous)
            .map(CapturedDeltaState::toJson));
    DeltaCaptureRecord record = new DeltaCaptureRecord(state,
        Optional.of(new DeltaCaptureRecord.Change(pointer.captureGeneration(), Set.of())));
    return Optional.of(candidate(target, before, pointer.upstreamMetadataLocation(), previous,
        generated, record, Captures.Source.RETENTION));
  }

  /**
   * The change record of {@code changes} for validation ({@link DeltaCaptureRecord.Change}) when
   * the rest of the table is as the base capture had it: same schema and partition spec, base
   * not refused; else none (every file is checked).
   */
  private static Optional<DeltaCaptureRecord.Change> change(Optional<Captures.Capture> before,
      TableMetadata previous, DeltaVersionCapture.Captured changes) {
    TableMetadata captured = changes.metadata();
    if (before.isEmpty() || previous == null || previous.currentSnapshot() == null
        || DeltaRefusal.of(previous).isPresent()
        || previous.currentSchemaId() != captured.currentSchemaId()
        || previous.defaultSpecId() != captured.defaultSpecId()) {
      return Optional.empty();
    }
    Set<String> added = new HashSet<>();
    changes.addedDataFiles().forEach(file -> added.add(file.location()));
    return DeltaCaptureRecord.Change.bounded(before.get().pointer().captureGeneration(), added);
  }

  /** The metadata {@code capture} stored, as captured (refusal marks and all). */
  private static TableMetadata previousOf(Captures.Capture capture) {
    return TableMetadataParser.fromJson(capture.pointer().servedMetadataLocation(),
        new String(capture.metadataJson(), StandardCharsets.UTF_8));
  }

  /** What a refused capture is written on: the previous capture, else the Table's definition. */
  private TableMetadata refusalBase(TableCapturer.Target target, TableMetadata previous) {
    if (previous != null) {
      return previous;
    }
    byte[] definition = repositories.store().read(tx -> MANAGED.definition(tx,
        fence.accountId(), ResourceKind.TABLE, target.tableId())).orElseThrow(
            () -> new IllegalStateException("table " + target.tableId() + " has no definition"));
    return TableDefinition.fromBytes(definition).toTableMetadata();
  }

  /** The Delta commit file whose version {@code captured}'s current snapshot shows. */
  static String commitFile(TableMetadata captured) {
    long version = Long.parseLong(
        captured.currentSnapshot().summary().get(DeltaVersionCapture.DELTA_VERSION));
    return captured.property(DeltaVersionCapture.DELTA_TABLE, captured.location())
        + "/_delta_log/" + String.format("%020d.json", version);
  }

  /** Candidates published {@code batch} at a time. */
  private final class Batch {
    private final TableCapturer.Tally tally;
    private List<Captures.Candidate> candidates = new ArrayList<>();
    private List<TableCapturer.Target> of = new ArrayList<>();

    Batch(TableCapturer.Tally tally) {
      this.tally = tally;
    }

    void add(TableCapturer.Target target, Optional<Captures.Candidate> candidate) {
      if (candidate.isPresent()) {
        candidates.add(candidate.get());
        of.add(target);
      }
      if (candidates.size() >= batch) {
        publish();
      }
    }

    void publish() {
      DeltaCapturer.this.publish(candidates, of, tally);
      candidates = new ArrayList<>();
      of = new ArrayList<>();
    }
  }

  /** Publishes a batch, every pointer transaction fenced by the run. */
  private void publish(List<Captures.Candidate> candidates, List<TableCapturer.Target> targets,
      TableCapturer.Tally tally) {
    if (candidates.isEmpty()) {
      return;
    }
    List<CaptureOutcome> outcomes = captures.publishAll(fence.accountId(), fence.overlay().id(),
        candidates, fence::assertAndRenew);
    for (int k = 0; k < candidates.size(); k++) {
      tally.count(targets.get(k), candidates.get(k), outcomes.get(k));
    }
  }
}
