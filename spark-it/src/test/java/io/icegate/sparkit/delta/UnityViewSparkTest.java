package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import static io.icegate.sparkit.delta.DeltaWorld.rows;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.sparkit.testing.S3Objects;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

  private static DeltaWorld world;
  private static SparkSession spark;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  static void start() throws IOException {
    world = DeltaWorld.start("unity-view-", TOKEN, unity -> unity.requireBearer("unity-token"),
        new DeltaWorld.Store("views-store", KEY, SECRET, "lake"));
    spark = world.spark();
    world.sparkCatalogThroughTheGateway("shops");
  }

  @AfterAll
  static void stop() throws Exception {
    if (world != null) {
      world.close();
    }
  }

  @Test
  void sparkQueriesAUnityViewThroughTheGatewayWithItsNamesPointedAtTheMaterializedTables()
      throws IOException {
    sql("CREATE TABLE " + delta("orders") + " (id BIGINT, cid BIGINT) USING delta");
    sql("INSERT INTO " + delta("orders") + " VALUES (1, 10), (2, 20), (3, 10), (4, 30)");
    sql("CREATE TABLE " + delta("customers") + " (id BIGINT, name STRING) USING delta");
    sql("INSERT INTO " + delta("customers") + " VALUES (10, 'ann'), (20, 'bo'), (30, 'cy')");
    for (String table : List.of("orders", "customers")) {
      S3Objects.upload(world.lakeKeys(), world.work().resolve("lake/shop/" + table),
          location(table));
      Map<String, String> columns = new LinkedHashMap<>();
      columns.put("id", "long");
      columns.put(table.equals("orders") ? "cid" : "name",
          table.equals("orders") ? "long" : "string");
      world.unity().addTable("main", "shop", table, "EXTERNAL", "DELTA", location(table), columns);
    }
    Map<String, String> viewColumns = new LinkedHashMap<>(); // in the view's column order
    viewColumns.put("id", "long");
    viewColumns.put("name", "string");
    world.unity().addView("main", "shop", "named_orders",
        String.format(JOIN, "main.shop.orders", "shop.customers"), viewColumns);

    DeltaFederation federation = world.federation();
    String catalogId = world.catalog("shops", "s3://lake/warehouse", "views-store",
        Map.of("vendStaticKeys", true));
    String integration = federation.unityIntegration(world.unity(), world.lake(),
        Map.of("type", "bearer", "token", "unity-token"));
    String overlay = federation.overlayOfTheCurrentCapture("shop", integration, catalogId,
        List.of("shop"));
    JsonNode report = federation.reconcile(overlay);
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
    return "delta.`file:" + world.work().resolve("lake/shop/" + table).toAbsolutePath() + "`";
  }

  private static void sql(String statement) {
    spark.sql(statement).collectAsList();
  }
}
