package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.generated.DeltaCaptureRecord;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.serve.ManagedMetadata;
import io.icegate.overlay.store.serve.TableSource;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26: what a Delta capture keeps for itself ({@link DeltaCaptureRecord}: the version's Delta
 * state, what it added) is stored with the capture, never in the metadata clients read. The next
 * capture loads the new version from the commits and that stored state without reading the
 * checkpoint (counted at the object store), also from a capture stored before the state left the
 * metadata (its two table properties read once, never served, dropped by the next capture). Another
 * gateway sharing the store validates a capture it did not make incrementally: only the data files
 * the capture added are read (counted at the object store), on the memory store and on SQLite.
 */
class DeltaCaptureStateTest {
  private static final Set<String> LEGACY =
      Set.of("icegate.delta.protocol", "icegate.delta.metadata");

  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();

  @TempDir Path scratch;
  @TempDir Path warehouse;
  @TempDir Path dir;

  /** The reads of the object store between the end of retirement and the end of capture. */
  private static final class CaptureWindow implements ReconcileHook {
    private int from;
    private int to;

    @Override
    public void afterRetirement(Inventory inventory) {
      from = upstream.objects().reads().size();
    }

    @Override
    public void afterCapture(Inventory inventory) {
      to = upstream.objects().reads().size();
    }

    List<String> reads() {
      return upstream.objects().reads().subList(from, to);
    }

    long checkpointReads() {
      return reads().stream().filter(k -> k.contains(".checkpoint.")).count();
    }
  }

