package io.icegate.overlay.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.delta.fixture.KernelTableWriter;
import io.icegate.core.model.Catalog;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KvStore;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.generated.GeneratedFiles;
import io.icegate.overlay.generated.GeneratedFilesCollector;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26, "unreferenced generated files are collected after a grace period", on a {@code file:}
 * warehouse and on an object store (s3proxy, the Catalog's own store): files a new capture no
 * longer references stay while their metadata file was current within the grace period (a reader
 * may hold it) and while they are younger than it (a capture in flight), then go; what the
 * current capture references never goes; a deleted Table's files go after the grace. The Delta
 * table comes from {@link UnityDeltaUpstream}, the object store from {@link GeneratedWarehouse}.
 * Also how a capture writes its metadata file there: without asking the store first.
 */
class GeneratedFilesCollectionTest {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();
  @RegisterExtension static final GeneratedWarehouse warehouse =
      new GeneratedWarehouse("warehouse-secret-5c1a");
  private static final Duration GRACE = Duration.ofHours(1);

  @TempDir Path scratch;
  @TempDir Path localWarehouse;

  private KvStore store;

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"file", "s3"})
  void unreferencedGeneratedFilesGoAfterTheGracePeriodAndReferencedOnesStay(String kind)
      throws Exception {
    store = ReconcileHarness.openStore("memory", scratch);
    CatalogFiles files = catalog -> catalog.spec().warehouse().startsWith("s3:")
        ? warehouse.io() : CatalogFiles.LOCAL.forCatalog(catalog);
    ReconcileHarness h = new ReconcileHarness(store, Clock.systemUTC(), files);
    String location = kind.equals("s3") ? "s3://" + GeneratedWarehouse.BUCKET + "/" + kind + "-wh"
        : "file:" + localWarehouse.toAbsolutePath();
    String namespace = "gc" + kind;
    String path = namespace + "/orders";
    KernelTableWriter delta = upstream.createAndServeOrders(scratch, namespace);
    var catalog = h.repos.catalogs(h.account).create(new Catalog("analytics", location, Map.of()));
    FileIO io = files.forCatalog(catalog);
    String overlay = upstream.overlay(h, "gc", catalog.id(), namespace);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog.id()).get(namespace + ".orders").id();
    String prefix = GeneratedFiles.location(catalog, tableId);
    Captures captures = new Captures(h.repos);

    // the collector's clock is two hours ahead: every file written so far is past its write grace
    MutableClock later = new MutableClock(Instant.now().plus(Duration.ofHours(2)));
    GeneratedFilesCollector collector =
        new GeneratedFilesCollector(h.repos, h.services.credentials(), files, later, GRACE);
    TableMetadata first = current(captures, h, tableId);
    assertThat(collector.collect(catalog).deleted()).isZero(); // all referenced; first seen now
    Set<String> firstFiles = listed(io, prefix);

    // a new commit; without retention the first snapshot goes from the metadata
    UnityDeltaUpstream.appendAndUpload(delta, path, "US", 2L);
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    TableMetadata second = current(captures, h, tableId);
    assertThat(second.snapshots()).hasSize(1);
    Set<String> live = referenced(second, io);
    Set<String> garbage = new TreeSet<>(firstFiles);
    garbage.removeAll(live);
    assertThat(garbage).contains(local(first.metadataFileLocation()),
        local(first.currentSnapshot().manifestListLocation()));

    // on the real clock everything is younger than the grace: nothing goes
    assertThat(new GeneratedFilesCollector(h.repos, h.services.credentials(), files, Clock.systemUTC(), GRACE)
        .collect(catalog).deleted()).isZero();
    // the first metadata file was current 30 minutes ago: a reader may hold it, nothing goes
    later.advance(Duration.ofMinutes(30));
    assertThat(collector.collect(catalog).deleted()).isZero();
    assertThat(listed(io, prefix)).containsAll(firstFiles);

    // past the grace: exactly the files only the first capture referenced go
    later.advance(GRACE);
    assertThat(collector.collect(catalog).deleted()).isEqualTo(garbage.size());
    Set<String> after = listed(io, prefix);
    assertThat(after).containsAll(live).doesNotContainAnyElementsOf(garbage);
    // a second pass (another gateway) finds nothing more
    assertThat(collector.collect(catalog).deleted()).isZero();

    // the Table is deleted: its files stay while its last metadata was current within the grace
    h.overlays.delete(h.account, overlay, ExpectedGeneration.any());
    assertThat(collector.collect(catalog).deleted()).isZero();
    later.advance(GRACE.plusMinutes(1));
    assertThat(collector.collect(catalog).deleted()).isEqualTo(after.size());
    assertThat(listed(io, prefix)).isEmpty();
  }

  /**
   * A capture's metadata file has a fresh name (a UUID in it), so it is written without asking
   * the store first whether it exists (S3FileIO's {@code create()} sends a HEAD before the PUT:
   * one more round trip for every capture); nothing of the capture reads it back either.
   */
  @Test
  void aCaptureWritesItsMetadataFileWithoutAskingTheStoreFirst() throws Exception {
    store = ReconcileHarness.openStore("memory", scratch);
    ReconcileHarness h = new ReconcileHarness(store, Clock.systemUTC(), c -> warehouse.io());
    String namespace = "nohead";
    upstream.createAndServeOrders(scratch, namespace);
    var catalog = h.repos.catalogs(h.account).create(new Catalog("analytics",
        "s3://" + GeneratedWarehouse.BUCKET + "/nohead-wh", Map.of()));
    String overlay = upstream.overlay(h, "nohead", catalog.id(), namespace);
    int before = warehouse.store().reads().size();
    assertThat(h.reconcile(overlay).warnings()).isEmpty();
    String tableId = h.relations(catalog.id()).get(namespace + ".orders").id();
    String written = current(new Captures(h.repos), h, tableId).metadataFileLocation();
    assertThat(written).startsWith("s3://" + GeneratedWarehouse.BUCKET + "/nohead-wh/");
    List<String> reads = warehouse.store().reads();
    assertThat(reads.subList(before, reads.size()))
        .noneMatch(key -> key.endsWith(".metadata.json"));
  }

  private static TableMetadata current(Captures captures, ReconcileHarness h, String tableId) {
    Captures.Capture capture = captures.read(h.account, tableId).orElseThrow();
    return TableMetadataParser.fromJson(capture.pointer().metadataFile(),
        new String(capture.metadataJson(), StandardCharsets.UTF_8));
  }

  /** The metadata file, manifest lists and manifests {@code metadata} references. */
  private static Set<String> referenced(TableMetadata metadata, FileIO io) {
    Set<String> out = new TreeSet<>();
    out.add(local(metadata.metadataFileLocation()));
    for (Snapshot snapshot : metadata.snapshots()) {
      out.add(local(snapshot.manifestListLocation()));
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        out.add(local(manifest.path()));
      }
    }
    return out;
  }

  private static Set<String> listed(FileIO io, String prefix) {
    Set<String> out = new TreeSet<>();
    for (FileInfo file : ((SupportsPrefixOperations) io).listPrefix(prefix + "/")) {
      out.add(local(file.location()));
    }
    return out;
  }

  private static String local(String location) {
    return location.startsWith("file:///") ? "file:/" + location.substring(8) : location;
  }
}
