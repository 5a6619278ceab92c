package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.overlay.store.testing.ContributionInvariants;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.delta.fixture.DeltaLogWriter;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.store.KvStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 21, no mass retirement by mistake, on the in-memory store and on SQLite: a run that would
 * retire every relation of its Overlay, or every relation under one include path, fails with
 * MASS_RETIREMENT_UNCONFIRMED naming the counts, nothing published, unless confirmed; an
 * Integration pointed at another Unity catalog is exactly that case, and one pointed at a Unity
 * catalog that does not exist is a NOT_FOUND naming that catalog.
 */
class MassRetirementTest {
  @RegisterExtension static final UnityDeltaUpstream upstream = new UnityDeltaUpstream();
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static IcebergRestFixture iceberg;

  @TempDir Path dir;
  private KvStore store;
  private ReconcileHarness h;
  private String catalog;

  @BeforeAll
  static void startUpstreams() throws Exception {
    iceberg = IcebergRestFixture.start(upstream.objects());
    upstream.unity().requireOAuth();
    DeltaLogWriter log = new DeltaLogWriter(upstream.s3(), UnityDeltaUpstream.LAKE);
    for (String unityCatalog : List.of("main", "other")) {
      for (String name : List.of("a", "b")) {
        String path = unityCatalog + "/sales/" + name;
        upstream.unity().addTable(unityCatalog, "sales", name, "EXTERNAL", "DELTA",
            UnityDeltaUpstream.location(path), Map.of("id", "long"));
        log.commitSchema(path, 0, Map.of("id", "long"));
      }
    }
  }

  @AfterAll
  static void stopUpstreams() throws Exception {
    iceberg.close();
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
    return iceberg.backingCatalog();
  }

  private static void table(String ns, String name) {
    ReconcileHarness.upstreamTable(iceberg, ns, name);
  }

  private static void drop(String ns, String name) {
    up().dropTable(TableIdentifier.of(Namespace.of(ns.split("\\.")), name), false);
  }

  /** Changes the Unity {@code catalog} connection property of {@code integration}. */
  private void pointAt(String integration, String unityCatalog) {
    Map<String, String> properties = new java.util.HashMap<>(h.repos.integrations(h.account)
        .get(integration).orElseThrow().spec().properties());
    properties.put("catalog", unityCatalog);
    h.integrations.update(h.account, integration, ExpectedGeneration.any(), null, null, null,
        properties);
  }

  private static void assertUnconfirmed(Runnable run, String... details) {
    assertThatThrownBy(run::run).isInstanceOfSatisfying(IcegateException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.MASS_RETIREMENT_UNCONFIRMED);
      assertThat(e.details()).containsExactly(details);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void retiringEverythingTheOverlayHoldsNeedsConfirmation(String kind) {
    open(kind);
    String ns = "r" + NAMESPACES.incrementAndGet();
    table(ns, "t1");
    table(ns, "t2");
    String overlay = h.overlay("o", h.integration("a", iceberg), catalog, List.of(List.of(ns)));
    h.reconcile(overlay);
    drop(ns, "t1");
    drop(ns, "t2");
    Map<String, String> content = h.content();

    assertUnconfirmed(() -> h.reconcile(overlay),
        "all 2 relation(s) of the overlay would be retired",
        "all 2 relation(s) under include path " + ns + " would be retired");
    assertThat(h.content()).isEqualTo(content);

    ReconcileReport confirmed = h.reconciler(ReconcileHook.NONE)
        .reconcile(h.account, overlay, MassRetirement.CONFIRMED, holder -> false);
    assertThat(confirmed.count(RETIRED)).isEqualTo(2);
    assertThat(h.relations(catalog)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void emptyingOneIncludePathNeedsConfirmationWhileOrdinaryChurnDoesNot(String kind) {
    open(kind);
    String a = "r" + NAMESPACES.incrementAndGet();
    String b = "r" + NAMESPACES.incrementAndGet();
    table(a, "t1");
    table(a, "t2");
    table(b, "t3");
    String overlay = h.overlay("o", h.integration("a", iceberg), catalog,
        List.of(List.of(a), List.of(b)));
    h.reconcile(overlay);

    drop(a, "t1"); // ordinary churn: one of two under a
    assertThat(h.reconcile(overlay).count(RETIRED)).isEqualTo(1);

    drop(b, "t3"); // everything under b
    assertUnconfirmed(() -> h.reconcile(overlay),
        "all 1 relation(s) under include path " + b + " would be retired");
    assertThat(h.relations(catalog)).containsOnlyKeys(a + ".t2", b + ".t3");
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory", "sqlite"})
  void anIntegrationPointedAtAnotherUnityCatalogRetiresNothingAndAMissingOneIsNamed(
      String kind) {
    open(kind);
    String integration = h.unityIntegration("unity", upstream.unity(), upstream.objects(), "main");
    String overlay = h.overlay("o", integration, catalog, List.of());
    assertThat(h.reconcile(overlay).count(CREATED)).isEqualTo(2);

    // a typo that names another catalog the credentials can read: it looks like a mass drop
    pointAt(integration, "other");
    Map<String, String> content = h.content();
    assertUnconfirmed(() -> h.reconcile(overlay),
        "all 2 relation(s) of the overlay would be retired");
    assertThat(h.content()).isEqualTo(content);

    // a typo that names no catalog at all
    pointAt(integration, "mian");
    assertThatThrownBy(() -> h.reconcile(overlay))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
          assertThat(e.getMessage()).isEqualTo("upstream catalog mian does not exist");
        });
    assertThat(h.relations(catalog)).containsOnlyKeys("sales.a", "sales.b");
  }
}
