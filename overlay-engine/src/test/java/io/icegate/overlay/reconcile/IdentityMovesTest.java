package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_PRUNED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static io.icegate.overlay.reconcile.ReconcileCount.UPDATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KvStore;
import io.icegate.overlay.store.validation.TableValidations;
import io.icegate.overlay.store.validation.VisibilityOverride;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
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
 * Issue 21, identity moves (seed 000 "Upstream identity"): permutations of paths among one
 * Overlay's own tables and views, mixed with creates, drops, re-creates and namespace moves,
 * reconcile in one run, against the upstream Iceberg REST fixture over HTTP (stable table and view
 * UUIDs survive its renames), on the in-memory store with real conflicts and on SQLite. Every
 * identity keeps its icegate id, capture and visibility override at its new path; a path handed
 * from a dropped identity to a new one is a retirement plus a creation. Content outside the
 * Overlay still fails the run with nothing published.
 */
class IdentityMovesTest {
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

  /** A fresh top-level namespace name: the upstream fixture is shared by every test. */
  private static String freshNamespace() {
    return "m" + NAMESPACES.incrementAndGet();
  }

  private static JdbcCatalog up() {
    return upstream.backingCatalog();
  }

  private static TableIdentifier id(String ns, String name) {
    return TableIdentifier.of(Namespace.of(ns.split("\\.")), name);
  }

  private static void namespace(String ns) {
    ReconcileHarness.upstreamTable(upstream, ns, null);
  }

  private static void table(String ns, String name) {
    ReconcileHarness.upstreamTable(upstream, ns, name);
  }

  private static void view(String ns, String name) {
    namespace(ns);
    up().buildView(id(ns, name)).withSchema(IcebergRestFixture.SUMMARY_SCHEMA)
        .withDefaultNamespace(Namespace.of(ns.split("\\.")))
        .withQuery("spark", "SELECT customer, 1 AS total FROM t").create();
  }

  /** Renames upstream, a table or a view, keeping its UUID. */
  private static void rename(String fromNs, String from, String toNs, String to) {
    if (up().viewExists(id(fromNs, from))) {
      up().renameView(id(fromNs, from), id(toNs, to));
    } else {
      up().renameTable(id(fromNs, from), id(toNs, to));
    }
  }

  /** Rotates paths upstream: the object at {@code paths[i]} moves to {@code paths[i + 1]}. */
  private static void rotate(String... paths) {
    for (int i = 0; i < paths.length; i++) {
      String[] p = split(paths[i]);
      rename(p[0], p[1], p[0], "aside_" + i);
    }
    for (int i = 0; i < paths.length; i++) {
      String[] from = split(paths[i]);
      String[] to = split(paths[(i + 1) % paths.length]);
      rename(from[0], "aside_" + i, to[0], to[1]);
    }
  }

  private static String[] split(String path) {
    int dot = path.lastIndexOf('.');
    return new String[] {path.substring(0, dot), path.substring(dot + 1)};
  }

