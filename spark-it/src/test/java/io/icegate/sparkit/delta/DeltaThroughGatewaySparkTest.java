package io.icegate.sparkit.delta;

import static io.icegate.sparkit.delta.DeltaWorld.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.icegate.access.deltasharing.fixture.DeltaSharingFixture;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.sparkit.testing.FixtureProcess;
import io.icegate.sparkit.testing.S3Objects;
import io.icegate.sparkit.testing.Teardown;
import io.icegate.sparkit.testing.VendedOnly;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 26 end to end: a Delta table written by delta-spark (partitioned; deletion vectors after a
 * DELETE; a checkpoint; schema evolution; column mapping enabled on the existing table, then a
 * renamed column; sub-millisecond timestamps) is served by a Unity Catalog and by a Delta Sharing
 * share, reconciled by the packaged gateway, and read by Spark through the gateway with vended
 * credentials and no storage keys of its own. Every result set is compared whole with what Spark
 * reads from the Delta table directly: the latest version, a filter at the sub-millisecond bound,
 * time travel to an earlier captured version, and the rows after a new upstream commit and the
 * next reconcile.
 *
 * <p>Processes: two object stores (s3proxy, child JVMs) with different identities: {@code lake}
 * holds the Delta table (identity A, which the upstreams vend), {@code warehouse} the gateway
 * Catalog's generated metadata (identity B, which the Catalog vends), so a credential for one
 * prefix cannot quietly cover the other; the packaged gateway (child JVM); the Unity and Delta
 * Sharing fixtures (the JDK's HTTP server, in this JVM: they have no Jetty to clash with Spark's
 * Servlet 5). delta-spark writes the table on local disk (the Spark JVM has no Hadoop S3
 * filesystem), and the test copies it to the lake store after each batch of commits, as a
 * writer's commits land there; Spark's direct Delta reads use the local copy, which is the same
 * table.
 *
 * <p>The steps run in order and build on each other.
 */
