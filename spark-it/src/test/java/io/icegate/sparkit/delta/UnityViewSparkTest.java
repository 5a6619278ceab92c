package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.sparkit.testing.AdminApi;
import io.icegate.sparkit.testing.FixtureProcess;
import io.icegate.sparkit.testing.GatewayProcess;
import io.icegate.sparkit.testing.IcebergSpark;
import io.icegate.sparkit.testing.S3Objects;
import io.icegate.sparkit.testing.Teardown;
import io.icegate.sparkit.testing.WorkDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 26, Unity views: a Unity view whose SQL names its base tables with Unity's names ({@code
 * main.shop.orders}, and {@code shop.customers} relative to its catalog) is reconciled with the
 * tables by the packaged gateway, which points those names at the materialized Tables; Spark
 * queries the view through the gateway (Iceberg's view support, the view resolved in the catalog
 * it is loaded from) and gets exactly the rows of the same query over the Delta tables directly.
 *
 * <p>Processes: one object store (s3proxy, child JVM) holding the Delta tables and the Catalog's
 * generated metadata under one identity, the packaged gateway (child JVM), the Unity fixture in
 * this JVM. delta-spark writes the tables on local disk; the test copies them to the store.
 */
@Tag("spark")
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class UnityViewSparkTest {
  private static final String TOKEN = "igt_spark-it-unity-view-token";
  private static final String KEY = "views-access-key";
  private static final String SECRET = "views-secret-key-5e21b7";
  private static final String JOIN = "SELECT o.id, c.name FROM %s o JOIN %s c ON o.cid = c.id"
      + " WHERE o.id > 1";

  private static Path work;
  private static FixtureProcess store;
  private static GatewayProcess gateway;
  private static UnityCatalogFixture unity;
  private static SparkSession spark;
  private static AdminApi admin;
  private static String accountPath;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  static void start() throws IOException {
    work = WorkDirs.fresh("unity-view-");
    store = FixtureProcess.startObjectStoreWithIdentity(work, "views-store", KEY, SECRET, "lake");
    gateway = GatewayProcess.start(work, TOKEN);
    unity = UnityCatalogFixture.start(KEY, SECRET);
    unity.requireBearer("unity-token");
    spark = IcebergSpark.startWithDelta(work);
    admin = new AdminApi(gateway.baseUri(), TOKEN);
    accountPath = "/admin/v1/accounts/" + admin.accountId("default");
    IcebergSpark.restCatalog(spark, "gw", gateway.icebergUri(), "shops", "token", TOKEN,
        Map.of("cache-enabled", "false",
            "header.X-Iceberg-Access-Delegation", "vended-credentials"));
  }

  @AfterAll
  static void stop() throws Exception {
    Teardown.closeAll(spark, unity, gateway, store);
  }

  @Test
  void sparkQueriesAUnityViewThroughTheGatewayWithItsNamesPointedAtTheMaterializedTables()
      throws IOException {
    sql("CREATE TABLE " + delta("orders") + " (id BIGINT, cid BIGINT) USING delta");
    sql("INSERT INTO " + delta("orders") + " VALUES (1, 10), (2, 20), (3, 10), (4, 30)");
    sql("CREATE TABLE " + delta("customers") + " (id BIGINT, name STRING) USING delta");
    sql("INSERT INTO " + delta("customers") + " VALUES (10, 'ann'), (20, 'bo'), (30, 'cy')");
    for (String table : List.of("orders", "customers")) {
      S3Objects.upload(storeKeys(), work.resolve("lake/shop/" + table), location(table));
      Map<String, String> columns = new LinkedHashMap<>();
      columns.put("id", "long");
      columns.put(table.equals("orders") ? "cid" : "name",
          table.equals("orders") ? "long" : "string");
      unity.addTable("main", "shop", table, "EXTERNAL", "DELTA", location(table), columns);
    }
    Map<String, String> viewColumns = new LinkedHashMap<>(); // in the view's column order
    viewColumns.put("id", "long");
    viewColumns.put("name", "string");
    unity.addView("main", "shop", "named_orders",
        String.format(JOIN, "main.shop.orders", "shop.customers"), viewColumns);

    Map<String, Object> s3 = new LinkedHashMap<>();
    s3.put("endpoint", store.address());
    s3.put("region", store.setting("region"));
    s3.put("pathStyleAccess", true);
    s3.put("accessKeyId", KEY);
    s3.put("secretAccessKey", SECRET);
    s3.put("vendStaticKeys", true);
    String catalogId = admin.post(accountPath + "/catalogs", Map.of("name", "shops",
        "warehouse", "s3://lake/warehouse", "storage", Map.of("s3", s3)))
        .expect(201).path("id").asText();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("catalog", "main");
    properties.put("s3.endpoint", store.address());
    properties.put("s3.region", store.setting("region"));
    properties.put("s3.path-style-access", "true");
    String integration = admin.post(accountPath + "/integrations", Map.of("displayName", "unity",
        "type", "UNITY", "uri", unity.uri().toString(), "properties", properties,
        "authentication", Map.of("type", "bearer", "token", "unity-token")))
        .expect(201).path("id").asText();
    String overlay = admin.post(accountPath + "/overlays", Map.of("displayName", "shop",
        "integrationId", integration, "catalogId", catalogId,
        "includeNamespaces", List.of(List.of("shop")))).expect(201).path("id").asText();
    JsonNode report = admin.post(accountPath + "/overlays/" + overlay + "/reconcile", Map.of())
        .expect(200);
    assertThat(report.path("created").asLong()).as(report.toString()).isEqualTo(3);
    assertThat(report.path("validationFailed").asLong()).as(report.toString()).isZero();
    assertThat(report.path("warnings")).as(report.toString()).isEmpty();

    List<String> direct = rows(spark.sql(String.format(JOIN, delta("orders"),
        delta("customers"))));
    assertThat(direct).containsExactly("2|bo", "3|ann", "4|cy");
    assertThat(rows(spark.table("gw.shop.named_orders"))).isEqualTo(direct);
    assertThat(rows(spark.sql("SELECT * FROM gw.shop.named_orders WHERE name = 'ann'")))
        .containsExactly("3|ann");
  }

  private static String location(String table) {
    return "s3://lake/shop/" + table;
  }

  /** {@code delta.`file:/...`} for {@code table} on local disk. */
  private static String delta(String table) {
    return "delta.`file:" + work.resolve("lake/shop/" + table).toAbsolutePath() + "`";
  }

  private static Map<String, String> storeKeys() {
    return S3Objects.fileIoProperties(store, KEY, SECRET);
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  /** Every row as its values joined by {@code |}, sorted: a whole result set, order aside. */
  private static List<String> rows(Dataset<Row> data) {
    return data.collectAsList().stream().map(row -> row.mkString("|")).sorted().toList();
  }
}
