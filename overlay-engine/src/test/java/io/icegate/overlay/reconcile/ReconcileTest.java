package io.icegate.overlay.reconcile;

import static io.icegate.overlay.reconcile.ReconcileCount.CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_CLAIMED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_CREATED;
import static io.icegate.overlay.reconcile.ReconcileCount.NAMESPACES_PRUNED;
import static io.icegate.overlay.reconcile.ReconcileCount.RETIRED;
import static io.icegate.overlay.reconcile.ReconcileCount.UNCHANGED;
import static io.icegate.overlay.reconcile.ReconcileCount.UPDATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.Fence;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.relation.ViewDefinition;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Reconciliation end to end against two real upstream Iceberg REST catalogs over HTTP on loopback
 * (Iceberg's REST servlet over a JDBC catalog on s3proxy, the iceberg-rest test-jar fixture), with
 * the real core services on the in-memory store.
 */
class ReconcileTest extends ReconcileWorld {
  private static ObjectStoreFixture objects;
  private static ObjectStoreFixture objectsB;
  private static IcebergRestFixture upstreamA;
  private static IcebergRestFixture upstreamB;


  @BeforeAll
  static void startUpstreams() throws Exception {
    objects = ObjectStoreFixture.startS3Proxy();
    upstreamA = IcebergRestFixture.start(objects).seed();
    objectsB = ObjectStoreFixture.startS3Proxy();
    upstreamB = IcebergRestFixture.start(objectsB);
  }

  @AfterAll
  static void stopUpstreams() throws Exception {
    upstreamA.close();
    upstreamB.close();
    objects.close();
    objectsB.close();
  }

  private static void upstreamTable(IcebergRestFixture upstream, String namespace, String name) {
    ReconcileHarness.upstreamTable(upstream, namespace, name);
  }

  @Test
  void twoIntegrationsAndThreeOverlaysMergeIntoOneCatalogWithLocalContent() {
    upstreamTable(upstreamB, "bravo", "events");
    String a = h.integration("a", upstreamA);
    String b = h.integration("b", upstreamB);
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("local"), "mine");
    h.localTable(catalog, List.of("sales"), "hand_made"); // a local table inside a selected namespace
    String sales = h.overlay("sales", a, catalog, List.of(List.of("sales")));
    String marketing = h.overlay("marketing", a, catalog, List.of(List.of("Marketing")));
    String bravo = h.overlay("bravo", b, catalog, List.of(List.of("bravo")));

    ReconcileReport first = h.reconcile(sales);
    assertThat(first.count(CREATED)).isEqualTo(3); // orders, emea.customers, order_summary
    assertThat(first.count(NAMESPACES_CREATED)).isEqualTo(1); // sales.emea; sales existed locally
    assertThat(first.count(NAMESPACES_CLAIMED)).isEqualTo(2);
    h.reconcile(marketing);
    h.reconcile(bravo);

    Map<String, Resource<?>> relations = h.relations(catalog);
    assertThat(relations).containsOnlyKeys("local.mine", "sales.hand_made", "sales.orders",
        "sales.emea.customers", "sales.order_summary", "Marketing.Campaigns", "bravo.events");
    assertThat(ReconcileHarness.managedBy(relations.get("sales.orders"))).isEqualTo(sales);
    assertThat(ReconcileHarness.managedBy(relations.get("Marketing.Campaigns")))
        .isEqualTo(marketing);
    assertThat(ReconcileHarness.managedBy(relations.get("bravo.events"))).isEqualTo(bravo);
    assertThat(ReconcileHarness.managedBy(relations.get("local.mine"))).isNull();
    Resource<?> view = relations.get("sales.order_summary");
    byte[] stored = store.read(tx -> new ManagedRelations()
        .definition(tx, h.account, view.kind(), view.id())).orElseThrow();
    assertThat(ViewDefinition.fromBytes(stored).representations())
        .extracting(ViewDefinition.Representation::dialect).containsExactly("spark", "trino");

    // The same upstream table into a second Catalog is a second Table.
    String other = h.catalog("other");
    String copy = h.overlay("sales-copy", a, other, List.of(List.of("sales")));
    h.reconcile(copy);
    assertThat(h.relations(other).get("sales.orders").id())
        .isNotEqualTo(relations.get("sales.orders").id());
  }

  @Test
  void aLocalTableAtASelectedPathIsAConflictAndNothingIsPublished() {
    String a = h.integration("a", upstreamA);
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("sales"), "orders");
    h.localTable(catalog, List.of("Marketing"), "Campaigns");
    String overlay = h.overlay("all", a, catalog, List.of());
    Map<String, String> before = h.content();

    assertThatThrownBy(() -> h.reconcile(overlay))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_CONFLICT);
          assertThat(e.details()).hasSize(2);
          assertThat(e.details()).anyMatch(d -> d.startsWith("sales.orders: a local table"));
          assertThat(e.details()).anyMatch(d -> d.startsWith("Marketing.Campaigns: a local"));
        });
    assertThat(h.content()).isEqualTo(before);
  }

  @Test
  void aPathHeldByAnotherOverlayIsAConflictButNamespacesAreShared() {
    String a = h.integration("a", upstreamA);
    String catalog = h.catalog("analytics");
    String first = h.overlay("first", a, catalog, List.of(List.of("sales", "emea")));
    String second = h.overlay("second", a, catalog, List.of(List.of("sales")));
    h.reconcile(first);
    Map<String, String> before = h.content();

    assertThatThrownBy(() -> h.reconcile(second))
        .isInstanceOfSatisfying(IcegateException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_CONFLICT);
          assertThat(e.details()).containsExactly("sales.emea.customers: table managed by overlay "
              + first + " holds the path");
        });
    assertThat(h.content()).isEqualTo(before);

    // Narrowed to what the first does not hold, the second shares the sales namespace with it.
    h.overlays.update(h.account, second, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales")), List.of(List.of("sales", "emea")));
    assertThat(h.reconcile(second).count(CREATED)).isEqualTo(2);
    assertThat(h.relations(catalog)).containsOnlyKeys("sales.orders", "sales.order_summary",
        "sales.emea.customers");
  }

  @Test
  void betweenRunsNewNamespacesAppearDroppedTablesRetireRenamesKeepTheResource() {
    upstreamTable(upstreamB, "evolve", "t1");
    upstreamTable(upstreamB, "evolve", "t2");
    String b = h.integration("b", upstreamB);
    String catalog = h.catalog("analytics");
    String overlay = h.overlay("evolve", b, catalog, List.of(List.of("evolve")));
    h.reconcile(overlay);
    String t1 = h.relations(catalog).get("evolve.t1").id();

    JdbcCatalog upstream = upstreamB.backingCatalog();
    upstreamTable(upstreamB, "evolve.fresh", "t3");
    upstream.dropTable(TableIdentifier.of("evolve", "t2"));
    upstream.renameTable(TableIdentifier.of("evolve", "t1"),
        TableIdentifier.of(Namespace.of("evolve", "fresh"), "t1_renamed"));
    ReconcileReport second = h.reconcile(overlay);

    Map<String, Resource<?>> relations = h.relations(catalog);
    assertThat(relations).containsOnlyKeys("evolve.fresh.t3", "evolve.fresh.t1_renamed");
    assertThat(relations.get("evolve.fresh.t1_renamed").id()).isEqualTo(t1);
    assertThat(second.count(CREATED)).isEqualTo(1);
    assertThat(second.count(UPDATED)).isEqualTo(1);
    assertThat(second.count(RETIRED)).isEqualTo(1);
    assertThat(h.namespaces(catalog)).containsExactly("evolve", "evolve.fresh");

    // An unchanged re-run writes nothing at all, not even its run record.
    Map<String, String> before = h.content();
    var stats = store.stats();
    ReconcileReport third = h.reconcile(overlay);
    assertThat(third.count(UNCHANGED)).isEqualTo(2);
    assertThat(third.count(CREATED) + third.count(UPDATED) + third.count(RETIRED)).isZero();
    assertThat(store.stats().committedWrites()).isEqualTo(stats.committedWrites());
    assertThat(store.stats().mutations()).isEqualTo(stats.mutations());
    assertThat(h.content()).isEqualTo(before);
    // It reports the generation of the last run that recorded one (the second run's).
    assertThat(third.runGeneration()).isEqualTo(second.runGeneration()).isEqualTo(2);
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterIntegrationUriUpdate() {
    assertFenced(ctx -> h.integrations.update(h.account, ctx.integration, ExpectedGeneration.any(),
        null, null, upstreamA.uri() + "/", null));
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterCredentialRotation() {
    assertFenced(ctx -> h.integrations.rotate(h.account, ctx.integration, ExpectedGeneration.any(),
        new IntegrationAuthentication.Bearer(), new SecretValues(Map.of("token", "rotated"))));
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterOverlayUpdate() {
    assertFenced(ctx -> h.overlays.update(h.account, ctx.overlay, ExpectedGeneration.any(), null,
        null, null, List.of(List.of("Marketing")), null));
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterOverlayDeletion() {
    assertFenced(ctx -> h.overlays.delete(h.account, ctx.overlay, ExpectedGeneration.any()),
        "was deleted");
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterAccountDeletion() {
    assertFenced(ctx -> h.accountDeletion.delete(h.account, ExpectedGeneration.any()),
        "deleted");
  }

  @Test
  void aStaleRunFailsWithoutPublishingAfterIntegrationCascade() {
    assertFenced(ctx -> h.cascade.delete(h.account, ctx.integration, ExpectedGeneration.any()),
        "was deleted");
  }

  @Test
  void aStaleRunFailsWithoutPublishingWhileTheCatalogIsFenced() {
    // The Catalog's deletion marker as a deletion installs it (no dependent Overlay can coexist
    // with a committed Catalog delete, so the marker is installed directly), cleared after.
    ResourceRef[] catalog = new ResourceRef[1];
    assertFenced(ctx -> {
      catalog[0] = new ResourceRef(h.account, ResourceKind.CATALOG, ctx.catalog);
      store.run(tx -> {
        h.repos.fences().install(tx, new Fence(catalog[0], "catalog-delete", Instant.EPOCH, null));
        return null;
      });
    });
    store.run(tx -> {
      h.repos.fences().clear(tx, catalog[0]);
      return null;
    });
  }

  @Test
  void aRunFencedAfterPublishingRetiresNothingAndARetryConverges() {
    String a = h.integration("a", upstreamA);
    String catalog = h.catalog("analytics");
    String overlay = h.overlay("o", a, catalog,
        List.of(List.of("Marketing"), List.of("sales", "emea")));
    h.reconcile(overlay);
    h.overlays.update(h.account, overlay, ExpectedGeneration.any(), null, null, null,
        List.of(List.of("sales")), null);
    Reconciler fenced = h.reconciler(new ReconcileHook() {
      @Override
      public void afterPublishBatch(int batch) {
        h.integrations.rotate(h.account, a, ExpectedGeneration.any(),
            new IntegrationAuthentication.Bearer(), new SecretValues(Map.of("token", "next")));
      }
    });
    assertThatThrownBy(() -> fenced.reconcile(h.account, overlay))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED));
    // What the first batch published stays; nothing was retired.
    assertThat(h.relations(catalog)).containsOnlyKeys("sales.orders", "sales.order_summary",
        "sales.emea.customers", "Marketing.Campaigns");

    ReconcileReport retry = h.reconcile(overlay);
    assertThat(retry.count(UNCHANGED)).isEqualTo(3);
    assertThat(retry.count(RETIRED)).isEqualTo(1);
    assertThat(retry.count(NAMESPACES_PRUNED)).isEqualTo(2);
    assertThat(h.relations(catalog)).containsOnlyKeys("sales.orders", "sales.order_summary",
        "sales.emea.customers");
    assertThat(h.namespaces(catalog)).containsExactly("sales", "sales.emea");
  }

  @Test
  void overlayDeleteIntegrationCascadeAndAccountDeleteRetireContributionsOnly() {
    String a = h.integration("a", upstreamA);
    String catalog = h.catalog("analytics");
    h.localTable(catalog, List.of("local"), "mine");
    String sales = h.overlay("sales", a, catalog, List.of(List.of("sales")));
    String marketing = h.overlay("marketing", a, catalog, List.of(List.of("Marketing")));
    h.reconcile(sales);
    h.reconcile(marketing);
    h.localTable(catalog, List.of("sales"), "added_later"); // local content in a created namespace

    h.overlays.delete(h.account, sales, ExpectedGeneration.any());
    assertThat(h.relations(catalog)).containsOnlyKeys("local.mine", "sales.added_later",
        "Marketing.Campaigns");
    // sales.emea was created for the Overlay and is empty: pruned; sales holds local content.
    assertThat(h.namespaces(catalog)).containsExactly("Marketing", "Marketing.BrandQ1", "local",
        "sales");
    ContributionInvariants.checker(store).assertClean();

    h.cascade.delete(h.account, a, ExpectedGeneration.any());
    assertThat(h.relations(catalog)).containsOnlyKeys("local.mine", "sales.added_later");
    assertThat(h.namespaces(catalog)).containsExactly("local", "sales");
    ContributionInvariants.checker(store).assertClean();

    String again = h.integration("again", upstreamA);
    h.reconcile(h.overlay("again", again, catalog, List.of(List.of("Marketing"))));
    h.accountDeletion.delete(h.account, ExpectedGeneration.any());
    assertThat(ContributionInvariants.checker(store).keysOfAccount(h.account)).isZero();
  }

  @Test
  void twoUpstreamPathsSharingAStableIdBothUsePathIdentityWithAWarning() {
    upstreamTable(upstreamB, "dup", "one");
    JdbcCatalog upstream = upstreamB.backingCatalog();
    String metadata = ((org.apache.iceberg.BaseTable) upstream.loadTable(
        TableIdentifier.of("dup", "one"))).operations().current().metadataFileLocation();
    upstream.registerTable(TableIdentifier.of("dup", "two"), metadata); // same table UUID
    String b = h.integration("b", upstreamB);
    String catalog = h.catalog("analytics");
    String overlay = h.overlay("dup", b, catalog, List.of(List.of("dup")));
    ReconcileReport report = h.reconcile(overlay);

    assertThat(report.count(CREATED)).isEqualTo(2);
    assertThat(report.warnings()).singleElement().asString().contains("dup.one", "dup.two");
    for (Resource<?> r : h.relations(catalog).values()) {
      assertThat(ManagedRelations.provenanceOf(r).identityStable()).isFalse();
    }
    assertThat(h.reconcile(overlay).count(UNCHANGED)).isEqualTo(2);
  }

  @Test
  void anIncludePathThatSelectsNothingUpstreamIsAWarning() {
    String a = h.integration("a", upstreamA);
    String catalog = h.catalog("analytics");
    String overlay = h.overlay("typo", a, catalog, List.of(List.of("SALES"), List.of("sales")));
    ReconcileReport report = h.reconcile(overlay);
    assertThat(report.count(CREATED)).isPositive(); // sales still reconciles
    assertThat(report.warnings()).singleElement().asString()
        .contains("include path SALES selects no upstream namespace");
  }

  private void assertFenced(Consumer<Ctx> change) {
    assertFenced(change, "");
  }

  /**
   * What a hook between discovery and publication changes; the stale run then publishes nothing
   * and its message contains {@code says} (a finished deletion says so, not that a configuration
   * changed: the tryout's reconcile during an Integration cascade was told the latter).
   */
  private void assertFenced(Consumer<Ctx> change, String says) {
    Ctx ctx = new Ctx();
    ctx.integration = h.integration("a", upstreamA);
    ctx.catalog = h.catalog("analytics");
    ctx.overlay = h.overlay("sales", ctx.integration, ctx.catalog, List.of(List.of("sales")));
    Reconciler stale = h.reconciler(new ReconcileHook() {
      @Override
      public void afterDiscovery(Inventory inventory) {
        assertThat(inventory.relations()).hasSize(3);
        change.accept(ctx);
        ctx.afterNewer = h.content();
      }
    });
    assertThatThrownBy(() -> stale.reconcile(h.account, ctx.overlay))
        .isInstanceOfSatisfying(IcegateException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.RECONCILE_SUPERSEDED);
              assertThat(e.getMessage()).contains(says);
            });
    assertThat(h.content()).isEqualTo(ctx.afterNewer);
    assertThat(h.relations(ctx.catalog)).isEmpty();
  }

  private static final class Ctx {
    String integration;
    String catalog;
    String overlay;
    Map<String, String> afterNewer;
  }
}
