package io.icegate.sparkit.federation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.sparkit.testing.AdminApi;
import io.icegate.sparkit.testing.FixtureProcess;
import io.icegate.sparkit.testing.GatewayProcess;
import io.icegate.sparkit.testing.IcebergSpark;
import io.icegate.sparkit.testing.Teardown;
import io.icegate.sparkit.testing.VendedOnly;
import io.icegate.sparkit.testing.WorkDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.ForbiddenException;
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
 * Federation as a user runs it: an upstream Iceberg REST catalog, an Integration and an Overlay
 * created over plain HTTP, reconciled, and the result seen through Spark on the gateway.
 *
 * <p>Processes: the upstream catalog ({@code IcebergRestFixture} from catalog-access/iceberg-rest,
 * with s3proxy as its object store, OAuth2 required and credentials vended) and the packaged
 * gateway, each a child JVM; Spark in this JVM with two catalogs: {@code up} directly on the
 * upstream ({@code credential=client:secret} plus the store's keys) and {@code gw} on the gateway
 * ({@code token} and the access-delegation header, and no storage setting at all: Spark reads the
 * upstream's files with what the gateway vends, which is what the upstream vended to it).
 *
 * <p>The steps run in order and build on each other (a failed step fails the ones after it): the
 * upstream is filled by Spark, the admin API sets up and reconciles the Overlay (capturing and
 * validating the tables), then Spark reads the federated Catalog's rows and views, the upstream
 * drops a table and a reconciliation retires it, commits rows that show after the next
 * reconciliation (and earlier snapshots stay readable), and finally vends keys the object store
 * refuses, which makes the gateway's SELECT fail.
 */
@Tag("spark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FederationTest {
  private static final String TOKEN = "igt_spark-it-federation-token";
  // The upstream fixture's OAuth2 client (OAuthTokenFilter.CLIENT_ID / CLIENT_SECRET there; its
  // classes are not on this JVM's classpath).
  private static final String CLIENT_ID = "fixture-client";
  private static final String CLIENT_SECRET = "fixture-client-secret-42";
  private static final String OVERLAY_NAME = "sales-from-upstream";

  private static Path work;
  private static FixtureProcess upstream;
  private static GatewayProcess gateway;
  private static SparkSession spark;
  private static AdminApi admin;
  private static String accountPath;
  private static String integrationId;
  private static String overlayId;
  /** {@code gw.sales.orders}' snapshots (id, commit time) as first captured, oldest first. */
  private static List<Row> firstCaptured;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  static void start() throws IOException {
    work = WorkDirs.fresh("federation-");
    upstream = FixtureProcess.startUpstreamCatalog(work, "--require-oauth", "--vend-credentials");
    gateway = GatewayProcess.start(work, TOKEN);
    spark = IcebergSpark.start(work);
    admin = new AdminApi(gateway.baseUri(), TOKEN);
    accountPath = "/admin/v1/accounts/" + admin.accountId("default");

    Map<String, String> upstreamProperties = storeSettings();
    // Spark caches loaded tables for 30 s by default; the steps below must see each change.
    upstreamProperties.put("cache-enabled", "false");
    IcebergSpark.restCatalog(spark, "up", upstream.address(), upstream.setting("warehouse"),
        "credential", CLIENT_ID + ":" + CLIENT_SECRET, upstreamProperties);

    // No storage settings: the gateway's vended credentials carry the keys, and the endpoint,
    // region and path-style access come with them from the Integration's properties.
    Map<String, String> gatewayProperties = new LinkedHashMap<>();
    gatewayProperties.put("cache-enabled", "false");
    gatewayProperties.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    IcebergSpark.restCatalog(spark, "gw", gateway.icebergUri(), "federated", "token", TOKEN,
        gatewayProperties);
  }

  /** The upstream object store's S3FileIO settings as the fixture printed them. */
  private static Map<String, String> storeSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String key : List.of("s3.endpoint", "s3.path-style-access", "client.region",
        "s3.access-key-id", "s3.secret-access-key")) {
      settings.put(key, upstream.setting(key));
    }
    return settings;
  }

  @BeforeEach
  void processesStillRunning() {
    upstream.requireAlive();
    gateway.requireAlive();
  }

  @AfterAll
  static void stop() throws Exception {
    Teardown.closeAll(spark, gateway, upstream);
  }

  /**
   * The fixture is seeded with {@code sales} (table {@code orders}, view {@code order_summary}),
   * {@code sales.emea} (table {@code customers}), {@code Marketing} (table {@code Campaigns}) and
   * {@code Marketing.BrandQ1}. Spark, straight on the upstream, adds rows, a column, a table, a
   * nested namespace with a table and a view.
   */
  @Test
  @Order(1)
  void sparkWritesTheUpstreamDirectly() {
    sql("INSERT INTO up.sales.orders VALUES (1, 'ann', 10.50), (2, 'bob', 20.00), "
        + "(3, 'ann', 5.25)");
    sql("ALTER TABLE up.sales.orders ADD COLUMN channel STRING");
    sql("INSERT INTO up.sales.orders VALUES (4, 'cid', 7.00, 'web')");
    sql("CREATE TABLE up.sales.returns (order_id BIGINT, reason STRING) USING iceberg");
    sql("INSERT INTO up.sales.returns VALUES (2, 'damaged')");
    sql("CREATE NAMESPACE up.sales.apac");
    sql("CREATE TABLE up.sales.apac.stores (store_id INT, city STRING) USING iceberg");
    sql("INSERT INTO up.sales.apac.stores VALUES (1, 'Osaka'), (2, 'Perth')");
    sql("INSERT INTO up.sales.emea.customers VALUES (9, 'eve', 1.00)");
    sql("INSERT INTO up.`Marketing`.`Campaigns` VALUES (7, 'spring', 99.00)");
    // As a user writes a view: in the current namespace, naming the table without a catalog
    // (Spark then records no default catalog, so the view resolves in whichever catalog loads it).
    try {
      sql("USE up.sales");
      sql("CREATE VIEW up.sales.big_orders AS SELECT order_id, amount FROM orders "
          + "WHERE amount >= 10");
    } finally {
      spark.catalog().setCurrentCatalog("spark_catalog");
    }

    assertThat(rows("SELECT customer, sum(amount) FROM up.sales.orders GROUP BY customer "
        + "ORDER BY customer")).containsExactly("ann|15.75", "bob|20.00", "cid|7.00");
    assertThat(rows("SHOW NAMESPACES IN up")).containsExactlyInAnyOrder("sales", "Marketing");
    assertThat(rows("SHOW NAMESPACES IN up.sales"))
        .containsExactlyInAnyOrder("sales.emea", "sales.apac");
    assertThat(rows("SHOW VIEWS IN up.sales"))
        .anySatisfy(row -> assertThat(row).contains("order_summary"))
        .anySatisfy(row -> assertThat(row).contains("big_orders"));
  }

  /**
   * A Catalog, an Integration with OAuth2 client credentials and an Overlay selecting {@code
   * sales} without {@code sales.emea}, all over plain HTTP; then the Integration validates.
   */
  @Test
  @Order(2)
  void adminApiSetsUpTheFederation() {
    String warehouse = work.resolve("federated-warehouse").toUri().toString();
    JsonNode catalog = admin.post(accountPath + "/catalogs",
        Map.of("name", "federated", "warehouse", warehouse)).expect(201);

    Map<String, Object> authentication = new LinkedHashMap<>();
    authentication.put("type", "oauth2-client-credentials");
    authentication.put("tokenUri", upstream.address() + "/v1/oauth/tokens");
    authentication.put("clientId", CLIENT_ID);
    authentication.put("clientSecret", CLIENT_SECRET);
    Map<String, String> connection = new LinkedHashMap<>();
    connection.put("s3.endpoint", upstream.setting("s3.endpoint"));
    connection.put("s3.path-style-access", "true");
    connection.put("client.region", upstream.setting("client.region"));
    Map<String, Object> integration = new LinkedHashMap<>();
    integration.put("displayName", "upstream-rest");
    integration.put("type", "ICEBERG_REST");
    integration.put("uri", upstream.address());
    integration.put("properties", connection);
    integration.put("authentication", authentication);
    AdminApi.Answer created = admin.post(accountPath + "/integrations", integration,
        Map.of("Idempotency-Key", "spark-it-integration"));
    JsonNode integrationBody = created.expect(201);
    assertThat(created.raw()).doesNotContain(CLIENT_SECRET);
    assertThat(integrationBody.path("credentialsConfigured").asBoolean()).isTrue();
    integrationId = integrationBody.path("id").asText();

    Map<String, Object> overlay = new LinkedHashMap<>();
    overlay.put("displayName", OVERLAY_NAME);
    overlay.put("integrationId", integrationId);
    overlay.put("catalogId", catalog.path("id").asText());
    overlay.put("includeNamespaces", List.of(List.of("sales")));
    overlay.put("excludeNamespaces", List.of(List.of("sales", "emea")));
    overlayId = admin.post(accountPath + "/overlays", overlay).expect(201).path("id").asText();

    JsonNode validation =
        admin.post(accountPath + "/integrations/" + integrationId + "/validate", null)
            .expect(200);
    assertThat(validation.path("checks")).as(validation.toString())
        .allSatisfy(check -> assertThat(check.path("status").asText()).isEqualTo("ok"));
    assertThat(validation.path("ok").asBoolean()).as(validation.toString()).isTrue();

    JsonNode namespaces = admin.get(accountPath + "/integrations/" + integrationId
        + "/namespaces").expect(200).path("namespaces");
    assertThat(namespaces.toString()).contains("[\"sales\"]", "[\"Marketing\"]");
  }

  /**
   * The first reconciliation materializes the selected relations (3 tables and 2 views), then
   * captures the 3 tables and validates the Parquet files Spark wrote into them, with the
   * credentials the upstream vends for each table.
   */
  @Test
  @Order(3)
  void reconcileMaterializesTheSelection() {
    JsonNode report = reconcile();
    assertThat(report.path("created").asLong()).as(report.toString()).isEqualTo(5);
    assertThat(report.path("retired").asLong()).as(report.toString()).isZero();
    assertThat(report.path("captured").asLong()).as(report.toString()).isEqualTo(3);
    assertThat(report.path("captureFailed").asLong()).as(report.toString()).isZero();
    assertThat(report.path("validated").asLong()).as(report.toString()).isEqualTo(3);
    assertThat(report.path("validationFailed").asLong()).as(report.toString()).isZero();
  }

  @Test
  @Order(4)
  void sparkSeesExactlyTheSelectedNamespaces() {
    assertThat(rows("SHOW NAMESPACES IN gw")).containsExactly("sales");
    assertThat(rows("SHOW NAMESPACES IN gw.sales")).containsExactly("sales.apac");
    assertThat(rows("SHOW TABLES IN gw.sales"))
        .containsExactlyInAnyOrder("sales|orders|false", "sales|returns|false");
    assertThat(rows("SHOW TABLES IN gw.sales.apac")).containsExactly("sales.apac|stores|false");
    assertThatThrownBy(() -> sql("SHOW TABLES IN gw.sales.emea"))
        .hasMessageContaining("emea");
    assertThatThrownBy(() -> sql("SHOW TABLES IN gw.`Marketing`"))
        .hasMessageContaining("Marketing");
  }

  @Test
  @Order(5)
  void describeShowsTheUpstreamSchema() {
    assertThat(columns("DESCRIBE TABLE gw.sales.orders")).containsExactly(
        "order_id|bigint", "customer|string", "amount|decimal(12,2)", "channel|string");
    assertThat(columns("DESCRIBE TABLE gw.sales.apac.stores"))
        .containsExactly("store_id|int", "city|string");
  }

  @Test
  @Order(6)
  void showViewsListsTheUpstreamViews() {
    assertThat(rows("SHOW VIEWS IN gw.sales"))
        .anySatisfy(row -> assertThat(row).contains("order_summary"))
        .anySatisfy(row -> assertThat(row).contains("big_orders"))
        .hasSize(2);
    assertThat(columns("DESCRIBE TABLE gw.sales.order_summary"))
        .containsExactly("customer|string", "total|decimal(22,2)");
  }

  /**
   * Neither the gateway catalog's configuration nor this JVM's environment or system properties
   * hold S3 keys, and the SDK's profile files point nowhere (surefire), so the rows below can only
   * have been read with the credentials the gateway vended.
   */
  @Test
  @Order(7)
  void sparkHoldsNoStorageKeysForTheGateway() {
    // (the upstream's keys are in Spark's configuration: its catalog on the upstream writes there)
    VendedOnly.assertCatalogHoldsNoStorageKeys(spark, "gw");
  }


  /** Exactly the upstream's rows, read from the upstream's Parquet files on the object store. */
  @Test
  @Order(8)
  void selectReturnsExactlyTheUpstreamRows() {
    List<String> orders = List.of("1|ann|10.50|null", "2|bob|20.00|null", "3|ann|5.25|null",
        "4|cid|7.00|web");
    assertThat(rows("SELECT * FROM gw.sales.orders ORDER BY order_id")).containsExactlyElementsOf(
        orders);
    assertThat(rows("SELECT * FROM up.sales.orders ORDER BY order_id")).containsExactlyElementsOf(
        orders);
    assertThat(rows("SELECT * FROM gw.sales.apac.stores ORDER BY store_id"))
        .containsExactly("1|Osaka", "2|Perth");
    assertThat(rows("SELECT * FROM gw.sales.returns")).containsExactly("2|damaged");
  }

  /**
   * The upstream views (the seeded {@code order_summary} and Spark's {@code big_orders}) name
   * {@code orders} without a catalog, so through the gateway they read the federated {@code
   * gw.sales.orders} (the next steps show it is that table and not the upstream's).
   */
  @Test
  @Order(9)
  void aFederatedViewOverAFederatedTable() {
    assertThat(rows("SELECT * FROM gw.sales.order_summary ORDER BY customer"))
        .containsExactly("ann|15.75", "bob|20.00", "cid|7.00");
    assertThat(rows("SELECT * FROM gw.sales.big_orders ORDER BY order_id"))
        .containsExactly("1|10.50", "2|20.00");
  }

  @Test
  @Order(10)
  void insertIntoAManagedTableIsRefusedNamingTheOverlay() {
    assertThatThrownBy(() -> sql("INSERT INTO gw.sales.orders VALUES (5, 'dee', 1.00, 'app')"))
        .isInstanceOf(ForbiddenException.class)
        .hasMessageContaining(overlayId);
    assertThat(rows("SELECT count(*) FROM up.sales.orders WHERE order_id = 5"))
        .containsExactly("0");
  }

  @Test
  @Order(11)
  void aLocalTableInTheSameNamespaceWorks() {
    sql("CREATE TABLE gw.sales.notes (order_id BIGINT, note STRING) USING iceberg");
    sql("INSERT INTO gw.sales.notes VALUES (1, 'gift wrap'), (4, 'call first')");

    assertThat(rows("SELECT order_id, note FROM gw.sales.notes ORDER BY order_id"))
        .containsExactly("1|gift wrap", "4|call first");
    assertThat(rows("SHOW TABLES IN gw.sales")).contains("sales|notes|false");
    assertThat(work.resolve("federated-warehouse/sales/notes/data")).isDirectory();
  }

  /** The upstream drops {@code sales.returns}; after the next reconciliation Spark loses it. */
  @Test
  @Order(12)
  void aTableDroppedUpstreamIsGoneAfterTheNextReconcile() {
    sql("DROP TABLE up.sales.returns");
    assertThat(rows("SHOW TABLES IN gw.sales")).contains("sales|returns|false");

    JsonNode report = reconcile();
    assertThat(report.path("retired").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("created").asLong()).as(report.toString()).isZero();

    assertThat(rows("SHOW TABLES IN gw.sales"))
        .containsExactlyInAnyOrder("sales|orders|false", "sales|notes|false");
    assertThatThrownBy(() -> sql("SELECT * FROM gw.sales.returns"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    assertThat(rows("SELECT count(*) FROM gw.sales.notes")).containsExactly("2");
  }

  /**
   * A new upstream commit is not seen through the gateway (which serves what it captured, views
   * included) until a reconciliation captures and validates it; then the new rows are there.
   */
  @Test
  @Order(13)
  void aNewUpstreamCommitShowsAfterTheNextReconcile() {
    firstCaptured = snapshots("gw.sales.orders");
    assertThat(firstCaptured).hasSize(2);
    Instant firstCaptureTime = capturedAt("gw.sales.orders");

    sql("INSERT INTO up.sales.orders VALUES (5, 'dee', 12.00, 'app')");
    assertThat(rows("SELECT count(*) FROM up.sales.orders")).containsExactly("5");
    assertThat(rows("SELECT count(*) FROM gw.sales.orders")).containsExactly("4");
    assertThat(rows("SELECT * FROM gw.sales.order_summary ORDER BY customer"))
        .containsExactly("ann|15.75", "bob|20.00", "cid|7.00");
    assertThat(rows("SELECT * FROM up.sales.big_orders ORDER BY order_id"))
        .containsExactly("1|10.50", "2|20.00", "5|12.00");
    assertThat(rows("SELECT * FROM gw.sales.big_orders ORDER BY order_id"))
        .containsExactly("1|10.50", "2|20.00");

    JsonNode report = reconcile();
    assertThat(report.path("captured").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("validated").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("validationFailed").asLong()).as(report.toString()).isZero();

    assertThat(rows("SELECT * FROM gw.sales.orders ORDER BY order_id")).containsExactly(
        "1|ann|10.50|null", "2|bob|20.00|null", "3|ann|5.25|null", "4|cid|7.00|web",
        "5|dee|12.00|app");
    assertThat(rows("SELECT * FROM gw.sales.order_summary ORDER BY customer"))
        .containsExactly("ann|15.75", "bob|20.00", "cid|7.00", "dee|12.00");
    assertThat(rows("SELECT * FROM gw.sales.big_orders ORDER BY order_id"))
        .containsExactly("1|10.50", "2|20.00", "5|12.00");
    assertThat(snapshots("gw.sales.orders")).hasSize(3).startsWith(
        firstCaptured.toArray(new Row[0]));
    assertThat(capturedAt("gw.sales.orders")).isAfter(firstCaptureTime);
  }

  /**
   * The snapshot current at the first capture, and the one before it, stay readable through the
   * gateway by id ({@code VERSION AS OF}) and by time ({@code TIMESTAMP AS OF}).
   */
  @Test
  @Order(14)
  void timeTravelToEarlierCapturedSnapshots() {
    long firstInsert = firstCaptured.get(0).getLong(0);
    long secondInsert = firstCaptured.get(1).getLong(0);
    long firstInsertMillis = firstCaptured.get(0).getTimestamp(1).getTime();

    assertThat(rows("SELECT * FROM gw.sales.orders VERSION AS OF " + secondInsert
        + " ORDER BY order_id")).containsExactly("1|ann|10.50|null", "2|bob|20.00|null",
        "3|ann|5.25|null", "4|cid|7.00|web");
    assertThat(rows("SELECT * FROM gw.sales.orders VERSION AS OF " + firstInsert
        + " ORDER BY order_id")).containsExactly("1|ann|10.50", "2|bob|20.00", "3|ann|5.25");
    assertThat(rows("SELECT * FROM gw.sales.orders TIMESTAMP AS OF timestamp_millis("
        + firstInsertMillis + ") ORDER BY order_id"))
        .containsExactly("1|ann|10.50", "2|bob|20.00", "3|ann|5.25");
  }

  /**
   * A new table is captured and validated while the upstream vends the store's real keys; then
   * the upstream vends keys the store does not know, and the gateway's SELECT fails at the object
   * store (403), not at the gateway: Spark read with exactly what was vended through the gateway.
   */
  @Test
  @Order(15)
  void wrongVendedKeysFailTheSelect() throws Exception {
    sql("CREATE TABLE up.sales.refunds (order_id BIGINT, amount DECIMAL(12,2)) USING iceberg");
    sql("INSERT INTO up.sales.refunds VALUES (2, 20.00)");
    JsonNode report = reconcile();
    assertThat(report.path("created").asLong()).as(report.toString()).isEqualTo(1);
    assertThat(report.path("validationFailed").asLong()).as(report.toString()).isZero();
    assertThat(rows("SHOW TABLES IN gw.sales")).contains("sales|refunds|false");

    upstream.command("vend-wrong-keys");

    assertThatThrownBy(() -> sql("SELECT * FROM gw.sales.refunds"))
        .isNotInstanceOf(ForbiddenException.class)
        .hasStackTraceContaining("Service: S3, Status Code: 403");
  }

  /**
   * With the wrong keys still vended, revalidating the Integration's tables ({@code validate
   * ?revalidate=true}) fails each of them: they leave the gateway's listing, a load answers 403
   * naming the admin route of the table's validation errors, and those errors name no key.
   */
  @Test
  @Order(16)
  void revalidationWithWrongKeysHidesTheTables() {
    AdminApi.Answer answer = admin.post(
        accountPath + "/integrations/" + integrationId + "/validate?revalidate=true", null);
    JsonNode revalidation = answer.expect(200).path("revalidation");
    // orders, apac.stores and refunds: each has data files the store now refuses to serve.
    assertThat(revalidation.path("failed").asLong()).as(answer.raw()).isEqualTo(3);
    assertThat(revalidation.path("validated").asLong()).as(answer.raw()).isZero();

    assertThat(rows("SHOW TABLES IN gw.sales")).containsExactly("sales|notes|false");
    assertThat(rows("SHOW TABLES IN gw.sales.apac")).isEmpty();
    Throwable refused = catchThrowable(() -> sql("SELECT * FROM gw.sales.refunds"));
    assertThat(refused).isInstanceOf(ForbiddenException.class)
        .hasMessageContaining("validation error");
    Matcher route = Pattern.compile("GET (/admin/v1/\\S+/validation-errors)")
        .matcher(refused.getMessage());
    assertThat(route.find()).as(refused.getMessage()).isTrue();
    AdminApi.Answer errors = admin.get(route.group(1));
    assertThat(errors.expect(200).path("items")).as(errors.raw()).isNotEmpty()
        .allSatisfy(error -> assertThat(error.path("displayPath").asText())
            .isEqualTo("sales.refunds"));
    assertThat(errors.raw()).doesNotContain("wrong-secret-access-key", CLIENT_SECRET);
  }

  /** {@code POST .../overlays/{id}/reconcile}, synchronous: the run's report. */
  private static JsonNode reconcile() {
    return admin.post(accountPath + "/overlays/" + overlayId + "/reconcile", Map.of())
        .expect(200);
  }

  /** {@code table}'s snapshots as {@code (snapshot_id, committed_at)} rows, oldest first. */
  private static List<Row> snapshots(String table) {
    return sql("SELECT snapshot_id, committed_at FROM " + table
        + ".snapshots ORDER BY committed_at, snapshot_id");
  }

  /** The table property {@code icegate.captured-at}: when the served state was captured. */
  private static Instant capturedAt(String table) {
    return Instant.parse(
        sql("SHOW TBLPROPERTIES " + table + " ('icegate.captured-at')").get(0).getString(1));
  }

  private static List<Row> sql(String statement) {
    return spark.sql(statement).collectAsList();
  }

  /** Each row as its values joined by {@code |}; null values read {@code null}. */
  private static List<String> rows(String query) {
    return sql(query).stream().map(row -> row.mkString("|")).toList();
  }

  /** {@code name|type} of each column a DESCRIBE lists, up to the first blank or # row. */
  private static List<String> columns(String describe) {
    List<String> columns = new ArrayList<>();
    for (Row row : sql(describe)) {
      String name = row.getString(0);
      if (name == null || name.isBlank() || name.startsWith("#")) {
        break;
      }
      columns.add(name + "|" + row.getString(1));
    }
    return columns;
  }
}