  /** Resource id of each relation of the catalog, by dotted path. */
  private Map<String, String> ids() {
    Map<String, String> out = new HashMap<>();
    h.relations(catalog).forEach((path, r) -> out.put(path, r.id()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aSwapAndARotationOfTablesAndViewsReconcileInOneRunKeepingEachIdentity(String kind) {
    open(kind);
    String ns = freshNamespace();
    table(ns, "t1");
    table(ns, "t2");
    table(ns, "t3");
    view(ns, "v1");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog, List.of(List.of(ns)));
    h.reconcile(overlay);
    Map<String, String> before = ids();

    rotate(ns + ".t1", ns + ".t2"); // a swap
    rotate(ns + ".t3", ns + ".v1"); // a table and a view trade paths
    ReconcileReport report = h.reconcile(overlay);

    assertThat(report.count(UPDATED)).isEqualTo(4);
    assertThat(report.count(CREATED) + report.count(RETIRED)).isZero();
    Map<String, Resource<?>> after = h.relations(catalog);
    assertThat(after.get(ns + ".t2").id()).isEqualTo(before.get(ns + ".t1"));
    assertThat(after.get(ns + ".t1").id()).isEqualTo(before.get(ns + ".t2"));
    assertThat(after.get(ns + ".v1").id()).isEqualTo(before.get(ns + ".t3"));
    assertThat(after.get(ns + ".v1").kind()).isEqualTo(ResourceKind.TABLE);
    assertThat(after.get(ns + ".t3").id()).isEqualTo(before.get(ns + ".v1"));
    assertThat(after.get(ns + ".t3").kind()).isEqualTo(ResourceKind.VIEW);
    assertThat(after.keySet()).noneMatch(p -> p.contains(Destination.ASIDE_PREFIX));
    ContributionInvariants.checker(store).assertClean();
    assertThat(h.reconcile(overlay).count(UNCHANGED)).isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aCycleAcrossNamespacesWithCreatesDropsARecreateAndANamespaceMoveReconcilesInOneRun(
      String kind) {
    open(kind);
    String root = freshNamespace();
    String a = root + ".a";
    String b = root + ".b";
    String old = root + ".old";
    table(a, "a1");
    table(a, "a2");
    table(b, "b1");
    table(b, "b2");
    table(old, "o1");
    view(old, "ov");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog,
        List.of(List.of(root)));
    h.reconcile(overlay);
    Map<String, String> before = ids();

    rotate(a + ".a1", b + ".b1", a + ".a2"); // a1 -> b.b1, b1 -> a.a2, a2 -> a.a1
    namespace(root + ".moved");
    rename(old, "o1", root + ".moved", "o1"); // the namespace moves ...
    rename(old, "ov", root + ".moved", "ov");
    up().dropNamespace(Namespace.of(root, "old")); // ... and the old one goes
    up().dropTable(id(b, "b2"));
    table(b, "b2"); // the same name, a new identity
    table(a, "fresh");
    ReconcileReport report = h.reconcile(overlay);

    assertThat(report.count(UPDATED)).isEqualTo(5);
    assertThat(report.count(CREATED)).isEqualTo(2); // a.fresh and the new b.b2
    assertThat(report.count(RETIRED)).isEqualTo(1); // the old b.b2
    assertThat(report.count(NAMESPACES_CREATED)).isEqualTo(1);
    assertThat(report.count(NAMESPACES_PRUNED)).isEqualTo(1);
    Map<String, String> after = ids();
    assertThat(after.get(b + ".b1")).isEqualTo(before.get(a + ".a1"));
    assertThat(after.get(a + ".a2")).isEqualTo(before.get(b + ".b1"));
    assertThat(after.get(a + ".a1")).isEqualTo(before.get(a + ".a2"));
    assertThat(after.get(root + ".moved.o1")).isEqualTo(before.get(old + ".o1"));
    assertThat(after.get(root + ".moved.ov")).isEqualTo(before.get(old + ".ov"));
    assertThat(after.get(b + ".b2")).isNotNull().isNotEqualTo(before.get(b + ".b2"));
    assertThat(after).hasSize(7);
    assertThat(h.namespaces(catalog)).doesNotContain(old).contains(root + ".moved");
    ContributionInvariants.checker(store).assertClean();
    assertThat(h.reconcile(overlay).count(UNCHANGED)).isEqualTo(7);
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aChainEndingInADroppedTableHandsEachPathOnAndCountsTheRetirement(String kind) {
    open(kind);
    String ns = freshNamespace();
    table(ns, "t1");
    table(ns, "t2");
    table(ns, "t3");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog, List.of(List.of(ns)));
    h.reconcile(overlay);
    Map<String, String> before = ids();

    up().dropTable(id(ns, "t3"));
    rename(ns, "t2", ns, "t3");
    rename(ns, "t1", ns, "t2");
    table(ns, "t1"); // a new identity takes the head of the chain
    ReconcileReport report = h.reconcile(overlay);

    assertThat(report.count(CREATED)).isEqualTo(1);
    assertThat(report.count(UPDATED)).isEqualTo(2);
    assertThat(report.count(RETIRED)).isEqualTo(1);
    Map<String, String> after = ids();
    assertThat(after.get(ns + ".t3")).isEqualTo(before.get(ns + ".t2"));
    assertThat(after.get(ns + ".t2")).isEqualTo(before.get(ns + ".t1"));
    assertThat(after.get(ns + ".t1")).isNotIn(before.values());
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void captureAndVisibilityOverrideStayWithTheIdentityThroughASwap(String kind) {
    open(kind);
    String ns = freshNamespace();
    table(ns, "t1");
    table(ns, "t2");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog, List.of(List.of(ns)));
    h.reconcile(overlay);
    Map<String, String> before = ids();
    String t1 = before.get(ns + ".t1");
    TableValidations validations = new TableValidations(h.repos);
    VisibilityOverride override = validations.setOverride(h.account, t1, "trusted");
    Map<String, Optional<CapturePointer>> captures = new HashMap<>();
    for (String id : before.values()) {
      captures.put(id, store.read(tx -> new CapturePointers().get(tx, h.account, id)));
    }
    Map<String, String> properties = new HashMap<>();
    h.relations(catalog).forEach((path, r) -> properties.put(r.id(),
        ((io.icegate.core.model.Table) r.spec()).properties().toString()));

    rotate(ns + ".t1", ns + ".t2");
    assertThat(h.reconcile(overlay).count(UPDATED)).isEqualTo(2);

    Map<String, Resource<?>> after = h.relations(catalog);
    assertThat(after.get(ns + ".t2").id()).isEqualTo(t1);
    Optional<VisibilityOverride> kept = store.read(tx -> validations.override(tx, h.account, t1));
    assertThat(kept).contains(override);
    for (Resource<?> r : after.values()) {
      assertThat(captures.get(r.id())).isPresent();
      Optional<CapturePointer> capture =
          store.read(tx -> new CapturePointers().get(tx, h.account, r.id()));
      assertThat(capture).isEqualTo(captures.get(r.id()));
      assertThat(((io.icegate.core.model.Table) r.spec()).properties().toString())
          .isEqualTo(properties.get(r.id()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void aSwapBesideAMoveOntoALocalTableFailsNamingThatPathAndItsHolderAndPublishesNothing(
      String kind) {
    open(kind);
    String ns = freshNamespace();
    table(ns, "t1");
    table(ns, "t2");
    table(ns, "t3");
    String overlay = h.overlay("o", h.integration("a", upstream), catalog, List.of(List.of(ns)));
    h.reconcile(overlay);
    String local = h.localTable(catalog, List.of(ns), "mine");
    rotate(ns + ".t1", ns + ".t2");
    rename(ns, "t3", ns, "mine");
    Map<String, String> content = h.content();

    assertThatThrownBy(() -> h.reconcile(overlay))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_CONFLICT);
          assertThat(e.details()).containsExactly(ns + ".mine: a local table holds the path");
        });
    assertThat(h.content()).isEqualTo(content);

    h.repos.tables(h.account).delete(local, ExpectedGeneration.any());
    ReconcileReport report = h.reconcile(overlay);
    assertThat(report.count(UPDATED)).isEqualTo(3);
  }
}