  @Test
  void theDeltaStateIsKeptBesideTheCaptureAndTheNextCaptureReadsNoCheckpoint() throws Exception {
    KvStore store = ReconcileHarness.openStore("memory", dir);
    ReconcileHarness h = new ReconcileHarness(store, Clock.systemUTC());
    KernelTableWriter delta = table("state", "EU", "US");
    delta.checkpoint("state/orders");
    delta.uploadTable("state/orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "state", catalog, "state");
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog).get("state.orders").id();
    Captures captures = new Captures(h.repos);
    Captures.Capture first = captures.read(h.account, tableId).orElseThrow();
    assertThat(metadata(first).properties().keySet()).doesNotContainAnyElementsOf(LEGACY);
    assertThat(DeltaCaptureRecord.of(first).parsedDeltaState()).isPresent();
    assertThat(first.pointer().state()).isNotNull();

    // a new commit: captured from the stored state and the commit alone
    append(delta, "state", "EU", 3);
    CaptureWindow second = new CaptureWindow();
    assertThat(h.reconciler(second).reconcile(h.account, overlay).warnings()).isEmpty();
    assertThat(second.reads()).isNotEmpty();
    assertThat(second.checkpointReads()).isZero();
    Captures.Capture afterSecond = captures.read(h.account, tableId).orElseThrow();
    assertThat(afterSecond.pointer().captureGeneration()).isEqualTo(2);
    DeltaCaptureRecord record = DeltaCaptureRecord.of(afterSecond);
    assertThat(record.change()).hasValueSatisfying(c -> {
      assertThat(c.baseGeneration()).isEqualTo(1);
      assertThat(c.addedDataFiles()).hasSize(1);
    });

    // control: a capture stored with no state at all is loaded in full (the count can fail)
    storeAsBefore(h, tableId, false);
    append(delta, "state", "US", 4);
    CaptureWindow unknown = new CaptureWindow();
    assertThat(h.reconciler(unknown).reconcile(h.account, overlay).warnings()).isEmpty();
    assertThat(unknown.checkpointReads()).isPositive();

    // a capture stored by the earlier code (the state in two table properties, no state blob):
    // never served, read once, and the next capture drops them. That state holds no stamp of the
    // captured commit file, so it cannot show the log is still the table captured: that capture
    // loads the version in full (its checkpoint read) once, and the one after is checkpoint-free
    storeAsBefore(h, tableId, true);
    Captures.Capture legacy = captures.read(h.account, tableId).orElseThrow();
    assertThat(legacy.pointer().state()).isNull();
    assertThat(metadata(legacy).properties()).containsKeys(LEGACY.toArray(String[]::new));
    assertThat(served(h, tableId).properties().keySet()).doesNotContainAnyElementsOf(LEGACY);
    append(delta, "state", "EU", 5);
    CaptureWindow afterLegacy = new CaptureWindow();
    assertThat(h.reconciler(afterLegacy).reconcile(h.account, overlay).warnings()).isEmpty();
    assertThat(afterLegacy.checkpointReads()).isPositive();
    Captures.Capture next = captures.read(h.account, tableId).orElseThrow();
    assertThat(next.pointer().captureGeneration())
        .isEqualTo(legacy.pointer().captureGeneration() + 1);
    assertThat(metadata(next).properties().keySet()).doesNotContainAnyElementsOf(LEGACY);
    assertThat(metadata(next).currentSnapshot().summary().get("icegate.delta.version"))
        .isEqualTo(String.valueOf(delta.snapshot("state/orders").getVersion()));
    assertThat(DeltaCaptureRecord.of(next).parsedDeltaState()).isPresent();
    assertThat(served(h, tableId).properties().keySet()).doesNotContainAnyElementsOf(LEGACY);
    append(delta, "state", "US", 6);
    CaptureWindow stamped = new CaptureWindow();
    assertThat(h.reconciler(stamped).reconcile(h.account, overlay).warnings()).isEmpty();
    assertThat(stamped.reads()).isNotEmpty();
    assertThat(stamped.checkpointReads()).isZero();
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  /**
   * A reconcile reads each selected table's newest version for its definition, also when nothing
   * changed: once this process has read it, that is checks of commit files by name, never the
   * checkpoint (a full load's read, which grows with the table). A log whose newest commit file
   * was written again loads it in full: the control that the count can fail.
   */
  @Test
  void aReconcileOfAnUnchangedTableReadsNoCheckpoint() throws Exception {
    KvStore store = ReconcileHarness.openStore("memory", dir);
    ReconcileHarness h = new ReconcileHarness(store, Clock.systemUTC());
    KernelTableWriter delta = table("heads", "EU", "US");
    delta.checkpoint("heads/orders");
    delta.uploadTable("heads/orders");
    String catalog = UnityDeltaUpstream.catalog(h, warehouse);
    String overlay = upstream.overlay(h, "heads", catalog, "heads");
    assertThat(h.reconcile(overlay).warnings()).isEmpty();

    int before = upstream.objects().reads().size();
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(upstream.objects().reads().subList(before, upstream.objects().reads().size()))
        .noneMatch(key -> key.contains("checkpoint"));

    append(delta, "heads", "EU", 3);
    int beforeCommit = upstream.objects().reads().size();
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(upstream.objects().reads().subList(beforeCommit, upstream.objects().reads().size()))
        .noneMatch(key -> key.contains("checkpoint"));

    // the newest commit file written again (as a re-sync of the bucket would, a second later): the
    // remembered head cannot show the log is unchanged, so the head is loaded in full
    Thread.sleep(1_100);
    String newest = String.format("heads/orders/_delta_log/%020d.json", 3);
    try (S3Client s3 = upstream.objects().newClient()) {
      byte[] commit =
          s3.getObjectAsBytes(b -> b.bucket(UnityDeltaUpstream.LAKE).key(newest)).asByteArray();
      s3.putObject(b -> b.bucket(UnityDeltaUpstream.LAKE).key(newest), RequestBody.fromBytes(commit));
    }
    int beforeRewrite = upstream.objects().reads().size();
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    assertThat(upstream.objects().reads().subList(beforeRewrite, upstream.objects().reads().size()))
        .anyMatch(key -> key.contains("checkpoint"));
    store.close();
  }

  /**
   * Two gateways over one store: A captures a new commit and stops before validating (its
   * process ends); B, which made no capture, validates it reading only the data file the commit
   * added, because the change record is stored with the capture. A revalidation on B reads them
   * all.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anotherGatewayValidatesOnlyWhatTheCaptureAdded(String kind) throws Exception {
    KvStore storeA = ReconcileHarness.openStore(kind, dir);
    KvStore storeB = kind.equals("memory") ? storeA
        : SqliteKvStore.open(dir.resolve("icegate.db"));
    ReconcileHarness a = new ReconcileHarness(storeA, Clock.systemUTC());
    ReconcileHarness b = a.another(storeB);
    String ns = "two" + kind;
    KernelTableWriter delta = table(ns, "EU", "US");
    delta.uploadTable(ns + "/orders");
    String catalog = UnityDeltaUpstream.catalog(a, warehouse);
    String overlay = upstream.overlay(a, ns, catalog, ns);
    assertThat(a.reconcile(overlay).warnings()).isEmpty();
    String tableId = a.relations(catalog).get(ns + ".orders").id();
    TableValidations validations = new TableValidations(a.repos);
    assertThat(validations.status(a.account, tableId)).hasValueSatisfying(
        s -> assertThat(s.state()).isEqualTo(ValidationState.VALID));

    append(delta, ns, "EU", 3);
    ReconcileHook stopAfterCapture = new ReconcileHook() {
      @Override
      public void afterCapture(Inventory inventory) {
        throw new IllegalStateException("gateway A stops after capturing");
      }
    };
    assertThatThrownBy(() -> a.reconciler(stopAfterCapture).reconcile(a.account, overlay))
        .hasMessageContaining("gateway A stops");
    Captures.Capture captured = new Captures(a.repos).read(a.account, tableId).orElseThrow();
    assertThat(captured.pointer().captureGeneration()).isEqualTo(2);
    assertThat(validations.status(a.account, tableId)).hasValueSatisfying(
        s -> assertThat(s.state()).isEqualTo(ValidationState.PENDING));
    Set<String> added = DeltaCaptureRecord.of(captured).change().orElseThrow().addedDataFiles();
    assertThat(added).hasSize(1);

    int before = upstream.objects().reads().size();
    // B knows A's process ended (as an operator or the scheduler's takeover would)
    assertThat(b.reconciler(ReconcileHook.NONE).reconcile(b.account, overlay, holder -> true)
        .warnings()).isEmpty();
    assertThat(dataFilesRead(ns, before)).containsExactlyElementsOf(keys(added));
    ValidationStatus status = validations.status(a.account, tableId).orElseThrow();
    assertThat(status.state()).isEqualTo(ValidationState.VALID);
    assertThat(status.captureGeneration()).isEqualTo(2);

    // a revalidation checks every file: all three
    before = upstream.objects().reads().size();
    assertThat(b.services.revalidation().revalidateTable(b.account, catalog, tableId).status()
        .errorCount()).isZero();
    assertThat(dataFilesRead(ns, before)).hasSize(3);

    ContributionInvariants.checker(storeA).assertClean();
    if (storeB != storeA) {
      storeB.close();
    }
    storeA.close();
  }

  /** A Kernel-written table {@code namespace.orders}, one file per region, known to Unity. */
  private KernelTableWriter table(String namespace, String... regions) {
    KernelTableWriter delta = upstream.createOrders(scratch, namespace + "/orders");
    long id = 1;
    for (String region : regions) {
      UnityDeltaUpstream.append(delta, namespace + "/orders", region, id++);
    }
    upstream.serveOrders(namespace, "orders");
    return delta;
  }

  private static void append(KernelTableWriter delta, String namespace, String region, long id) {
    UnityDeltaUpstream.appendAndUpload(delta, namespace + "/orders", region, id);
  }

  /** The distinct data files of {@code namespace.orders} read since read number {@code from}. */
  private static Set<String> dataFilesRead(String namespace, int from) {
    List<String> reads = upstream.objects().reads();
    Set<String> files = new TreeSet<>();
    for (String key : reads.subList(from, reads.size())) {
      if (key.startsWith(UnityDeltaUpstream.LAKE + "/" + namespace + "/orders/")
          && !key.contains("/_delta_log/")) {
        files.add(key);
      }
    }
    return files;
  }

  /** {@code s3://lake/k} locations as the reads name them ({@code lake/k}), sorted. */
  private static Set<String> keys(Set<String> locations) {
    Set<String> out = new TreeSet<>();
    locations.forEach(l -> out.add(l.replaceFirst("^s3a?://", "")));
    return out;
  }

  /**
   * Rewrites table {@code tableId}'s current capture as the code before the state left the
   * metadata stored it: a pointer without state blob; with {@code legacyProperties} the state in
   * the metadata's two table properties, else nowhere.
   */
  private static void storeAsBefore(ReconcileHarness h, String tableId, boolean legacyProperties)
      throws Exception {
    Captures.Capture now = new Captures(h.repos).read(h.account, tableId).orElseThrow();
    JsonNode metadata = JsonUtil.mapper().readTree(now.metadataJson());
    if (legacyProperties) {
      JsonNode state = JsonUtil.mapper().readTree(
          DeltaCaptureRecord.of(now).deltaState().orElseThrow());
      ObjectNode properties = (ObjectNode) metadata.get("properties");
      properties.put("icegate.delta.protocol", state.get("protocol").toString());
      properties.put("icegate.delta.metadata", state.get("metadata").toString());
    }
    byte[] json = JsonUtil.mapper().writeValueAsBytes(metadata);
    String digest = new Blobs(h.store, h.repos.clock()).write(json);
    CapturePointer current = now.pointer();
    CapturePointer old = new CapturePointer(current.captureGeneration(),
        current.upstreamMetadataLocation(), digest, json.length, current.capturedAt(),
        current.metadataFile());
    byte[] pointerJson = ModelJson.mapper().writeValueAsBytes(old);
    assertThat(new String(pointerJson, StandardCharsets.UTF_8)).doesNotContain("\"state\"");
    h.store.run(Idempotence.IDEMPOTENT, tx -> {
      current.blobDigests().forEach(d -> tx.clear(KeyLayout.blobReference(d, h.account, tableId)));
      tx.set(KeyLayout.capture(h.account, tableId), pointerJson);
      tx.set(KeyLayout.blobReference(digest, h.account, tableId), new byte[0]);
      return null;
    });
  }

  /** The metadata load-table serves for {@code tableId}. */
  private static TableMetadata served(ReconcileHarness h, String tableId) {
    return h.store.read(tx -> {
      Resource<Table> table = h.repos.tables(h.account).get(tx, tableId).orElseThrow();
      return ManagedMetadata.tableMetadata(tx, (TableSource.Managed) TableSource.of(tx, table),
          "state.orders");
    });
  }

  private static TableMetadata metadata(Captures.Capture capture) {
    return TableMetadataParser.fromJson(capture.pointer().servedMetadataLocation(),
        new String(capture.metadataJson(), StandardCharsets.UTF_8));
  }
}
