package io.icegate.sparkit.nativetables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.sparkit.testing.AdminApi;
import io.icegate.sparkit.testing.FixtureProcess;
import io.icegate.sparkit.testing.GatewayProcess;
import io.icegate.sparkit.testing.IcebergSpark;
import io.icegate.sparkit.testing.S3Objects;
import io.icegate.sparkit.testing.WorkDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spark SQL on native tables: tables and views that live in the gateway's own default Catalog,
 * reached through Iceberg's {@code SparkCatalog} configured with the standard REST properties
 * ({@code type=rest}, {@code uri}, {@code warehouse=default}, {@code token}). The gateway is the
 * packaged jar in a child JVM; its warehouse is a local directory, so the tests check files there.
 *
 * <p>One Spark session and one gateway serve the whole class; every test works in namespaces of
 * its own, so the tests do not depend on each other's order.
 */
@Tag("spark")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class NativeTablesTest {
  private static final String TOKEN = "igt_spark-it-bootstrap-token";

  private static Path work;
  private static GatewayProcess gateway;
  private static SparkSession spark;

  @BeforeAll
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  static void start() throws IOException {
    work = WorkDirs.fresh("native-");
    gateway = GatewayProcess.start(work, TOKEN);
    spark = IcebergSpark.start(work);
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    IcebergSpark.restCatalog(spark, "ice", gateway.icebergUri(), "default", "token", TOKEN);
  }

  @BeforeEach
  void gatewayStillRunning() {
    gateway.requireAlive();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    try {
      if (spark != null) {
        spark.stop();
      }
    } finally {
      if (gateway != null) {
        gateway.close();
      }
    }
  }

  @Test
  void namespacesIncludingNestedOnes() {
    sql("CREATE NAMESPACE ice.nest");
    sql("CREATE NAMESPACE ice.nest.child");
    sql("ALTER NAMESPACE ice.nest SET PROPERTIES ('team' = 'spark-it')");

    assertThat(rows("SHOW NAMESPACES IN ice")).contains("nest");
    assertThat(rows("SHOW NAMESPACES IN ice.nest")).containsExactly("nest.child");
    assertThat(rows("DESCRIBE NAMESPACE EXTENDED ice.nest"))
        .anySatisfy(row -> assertThat(row).contains("team", "spark-it"));

    sql("CREATE TABLE ice.nest.child.t (id BIGINT) USING iceberg");
    sql("INSERT INTO ice.nest.child.t VALUES (1), (2)");
    assertThat(rows("SELECT id FROM ice.nest.child.t ORDER BY id")).containsExactly("1", "2");
    assertThat(files(gateway.warehouse().resolve("nest/child/t/data")))
        .anyMatch(f -> f.toString().endsWith(".parquet"));
  }

  @Test
  void partitionedTableInsertAndSelect() {
    sql("CREATE NAMESPACE ice.sales");
    sql("CREATE TABLE ice.sales.orders (id BIGINT, region STRING, amount DECIMAL(10, 2), "
        + "ordered_at TIMESTAMP) USING iceberg PARTITIONED BY (region, days(ordered_at))");
    sql("INSERT INTO ice.sales.orders VALUES "
        + "(1, 'emea', 10.50, TIMESTAMP '2025-01-01 10:00:00'), "
        + "(2, 'emea', 20.00, TIMESTAMP '2025-01-02 11:00:00'), "
        + "(3, 'apac', 5.25, TIMESTAMP '2025-01-01 12:00:00')");

    assertThat(rows("SELECT region, count(*), sum(amount) FROM ice.sales.orders "
        + "GROUP BY region ORDER BY region"))
        .containsExactly("apac|1|5.25", "emea|2|30.50");
    assertThat(rows("SELECT id FROM ice.sales.orders WHERE region = 'emea' "
        + "AND ordered_at >= TIMESTAMP '2025-01-02 00:00:00'")).containsExactly("2");
    assertThat(rows("SELECT count(*) FROM ice.sales.orders.partitions")).containsExactly("3");
    assertThat(files(gateway.warehouse().resolve("sales/orders/data")))
        .anyMatch(f -> f.toString().contains("region=emea"))
        .anyMatch(f -> f.toString().contains("region=apac"));
  }

  @Test
  void updateDeleteAndMergeCopyOnWrite() {
    rowLevelChanges("cow", "copy-on-write");
  }

  @Test
  void updateDeleteAndMergeMergeOnRead() {
    rowLevelChanges("mor", "merge-on-read");
  }

  /** UPDATE, DELETE and MERGE through Iceberg's SQL extensions, in the given write mode. */
  private static void rowLevelChanges(String namespace, String mode) {
    String table = "ice." + namespace + ".accounts";
    sql("CREATE NAMESPACE ice." + namespace);
    sql("CREATE TABLE " + table + " (id BIGINT, owner STRING, balance INT) USING iceberg "
        + "PARTITIONED BY (bucket(2, id)) TBLPROPERTIES ('write.update.mode' = '" + mode
        + "', 'write.delete.mode' = '" + mode + "', 'write.merge.mode' = '" + mode + "')");
    sql("INSERT INTO " + table + " VALUES (1, 'ann', 100), (2, 'bob', 200), (3, 'cid', 300)");

    sql("UPDATE " + table + " SET balance = balance + 1 WHERE id = 2");
    sql("DELETE FROM " + table + " WHERE id = 3");
    sql("MERGE INTO " + table + " t USING (SELECT 1 AS id, 'ann' AS owner, 50 AS balance "
        + "UNION ALL SELECT 4, 'dee', 400) s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET t.balance = s.balance WHEN NOT MATCHED THEN INSERT *");

    assertThat(rows("SELECT id, owner, balance FROM " + table + " ORDER BY id"))
        .containsExactly("1|ann|50", "2|bob|201", "4|dee|400");
    assertThat(rows("SELECT count(*) FROM " + table + ".snapshots")).containsExactly("4");
  }

  @Test
  void schemaEvolutionAddAndRenameColumn() {
    sql("CREATE NAMESPACE ice.evo");
    sql("CREATE TABLE ice.evo.people (id BIGINT, name STRING) USING iceberg");
    sql("INSERT INTO ice.evo.people VALUES (1, 'ann')");

    sql("ALTER TABLE ice.evo.people ADD COLUMN email STRING");
    sql("ALTER TABLE ice.evo.people RENAME COLUMN name TO full_name");
    sql("INSERT INTO ice.evo.people VALUES (2, 'bob', 'bob@example.com')");

    assertThat(spark.table("ice.evo.people").schema().fieldNames())
        .containsExactly("id", "full_name", "email");
    assertThat(rows("SELECT id, full_name, email FROM ice.evo.people ORDER BY id"))
        .containsExactly("1|ann|null", "2|bob|bob@example.com");
  }

  @Test
  void timeTravelBySnapshotId() {
    sql("CREATE NAMESPACE ice.tt");
    sql("CREATE TABLE ice.tt.events (id BIGINT) USING iceberg");
    sql("INSERT INTO ice.tt.events VALUES (1)");
    sql("INSERT INTO ice.tt.events VALUES (2)");

    String first =
        single("SELECT snapshot_id FROM ice.tt.events.snapshots WHERE parent_id IS NULL");
    String second = single("SELECT snapshot_id FROM ice.tt.events.snapshots "
        + "WHERE parent_id = " + first);

    assertThat(rows("SELECT id FROM ice.tt.events VERSION AS OF " + first))
        .containsExactly("1");
    assertThat(rows("SELECT id FROM ice.tt.events VERSION AS OF " + second + " ORDER BY id"))
        .containsExactly("1", "2");
  }

  @Test
  void createSelectAndDropAView() {
    sql("CREATE NAMESPACE ice.vw");
    sql("CREATE TABLE ice.vw.base (id BIGINT, kind STRING) USING iceberg");
    sql("INSERT INTO ice.vw.base VALUES (1, 'a'), (2, 'b'), (3, 'b')");

    sql("CREATE VIEW ice.vw.bs AS SELECT id FROM ice.vw.base WHERE kind = 'b'");
    assertThat(rows("SELECT id FROM ice.vw.bs ORDER BY id")).containsExactly("2", "3");
    assertThat(rows("SHOW VIEWS IN ice.vw")).anySatisfy(row -> assertThat(row).contains("bs"));
    assertThat(rows("SHOW TABLES IN ice.vw")).containsExactly("vw|base|false");

    sql("CREATE OR REPLACE VIEW ice.vw.bs AS SELECT id FROM ice.vw.base WHERE kind = 'a'");
    assertThat(rows("SELECT id FROM ice.vw.bs")).containsExactly("1");

    sql("DROP VIEW ice.vw.bs");
    assertThat(rows("SHOW VIEWS IN ice.vw")).isEmpty();
    assertThatThrownBy(() -> sql("SELECT * FROM ice.vw.bs"))
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
    assertThat(rows("SELECT count(*) FROM ice.vw.base")).containsExactly("3");
  }

  @Test
  void renameTableAcrossNamespaces() {
    sql("CREATE NAMESPACE ice.rn_src");
    sql("CREATE NAMESPACE ice.rn_dst");
    sql("CREATE TABLE ice.rn_src.t (id BIGINT) USING iceberg");
    sql("INSERT INTO ice.rn_src.t VALUES (7)");

    // The target is relative to the table's catalog, as Spark resolves RENAME TO.
    sql("ALTER TABLE ice.rn_src.t RENAME TO rn_dst.t");

    assertThat(rows("SHOW TABLES IN ice.rn_src")).isEmpty();
    assertThat(rows("SELECT id FROM ice.rn_dst.t")).containsExactly("7");
  }

  @Test
  void renameTargetNamingTheCatalogIsANamespaceThatDoesNotExist() {
    sql("CREATE NAMESPACE ice.rn_err");
    sql("CREATE TABLE ice.rn_err.t (id BIGINT) USING iceberg");

    // Spark hands "ice.rn_err.u" to the catalog as namespace [ice, rn_err]: the gateway's 404
    // names that namespace.
    assertThatThrownBy(() -> sql("ALTER TABLE ice.rn_err.t RENAME TO ice.rn_err.u"))
        .isInstanceOf(NoSuchNamespaceException.class)
        .hasMessageContaining("ice.rn_err");
    assertThat(rows("SHOW TABLES IN ice.rn_err")).anySatisfy(row -> assertThat(row).contains("t"));
  }

  @Test
  void dropWithoutPurgeKeepsFiles() {
    sql("CREATE NAMESPACE ice.keep");
    sql("CREATE TABLE ice.keep.t (id BIGINT) USING iceberg");
    sql("INSERT INTO ice.keep.t VALUES (1)");
    Path dir = gateway.warehouse().resolve("keep/t");
    List<Path> before = files(dir);
    assertThat(before).anyMatch(f -> f.toString().endsWith(".metadata.json"))
        .anyMatch(f -> f.toString().endsWith(".parquet"));

    sql("DROP TABLE ice.keep.t");

    assertThat(rows("SHOW TABLES IN ice.keep")).isEmpty();
    assertThat(files(dir)).containsAll(before);
  }

  @Test
  void dropWithPurgeRemovesFiles() {
    sql("CREATE NAMESPACE ice.purge");
    sql("CREATE TABLE ice.purge.t (id BIGINT) USING iceberg");
    sql("INSERT INTO ice.purge.t VALUES (1)");
    sql("INSERT INTO ice.purge.t VALUES (2)");
    Path dir = gateway.warehouse().resolve("purge/t");
    assertThat(files(dir)).anyMatch(f -> f.toString().endsWith(".parquet"));

    sql("DROP TABLE ice.purge.t PURGE");

    assertThat(rows("SHOW TABLES IN ice.purge")).isEmpty();
    assertThat(files(dir))
        .noneMatch(f -> f.toString().endsWith(".parquet"))
        .noneMatch(f -> f.toString().endsWith(".avro"))
        .noneMatch(f -> f.toString().endsWith(".metadata.json"));
  }

  /**
   * A Catalog on {@code s3://} created through the admin API, as a user's script would (s3proxy in
   * a child JVM as the object store, its keys as the Catalog's write-only storage keys). The
   * gateway writes table metadata with those keys; Spark writes data files itself, so its catalog
   * carries the same S3 settings (the gateway vends no credentials yet).
   */
  @Test
  void tableOnS3Warehouse() throws Exception {
    try (FixtureProcess store = FixtureProcess.startObjectStore(work, "lake")) {
      AdminApi admin = new AdminApi(gateway.baseUri(), TOKEN);
      String account = admin.accountId("default");
      Map<String, Object> s3 = new LinkedHashMap<>();
      s3.put("endpoint", store.address());
      s3.put("region", store.setting("region"));
      s3.put("pathStyleAccess", true);
      s3.put("accessKeyId", store.setting("access-key-id"));
      s3.put("secretAccessKey", store.setting("secret-access-key"));
      JsonNode created = admin.post("/admin/v1/accounts/" + account + "/catalogs",
          Map.of("name", "lake", "warehouse", "s3://lake/warehouse", "storage", Map.of("s3", s3)))
          .expect(201);
      assertThat(created.toString()).doesNotContain(store.setting("secret-access-key"));

      Map<String, String> fileIo = new LinkedHashMap<>();
      fileIo.put("s3.endpoint", store.address());
      fileIo.put("s3.path-style-access", "true");
      fileIo.put("client.region", store.setting("region"));
      fileIo.put("s3.access-key-id", store.setting("access-key-id"));
      fileIo.put("s3.secret-access-key", store.setting("secret-access-key"));
      IcebergSpark.restCatalog(spark, "ice_s3", gateway.icebergUri(), "lake", "token", TOKEN,
          fileIo);

      sql("CREATE NAMESPACE ice_s3.lakens");
      sql("CREATE TABLE ice_s3.lakens.events (id BIGINT, kind STRING) USING iceberg "
          + "PARTITIONED BY (kind)");
      sql("INSERT INTO ice_s3.lakens.events VALUES (1, 'a'), (2, 'b'), (3, 'b')");

      assertThat(rows("SELECT kind, count(*) FROM ice_s3.lakens.events GROUP BY kind "
          + "ORDER BY kind")).containsExactly("a|1", "b|2");
      assertThat(rows("DESCRIBE TABLE EXTENDED ice_s3.lakens.events"))
          .anyMatch(row -> row.startsWith("Location|s3://lake/warehouse/lakens/events|"));
      List<String> objects = S3Objects.list(fileIo, "s3://lake/warehouse/lakens/events/");
      assertThat(objects)
          .anyMatch(key -> key.contains("/metadata/") && key.endsWith(".metadata.json"))
          .anyMatch(key -> key.contains("/data/kind=b/") && key.endsWith(".parquet"));
      assertThat(gateway.warehouse().resolve("lakens")).doesNotExist();
    }
  }

  @Test
  void credentialThroughTheOAuthTokenRoute() {
    IcebergSpark.restCatalog(spark, "ice_oauth", gateway.icebergUri(), "default", "credential",
        "spark-it:" + TOKEN);

    sql("CREATE NAMESPACE ice_oauth.oauth");
    sql("CREATE TABLE ice_oauth.oauth.t (id BIGINT) USING iceberg");
    sql("INSERT INTO ice_oauth.oauth.t VALUES (5)");

    assertThat(rows("SELECT id FROM ice_oauth.oauth.t")).containsExactly("5");
    assertThat(rows("SELECT id FROM ice.oauth.t")).containsExactly("5");
  }

  private static List<Row> sql(String statement) {
    return spark.sql(statement).collectAsList();
  }

  /** Each row as its values joined by {@code |}; null values read {@code null}. */
  private static List<String> rows(String query) {
    return sql(query).stream().map(row -> row.mkString("|")).toList();
  }

  private static String single(String query) {
    List<String> rows = rows(query);
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  /** The regular files under {@code dir}, none when it does not exist. */
  private static List<Path> files(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
