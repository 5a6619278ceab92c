package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.model.Resource;
import io.icegate.core.store.KvStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 21, held objects, against the upstream Iceberg REST fixture over HTTP, on the in-memory
 * store and on SQLite: listed objects icegate cannot represent (a control character in a name or
 * namespace segment) and a table the upstream refuses to load this run are held. They are found
 * during discovery, before anything is published (an unstorable name used to fail in the middle of
 * publication, after claims and earlier batches had committed, so retirement never ran again); the
 * run succeeds, publishes the rest, retires what really went, and keeps every earlier
 * materialization of a held object exactly as it was.
 */
class HeldObjectsTest {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static ObjectStoreFixture objects;
  private static IcebergRestFixture upstream;

  @TempDir Path dir;
  private KvStore store;
  private ReconcileHarness h;
  private String catalog;

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

  @AfterEach
  void clean() {
    if (store != null) {
      ContributionInvariants.checker(store).assertClean();
      store.close();
    }
  }

  private void open(String kind) {
    store = ReconcileHarness.openStore(kind, dir);
    h = new ReconcileHarness(store, Clock.systemUTC());
    catalog = h.catalog("analytics");
  }

  private static JdbcCatalog up() {
    return upstream.backingCatalog();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void unrepresentableNamesAndAnUnloadableTableAreHeldWhileTheRestReconciles(String kind) {
    open(kind);
    String root = "h" + NAMESPACES.incrementAndGet();
    Namespace ns = Namespace.of(root);
    ReconcileHarness.upstreamTable(upstream, root, "t1");
    ReconcileHarness.upstreamTable(upstream, root, "t2");
    ReconcileHarness.upstreamTable(upstream, root, "bell\u0007");
    ReconcileHarness.upstreamTable(upstream, root + ".ctl\u0001", "inner");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog,
        List.of(List.of(root)));

    ReconcileReport first = h.reconcile(overlay);
    assertThat(first.count(CREATED)).isEqualTo(2);
    assertThat(first.held()).extracting(ReconcileReport.Held::kind, ReconcileReport.Held::path,
            ReconcileReport.Held::code)
        .containsExactlyInAnyOrder(
            tuple("table", List.of(root, "bell\u0007"), ErrorCode.NOT_REPRESENTABLE.name()),
            tuple("namespace", List.of(root, "ctl\u0001"), ErrorCode.NOT_REPRESENTABLE.name()),
            tuple("table", List.of(root, "ctl\u0001", "inner"),
                ErrorCode.NOT_REPRESENTABLE.name()));
    assertThat(first.held()).allSatisfy(held -> assertThat(held.message())
        .contains("cannot be represented in icegate", "control characters"));
    assertThat(h.namespaces(catalog)).containsExactly(root);
    Map<String, Resource<?>> before = h.relations(catalog);
    assertThat(before).containsOnlyKeys(root + ".t1", root + ".t2");

    upstream.loadFaults().refuse(root, "t2", 403); // the upstream refuses to load it
    up().dropTable(TableIdentifier.of(ns, "t1"), false);
    ReconcileReport second = h.reconcile(overlay);

    assertThat(second.held()).extracting(ReconcileReport.Held::path)
        .contains(List.of(root, "t2"));
    assertThat(second.held()).filteredOn(held -> held.path().equals(List.of(root, "t2")))
        .singleElement().satisfies(held -> {
          assertThat(held.code()).isEqualTo(ErrorCode.UPSTREAM_FAILED.name());
          assertThat(held.message()).contains("table " + root + ".t2", "PERMISSION_DENIED");
        });
    assertThat(second.count(RETIRED)).isEqualTo(1); // t1 went upstream; retirement still runs
    Map<String, Resource<?>> after = h.relations(catalog);
    assertThat(after).containsOnlyKeys(root + ".t2");
    assertThat(after.get(root + ".t2")).isEqualTo(before.get(root + ".t2"));
    String t2 = after.get(root + ".t2").id();
    HeldMarks marks = new HeldMarks();
    Optional<HeldMarks.Mark> mark = store.read(tx -> marks.get(tx, h.account, overlay, t2));
    assertThat(mark).hasValueSatisfying(m -> {
      assertThat(m.code()).isEqualTo(ErrorCode.UPSTREAM_FAILED.name());
      assertThat(m.message()).contains(root + ".t2");
    });
    // held again: the mark (and its since) stays, nothing is written
    long writes = store.stats().committedWrites();
    h.reconcile(overlay);
    assertThat(store.stats().committedWrites()).isEqualTo(writes);
    Optional<HeldMarks.Mark> again = store.read(tx -> marks.get(tx, h.account, overlay, t2));
    assertThat(again).isEqualTo(mark);

    upstream.loadFaults().refuse(root, "t2", 0);
    ReconcileReport third = h.reconcile(overlay);
    assertThat(third.held()).extracting(ReconcileReport.Held::path)
        .doesNotContain(List.of(root, "t2"));
    assertThat(third.count(UNCHANGED)).isEqualTo(1);
    Optional<HeldMarks.Mark> cleared = store.read(tx -> marks.get(tx, h.account, overlay, t2));
    assertThat(cleared).isEmpty();
  }
}