@Tag("spark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeltaThroughGatewaySparkTest {
  private static final String TOKEN = "igt_spark-it-delta-token";
  private static final String LAKE_KEY = "lake-access-key";
  private static final String LAKE_SECRET = "lake-secret-key-7f3a9c2e";
  private static final String WAREHOUSE_KEY = "warehouse-access-key";
  private static final String WAREHOUSE_SECRET = "warehouse-secret-key-b41d06";
  private static final String LAKE_STORE = "lake-store";
  private static final String WAREHOUSE_STORE = "warehouse-store";
  private static final String TABLE_LOCATION = OrdersDeltaTable.LOCATION;
  private static final String GENERATED = "s3://generated/lakehouse";
  private static final String BOUND = OrdersDeltaTable.BOUND;

  private static DeltaWorld world;
  private static FixtureProcess lake;
  private static UnityCatalogFixture unity;
  private static DeltaSharingFixture sharing;
  private static SparkSession spark;
  private static DeltaFederation federation;
  private static String catalogId;
  private static String unityTableId;
  private static String unityOverlay;
  private static String sharingOverlay;
  /** The Delta table delta-spark writes on local disk, copied to the lake store. */
  private static OrdersDeltaTable orders;
  /** The Delta version of the first Unity capture. */
  private static long firstCaptured;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  static void start() throws IOException {
    world = DeltaWorld.start("delta-gateway-", TOKEN, UnityCatalogFixture::requireOAuth,
        new DeltaWorld.Store(LAKE_STORE, LAKE_KEY, LAKE_SECRET, "lake"),
        new DeltaWorld.Store(WAREHOUSE_STORE, WAREHOUSE_KEY, WAREHOUSE_SECRET, "generated"));
    lake = world.lake();
    unity = world.unity();
    spark = world.spark();
    federation = world.federation();
    sharing = DeltaSharingFixture.start();
    sharing.vend(new DeltaSharingFixture.Keys(LAKE_KEY, LAKE_SECRET, "sharing-session-token"));
    orders = new OrdersDeltaTable(spark, world.work().resolve("lake/gold/orders"),
        world.lakeKeys());
    world.sparkCatalogThroughTheGateway("lakehouse");
  }

  @BeforeEach
  void processesStillRunning() {
    world.requireAlive();
  }

  @AfterAll
  static void stop() throws Exception {
    Teardown.closeAll(sharing, world);
  }

  /**
   * delta-spark writes versions 0 to 4: a partitioned table with deletion vectors and a
   * checkpoint every 4 versions, rows with sub-millisecond timestamps, a DELETE (a deletion
   * vector), an added column, rows with it; then the table goes to the lake store.
   */
  @Test
  @Order(1)
  // Spark's first writes in a JVM are slow (about a minute on a loaded machine), Delta's too
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void deltaSparkWritesThePartitionedTable() throws IOException {
    orders.writeVersionsZeroToFour();
  }

  /**
   * Unity serves the table; a Catalog whose warehouse is on the other store, a Unity Integration
   * and an Overlay keeping 30 days of captured history, all over plain HTTP; the reconcile
   * captures and validates the table, with the credentials Unity vends for it.
   */
  @Test
  @Order(2)
  void unityServesTheTableAndTheReconcileCapturesIt() {
    unityTableId = OrdersDeltaTable.serveInUnity(unity);

    catalogId = world.catalog("lakehouse", GENERATED, WAREHOUSE_STORE,
        Map.of("vendStaticKeys", true));
    unityOverlay = overlay("gold-from-unity", federation.unityIntegration(unity, lake),
        List.of("gold"));

    JsonNode report = reconcile(unityOverlay);
    DeltaFederation.assertCapturedCleanly(report);
    assertThat(report.path("created").asLong()).as(report.toString()).isEqualTo(1);
    firstCaptured = deltaVersion();

    // generated metadata on the Catalog's store, none on the upstream's
    assertThat(S3Objects.list(world.keys(WAREHOUSE_STORE), GENERATED)).isNotEmpty()
        .allSatisfy(location -> assertThat(location).startsWith(GENERATED + "/"));
    assertThat(S3Objects.list(world.lakeKeys(), "s3://lake/"))
        .allSatisfy(location -> assertThat(location).startsWith(TABLE_LOCATION + "/"));
  }

  /** The gateway catalog's configuration, the environment and the system properties hold no keys. */
  @Test
  @Order(3)
  void sparkHoldsNoStorageKeysForTheGateway() {
    VendedOnly.assertCatalogHoldsNoStorageKeys(spark, "gw", LAKE_KEY, LAKE_SECRET, WAREHOUSE_KEY,
        WAREHOUSE_SECRET);
  }


  /** The whole table, and filters at the sub-millisecond bound, as Spark reads the Delta table. */
  @Test
  @Order(4)
  void sparkReadsThroughTheGatewayExactlyTheDeltaRows() {
    List<String> direct = deltaRows();
    assertThat(direct).hasSize(5);
    assertThat(rows(spark.table("gw.gold.orders"))).isEqualTo(direct);
    for (String filter : List.of("ts = " + BOUND, "ts > " + BOUND)) {
      assertThat(rows(spark.table("gw.gold.orders").where(filter))).as(filter)
          .isEqualTo(deltaRows(filter))
          .isNotEmpty();
    }
  }

  /**
   * Version 5 inserts a row just below the bound: the gateway serves the first capture until the
   * next reconcile, then exactly the new rows.
   */
  @Test
  @Order(5)
  void aNewUpstreamCommitShowsAfterTheNextReconcile() throws IOException {
    orders.insertJustBelowTheBound();
    assertThat(rows(spark.table("gw.gold.orders"))).isEqualTo(deltaRowsAt(firstCaptured));

    DeltaFederation.assertCapturedCleanly(reconcile(unityOverlay));
    List<String> direct = deltaRows();
    assertThat(direct).hasSize(6).anySatisfy(row -> assertThat(row).startsWith("7|g|"));
    assertThat(rows(spark.table("gw.gold.orders"))).isEqualTo(direct);
    assertThat(rows(spark.table("gw.gold.orders").where("ts <= " + BOUND)))
        .isEqualTo(deltaRows("ts <= " + BOUND)).hasSize(3);
  }

  /** {@code VERSION AS OF} the snapshot of the first capture: Delta's rows at that version. */
  @Test
  @Order(6)
  void timeTravelToTheEarlierCapturedVersion() {
    Map<Long, Long> snapshots = capturedSnapshots("gw.gold.orders");
    assertThat(snapshots).containsOnlyKeys(firstCaptured, 5L);
    assertThat(rows(spark.sql("SELECT * FROM gw.gold.orders VERSION AS OF "
        + snapshots.get(firstCaptured)))).isEqualTo(deltaRowsAt(firstCaptured)).hasSize(5);
  }

  /**
   * Versions 6 to 8: column mapping enabled on the existing table, a column renamed, rows
   * written under column mapping (files with field ids beside the older ones without); a second
   * checkpoint. Unity's column list follows.
   */
  @Test
  @Order(7)
  void columnMappingIsEnabledOnTheExistingTableThenAColumnRenamed() throws IOException {
    orders.enableColumnMappingThenRename();
    OrdersDeltaTable.serveRenamedInUnity(unity, unityTableId);
  }

  /**
   * The same table in a Delta Sharing share, which serves version 7 although the log is at 8: a
   * Delta Sharing Integration (recipient token) and an Overlay into the same Catalog capture the
   * served version, read with the share's directory-access credentials: the renamed column, files
   * without field ids read by name.
   */
  @Test
  @Order(8)
  void aDeltaSharingShareServesItsVersionThroughTheGateway() {
    share(7);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("s3.endpoint", lake.address());
    properties.put("client.region", lake.setting("region"));
    properties.put("s3.path-style-access", "true");
    Map<String, Object> integration = new LinkedHashMap<>();
    integration.put("displayName", "sharing");
    integration.put("type", "DELTA_SHARING");
    integration.put("uri", sharing.endpoint().toString());
    integration.put("properties", properties);
    integration.put("authentication", Map.of("type", "bearer", "token", sharing.issueToken()));
    sharingOverlay = overlay("feeds-from-sharing", createIntegration(integration),
        List.of("partners", "feeds"));

    DeltaFederation.assertCapturedCleanly(reconcile(sharingOverlay));
    assertThat(spark.table("gw.partners.feeds.orders").columns())
        .containsExactly("id", "label", "ts", "region", "note");
    assertThat(rows(spark.table("gw.partners.feeds.orders")))
        .isEqualTo(deltaRowsAt(7)).hasSize(6);
    assertThat(rows(spark.table("gw.partners.feeds.orders").where("ts = " + BOUND)))
        .isEqualTo(rows(spark.read().format("delta").option("versionAsOf", 7).load(tableUri())
            .where("ts = " + BOUND))).hasSize(2);
  }

  /**
   * Version 9 deletes a row from a file that already has a deletion vector (a replaced one), and
   * the share then serves it: after the next reconcile the gateway returns the latest rows, and
   * the earlier captured version by time travel.
   */
  @Test
  @Order(9)
  void aNewSharedVersionShowsAfterTheNextReconcileAndTheEarlierStaysReadable()
      throws IOException {
    orders.deleteFromAFileWithADeletionVector();
    share(9);

    DeltaFederation.assertCapturedCleanly(reconcile(sharingOverlay));
    List<String> direct = deltaRows();
    assertThat(direct).hasSize(6).noneSatisfy(row -> assertThat(row).startsWith("3|"));
    assertThat(rows(spark.table("gw.partners.feeds.orders"))).isEqualTo(direct);
    Map<Long, Long> snapshots = capturedSnapshots("gw.partners.feeds.orders");
    assertThat(snapshots).containsOnlyKeys(7L, 9L);
    assertThat(rows(spark.sql("SELECT * FROM gw.partners.feeds.orders VERSION AS OF "
        + snapshots.get(7L)))).isEqualTo(deltaRowsAt(7));
    assertThat(rows(spark.table("gw.partners.feeds.orders").where("ts <= " + BOUND)))
        .isEqualTo(deltaRows("ts <= " + BOUND));
  }

  /**
   * Unity's table was captured at versions 4 and 5, before column mapping was enabled; the next
   * capture is the first with it. Delta renumbered the existing columns, so the capture takes
   * Delta's ids, enters every live file again under a spec on the new ids (partition field ids
   * kept unique across specs, or iceberg-core refuses every filtered scan) and drops the snapshots
   * captured before: time travel to them fails instead of reading renumbered columns as missing
   * (docs/catalog-access-delta.md).
   */
  @Test
  @Order(10)
  void unityCapturesColumnMappingEnabledOnAnAlreadyCapturedTable() {
    Map<Long, Long> before = capturedSnapshots("gw.gold.orders");
    assertThat(before).containsOnlyKeys(firstCaptured, 5L);

    DeltaFederation.assertCapturedCleanly(reconcile(unityOverlay));
    assertThat(rows(spark.table("gw.gold.orders"))).isEqualTo(deltaRows());
    assertThat(rows(spark.table("gw.gold.orders").where("ts = " + BOUND)))
        .isEqualTo(deltaRows("ts = " + BOUND));
    assertThat(rows(spark.table("gw.gold.orders").where("region = 'EU'")))
        .isEqualTo(deltaRows("region = 'EU'"));
    assertThat(capturedSnapshots("gw.gold.orders")).containsOnlyKeys(9L);
    for (long version : List.of(firstCaptured, 5L)) {
      assertThatThrownBy(() -> spark.sql("SELECT * FROM gw.gold.orders VERSION AS OF "
              + before.get(version)).collectAsList())
          .as("version " + version)
          .hasMessageContaining(String.valueOf(before.get(version)));
    }
  }

  /** Shares the table as {@code partners.feeds.orders} at {@code version}, from its log. */
  private static void share(long version) {
    Snapshot snapshot = TableManager.loadSnapshot(tableUri()).atVersion(version)
        .build(DefaultEngine.create(new Configuration()));
    sharing.put("partners", "feeds", "orders", new DeltaSharingFixture.Table("t-orders",
        TABLE_LOCATION, List.of("dir"), version, snapshot.getSchema().toJson(), true,
        snapshot.getPartitionColumnNames(), snapshot.getTableProperties()));
  }

  /** Creates an Integration from {@code body}; its id. */
  private static String createIntegration(Map<String, Object> body) {
    return federation.integration(body);
  }

  /** An Overlay of {@code namespace} into the Catalog, keeping 30 days of captures; its id. */
  private static String overlay(String name, String integrationId, List<String> namespace) {
    return federation.overlay(name, integrationId, catalogId, namespace);
  }

  private static JsonNode reconcile(String overlayId) {
    return federation.reconcile(overlayId);
  }

  /** Delta version to Iceberg snapshot id of each captured snapshot of {@code name}. */
  private static Map<Long, Long> capturedSnapshots(String name) {
    Map<Long, Long> snapshots = new LinkedHashMap<>();
    for (Row row : spark.sql("SELECT snapshot_id, summary['icegate.delta.version'] FROM " + name
        + ".snapshots ORDER BY committed_at").collectAsList()) {
      snapshots.put(Long.parseLong(row.getString(1)), row.getLong(0));
    }
    return snapshots;
  }

  /** The Delta table's latest rows, read by Spark directly. */
  private static List<String> deltaRows() {
    return rows(orders.latest());
  }

  private static List<String> deltaRows(String filter) {
    return rows(orders.latest().where(filter));
  }

  private static List<String> deltaRowsAt(long version) {
    return rows(orders.at(version));
  }

  private static long deltaVersion() {
    return orders.version();
  }

  private static String tableUri() {
    return orders.uri();
  }
}
