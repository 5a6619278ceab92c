package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURED;
import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURE_FAILED;
import static io.icegate.overlay.reconcile.ReconcileCount.CAPTURE_UNCHANGED;
import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.UPDATED;
import static io.icegate.overlay.reconcile.ReconcileCount.VALIDATED;
import static io.icegate.overlay.reconcile.ReconcileCount.VALIDATION_FAILED;
import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import io.icegate.overlay.store.validation.Visibility;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Batched capture against the real upstream Iceberg REST fixture over HTTP: a capturing run loads
 * each upstream table once (discovery keeps the metadata capture needs) and commits a number of
 * write transactions that grows with tables / batch, not with tables; a capture on request
 * commits exactly a blob and a pointer transaction per batch plus its run's end.
 *
 * <p>Validation follows capture in the same run: each table with a snapshot costs one more
 * upstream load (the upstream is asked to vend for it; the fixture vends nothing here, so each is
 * one error) and one validation transaction (its small error set is allocated, written and
 * switched together). Those are counted apart from capture's.
 */
class CaptureBatchTest {
  private static final int TABLES = 7;
  private static final int BATCH = 3;
  private static final int BATCHES = (TABLES + BATCH - 1) / BATCH;

  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  private KvStore store;
  private ReconcileHarness h;

  @BeforeAll
  static void startUpstream() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(objects);
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.close();
    objects.close();
  }

  @BeforeEach
  void world() {
    store = new EngineKvStore(InMemoryEngine.create());
    h = new ReconcileHarness(store, MutableClock.start());
  }

  @AfterEach
  void clean() {
    ContributionInvariants.checker(store).assertClean();
    store.close();
  }

  private static ReconcileSettings settings() {
    return new ReconcileSettings(4, BATCH, Duration.ofMinutes(10));
  }

  /** Upstream loads of table {@code ns.name} in the fixture's request log. */
  private static long loads(String ns, String name) {
    String path = "/namespaces/" + ns + "/tables/" + name;
    return upstream.requests().requests().stream()
        .filter(line -> line.startsWith("GET ")
            && (line.endsWith(path) || line.contains(path + "?")))
        .count();
  }

  /** The table names, the Catalog id and the Overlay id of {@link #overlaid}. */
  private record Overlaid(List<String> names, String catalog, String overlay) {}

  /**
   * Upstream namespace {@code ns} with tables t0..t{TABLES-1} (one snapshot each when {@code
   * withSnapshot}), and an Overlay of it into a new Catalog {@code c}.
   */
  private Overlaid overlaid(String ns, boolean withSnapshot) {
    upstream.backingCatalog().createNamespace(Namespace.of(ns));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < TABLES; i++) {
      names.add("t" + i);
      upstream.backingCatalog().createTable(TableIdentifier.of(ns, "t" + i),
          IcebergRestFixture.ORDERS_SCHEMA);
      if (withSnapshot) {
        CaptureTestUpstream.append(upstream, ns, "t" + i);
      }
    }
    String catalog = h.catalog("c");
    return new Overlaid(names, catalog,
        h.overlay("o", h.integration("up", upstream), catalog, List.of(List.of(ns))));
  }

  @Test
  void aCapturingRunLoadsEachTableOnceAndWritesPerBatchNotPerTable() {
    String ns = "batch";
    Overlaid w = overlaid(ns, true);
    List<String> names = w.names();
    String catalog = w.catalog();
    String overlay = w.overlay();
    Reconciler reconciler =
        new Reconciler(h.repos, h.adapter, h.clients, settings(), ReconcileHook.NONE);

    upstream.requests().clear();
    long writes = store.stats().committedWrites();
    ReconcileReport first = reconciler.reconcile(h.account, overlay);
    long initialWrites = store.stats().committedWrites() - writes;
    assertThat(first.count(CREATED)).isEqualTo(TABLES);
    assertThat(first.count(CAPTURED)).isEqualTo(TABLES);
    assertThat(first.count(CAPTURE_FAILED)).isZero();
    for (String name : names) {
      // discovery (kept for capture), then validation's vending request
      assertThat(loads(ns, name)).as("upstream loads of " + name + " in "
          + upstream.requests().requests()).isEqualTo(2);
    }
    assertThat(first.count(VALIDATION_FAILED)).isEqualTo(TABLES);
    // one namespace claim, the relations in BATCHES with their captures, one validation per
    // table (each has an error), the run's end
    assertThat(initialWrites).isEqualTo(1 + BATCHES + TABLES + 1);
    Captures captures = new Captures(h.repos);
    for (String name : names) {
      String tableId = h.relations(catalog).get(ns + "." + name).id();
      CapturePointer pointer = captures.pointer(h.account, tableId).orElseThrow();
      assertThat(pointer.captureGeneration()).isEqualTo(1);
      assertThat(pointer.upstreamMetadataLocation()).isEqualTo(
          CaptureTestUpstream.current(upstream, ns, name).metadataFileLocation());
    }

    // A capture on request after a commit to every table: a blob and a pointer transaction per
    // batch, and the end of its run; each table loaded once.
    for (String name : names) {
      CaptureTestUpstream.append(upstream, ns, name);
    }
    upstream.requests().clear();
    writes = store.stats().committedWrites();
    CaptureReport requested = new OverlayCapture(reconciler, h.repos, h.adapter, h.clients,
        settings()).capture(h.account, overlay);
    assertThat(requested.captured()).isEqualTo(TABLES);
    assertThat(store.stats().committedWrites() - writes).isEqualTo(2L * BATCHES + 1 + TABLES);
    assertThat(requested.validationFailed()).isEqualTo(TABLES);
    for (String name : names) {
      assertThat(loads(ns, name)).isEqualTo(2);
      String tableId = h.relations(catalog).get(ns + "." + name).id();
      assertThat(captures.pointer(h.account, tableId).orElseThrow().captureGeneration())
          .isEqualTo(2);
    }

    // The next reconcile updates the definitions to the new locations, which are captured
    // already; the one after it commits nothing at all.
    ReconcileReport caughtUp = reconciler.reconcile(h.account, overlay);
    assertThat(caughtUp.count(UPDATED)).isEqualTo(TABLES);
    assertThat(caughtUp.count(CAPTURED)).isZero();
    assertThat(caughtUp.count(CAPTURE_UNCHANGED)).isEqualTo(TABLES);
    writes = store.stats().committedWrites();
    ReconcileReport unchanged = reconciler.reconcile(h.account, overlay);
    assertThat(unchanged.count(CAPTURE_UNCHANGED)).isEqualTo(TABLES);
    assertThat(store.stats().committedWrites()).isEqualTo(writes);
  }

  /**
   * Tables without a snapshot (issue 8's bench shape): each is captured and validated in the
   * transaction that publishes it, so the initial run commits its namespace claim, one
   * transaction per batch and its end, nothing per table; every table is visible at once.
   */
  @Test
  void snapshotlessTablesAreCapturedAndValidatedInTheirPublicationTransaction() {
    String ns = "fresh";
    Overlaid w = overlaid(ns, false);
    String catalog = w.catalog();
    String overlay = w.overlay();
    Reconciler reconciler =
        new Reconciler(h.repos, h.adapter, h.clients, settings(), ReconcileHook.NONE);

    upstream.requests().clear();
    long writes = store.stats().committedWrites();
    ReconcileReport first = reconciler.reconcile(h.account, overlay);
    assertThat(store.stats().committedWrites() - writes).isEqualTo(1 + BATCHES + 1);
    assertThat(first.count(CREATED)).isEqualTo(TABLES);
    assertThat(first.count(CAPTURED)).isEqualTo(TABLES);
    assertThat(first.count(VALIDATED)).isEqualTo(TABLES);
    assertThat(first.count(VALIDATION_FAILED)).isZero();
    TableValidations validations = new TableValidations(h.repos);
    Captures captures = new Captures(h.repos);
    for (int i = 0; i < TABLES; i++) {
      assertThat(loads(ns, "t" + i)).as("discovery's load only").isEqualTo(1);
      Resource<Table> table = h.repos.tables(h.account)
          .get(h.relations(catalog).get(ns + ".t" + i).id()).orElseThrow();
      CapturePointer pointer = captures.pointer(h.account, table.id()).orElseThrow();
      assertThat(pointer.captureGeneration()).isEqualTo(1);
      assertThat(table.spec().properties().get(Captures.CAPTURED_AT_PROPERTY))
          .isEqualTo(pointer.capturedAt().toString());
      ValidationStatus status = validations.status(h.account, table.id()).orElseThrow();
      assertThat(status.state()).isEqualTo(ValidationState.VALID);
      assertThat(status.captureGeneration()).isEqualTo(1);
      Visibility visibility = store.read(tx -> validations.visibility(tx, h.account, table));
      assertThat(visibility.visible()).isTrue();
    }

    // a commit upstream gives one table a snapshot: captured with its new definition, then
    // validated by the validation step (the fixture vends nothing: one error), not in publication
    CaptureTestUpstream.append(upstream, ns, "t0");
    ReconcileReport second = reconciler.reconcile(h.account, overlay);
    assertThat(second.count(UPDATED)).isEqualTo(1);
    assertThat(second.count(CAPTURED)).isEqualTo(1);
    assertThat(second.count(VALIDATION_FAILED)).isEqualTo(1);
    String t0 = h.relations(catalog).get(ns + ".t0").id();
    assertThat(captures.pointer(h.account, t0).orElseThrow().captureGeneration()).isEqualTo(2);
    ValidationStatus failed = validations.status(h.account, t0).orElseThrow();
    assertThat(failed.state()).isEqualTo(ValidationState.FAILED);
    assertThat(failed.captureGeneration()).isEqualTo(2);
  }
}
