package io.icegate.sparkit.delta;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.access.unity.fixture.UnityCatalogFixture;
import io.icegate.sparkit.testing.FixtureProcess;
import io.icegate.sparkit.testing.S3Objects;
import io.icegate.sparkit.testing.Teardown;
import io.icegate.sparkit.testing.TrinoProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.temporal.TemporalAccessor;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.sql.Dataset;
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
 * Issue 26, Trino: Trino 476 reads the gateway's federated Delta tables with its own storage
 * settings and returns exactly the rows Spark reads from the Delta table directly.
 *
 * <p>Trino 476's Iceberg REST catalog reads only the {@code config} of a load-table answer, never
 * its {@code storage-credentials}, and one Trino catalog has one S3 endpoint and one identity. So
 * here the data (the Delta table) and the Catalog's generated metadata are on one store ({@code
 * lake}, buckets {@code lake} and {@code generated}, one identity), and Trino's catalog {@code
 * icegate} carries that store's endpoint, region, path style and keys, plus the gateway's token.
 * delta-spark writes the table (as in {@link DeltaThroughGatewaySparkTest}), a Unity fixture
 * serves it, the packaged gateway reconciles it, Trino (a child process on a JDK >= 24) queries
 * it through the gateway.
 *
 * <p>Each result set is compared whole (rows sorted) with Spark's direct Delta read, values
 * normalised alike: timestamps as UTC instants with their microseconds, everything else as
 * printed. Without a JDK >= 24 the class is skipped, except under CI ({@code CI=true}), where it
 * fails. The steps run in order and build on each other.
 */
@Tag("spark")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeltaThroughTrinoTest {
  private static final String TOKEN = "igt_spark-it-trino-token";
  private static final String LAKE_KEY = "lake-access-key";
  private static final String LAKE_SECRET = "lake-secret-key-5e81c0d7";
  private static final String LAKE_STORE = "lake-store";
  private static final String GENERATED = "s3://generated/lakehouse";
  /** {@link OrdersDeltaTable#BOUND} as a Trino literal (the column is a timestamp with zone). */
  private static final String TRINO_BOUND = "TIMESTAMP '2023-11-14 22:13:20.123456 UTC'";
  private static final String ORDERS = "icegate.gold.orders";

  private static Path javaForTrino;
  private static DeltaWorld world;
  private static FixtureProcess lake;
  private static UnityCatalogFixture unity;
  private static SparkSession spark;
  private static TrinoProcess trino;
  private static DeltaFederation federation;
  private static OrdersDeltaTable orders;
  private static String catalogId;
  private static String unityTableId;
  private static String overlayId;

  @BeforeAll
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  static void start() throws IOException, InterruptedException {
    javaForTrino = TrinoProcess.requireJava();
    world = DeltaWorld.start("delta-trino-", TOKEN, UnityCatalogFixture::requireOAuth,
        new DeltaWorld.Store(LAKE_STORE, LAKE_KEY, LAKE_SECRET, "lake", "generated"));
    lake = world.lake();
    unity = world.unity();
    spark = world.spark();
    federation = world.federation();
    orders = new OrdersDeltaTable(spark, world.work().resolve("lake/gold/orders"),
        world.lakeKeys());

    // The Catalog exists before Trino names it as its warehouse.
    catalogId = world.catalog("lakehouse", GENERATED, LAKE_STORE, Map.of());

    // Trino's own storage settings: one store, one identity. No vended credentials asked for.
    Map<String, String> icegate = new LinkedHashMap<>();
    icegate.put("connector.name", "iceberg");
    icegate.put("iceberg.catalog.type", "rest");
    icegate.put("iceberg.rest-catalog.uri", world.gateway().icebergUri());
    icegate.put("iceberg.rest-catalog.warehouse", "lakehouse");
    icegate.put("iceberg.rest-catalog.security", "OAUTH2");
    icegate.put("iceberg.rest-catalog.oauth2.token", TOKEN);
    icegate.put("fs.native-s3.enabled", "true");
    icegate.put("s3.endpoint", lake.address());
    icegate.put("s3.region", lake.setting("region"));
    icegate.put("s3.path-style-access", "true");
    icegate.put("s3.aws-access-key", LAKE_KEY);
    icegate.put("s3.aws-secret-key", LAKE_SECRET);
    trino = TrinoProcess.start(world.work(), javaForTrino, Map.of("icegate", icegate));
  }

  @BeforeEach
  void processesStillRunning() {
    world.requireAlive();
    trino.requireAlive();
  }

  @AfterAll
  static void stop() throws Exception {
    Teardown.closeAll(trino, world);
  }

  /** delta-spark writes versions 0 to 4 and the table goes to the lake store. */
  @Test
  @Order(1)
  // Spark's first writes in a JVM are slow (about a minute on a loaded machine), Delta's too
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void deltaSparkWritesThePartitionedTable() throws IOException {
    orders.writeVersionsZeroToFour();
  }

  /**
   * Unity serves the table; a Unity Integration and an Overlay into the Catalog whose generated
   * metadata is on the lake store too; the reconcile captures and validates the table.
   */
  @Test
  @Order(2)
  void unityServesTheTableAndTheReconcileCapturesIt() {
    unityTableId = OrdersDeltaTable.serveInUnity(unity);
    overlayId = federation.overlay("gold-from-unity", federation.unityIntegration(unity, lake),
        catalogId, List.of("gold"));
    DeltaFederation.assertCapturedCleanly(federation.reconcile(overlayId));
    // data and generated metadata on one store: the one identity Trino holds covers both
    assertThat(S3Objects.list(world.lakeKeys(), GENERATED)).isNotEmpty();
  }

  /**
   * The whole table, a partition filter, and every comparison at the sub-millisecond bound: the
   * Delta table's rows.
   */
  @Test
  @Order(3)
  void trinoReadsExactlyTheDeltaRows() throws SQLException {
    assertThat(trino("SELECT * FROM " + ORDERS)).isEqualTo(spark(orders.latest())).hasSize(5);
    assertThat(trino("SELECT * FROM " + ORDERS + " WHERE region = 'EU'"))
        .isEqualTo(spark(orders.latest().where("region = 'EU'"))).hasSize(2);
    // (nothing is below the bound before version 5)
    for (String op : List.of("=", ">", ">=", "<=")) {
      assertThat(trino("SELECT * FROM " + ORDERS + " WHERE ts " + op + " " + TRINO_BOUND))
          .as("ts " + op + " the bound")
          .isEqualTo(spark(orders.latest().where("ts " + op + " " + OrdersDeltaTable.BOUND)))
          .isNotEmpty();
    }
  }

  /** Version 5 shows after the next reconcile, with the filter at the bound. */
  @Test
  @Order(4)
  void aNewUpstreamCommitShowsAfterTheNextReconcile() throws IOException, SQLException {
    orders.insertJustBelowTheBound();
    assertThat(trino("SELECT * FROM " + ORDERS)).isEqualTo(spark(orders.at(4)));

    DeltaFederation.assertCapturedCleanly(federation.reconcile(overlayId));
    assertThat(trino("SELECT * FROM " + ORDERS)).isEqualTo(spark(orders.latest())).hasSize(6);
    assertThat(trino("SELECT * FROM " + ORDERS + " WHERE ts <= " + TRINO_BOUND))
        .isEqualTo(spark(orders.latest().where("ts <= " + OrdersDeltaTable.BOUND))).hasSize(3);
    assertThat(trino("SELECT * FROM " + ORDERS + " WHERE ts < " + TRINO_BOUND))
        .isEqualTo(spark(orders.latest().where("ts < " + OrdersDeltaTable.BOUND))).hasSize(1);
  }

  /** {@code FOR VERSION AS OF} the snapshot of the first capture: Delta's rows at version 4. */
  @Test
  @Order(5)
  void timeTravelToTheEarlierCapturedVersion() throws SQLException {
    Map<Long, Long> snapshots = capturedSnapshots();
    assertThat(snapshots).containsOnlyKeys(4L, 5L);
    assertThat(trino("SELECT * FROM " + ORDERS + " FOR VERSION AS OF " + snapshots.get(4L)))
        .isEqualTo(spark(orders.at(4))).hasSize(5);
  }

  /**
   * Versions 6 to 9: column mapping enabled on the existing table, a column renamed, rows under
   * column mapping, a deletion vector replaced; after the reconcile Trino reads the renamed column
   * (files written before column mapping by name) and exactly Delta's rows.
   */
  @Test
  @Order(6)
  void columnMappingAndARenamedColumnAfterTheNextReconcile() throws IOException, SQLException {
    orders.enableColumnMappingThenRename();
    orders.deleteFromAFileWithADeletionVector();
    OrdersDeltaTable.serveRenamedInUnity(unity, unityTableId);

    DeltaFederation.assertCapturedCleanly(federation.reconcile(overlayId));
    assertThat(columns("SELECT * FROM " + ORDERS))
        .containsExactly("id", "label", "ts", "region", "note");
    assertThat(trino("SELECT * FROM " + ORDERS)).isEqualTo(spark(orders.latest())).hasSize(6);
    assertThat(trino("SELECT * FROM " + ORDERS + " WHERE region = 'EU'"))
        .isEqualTo(spark(orders.latest().where("region = 'EU'")));
    assertThat(trino("SELECT * FROM " + ORDERS + " WHERE ts = " + TRINO_BOUND))
        .isEqualTo(spark(orders.latest().where("ts = " + OrdersDeltaTable.BOUND)));
  }

  /** Delta version to Iceberg snapshot id of each captured snapshot, from Trino's table. */
  private static Map<Long, Long> capturedSnapshots() throws SQLException {
    Map<Long, Long> snapshots = new LinkedHashMap<>();
    try (Connection connection = trino.connect();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT snapshot_id,"
            + " summary['icegate.delta.version'] FROM icegate.gold.\"orders$snapshots\""
            + " ORDER BY committed_at")) {
      while (rs.next()) {
        snapshots.put(Long.parseLong(rs.getString(2)), rs.getLong(1));
      }
    }
    return snapshots;
  }

  private static List<String> columns(String query) throws SQLException {
    try (Connection connection = trino.connect();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(query)) {
      return IntStream.rangeClosed(1, rs.getMetaData().getColumnCount()).mapToObj(i -> {
        try {
          return rs.getMetaData().getColumnName(i);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      }).toList();
    }
  }

  /** Trino's rows of {@code query}, normalised as {@link #value} and sorted. */
  private static List<String> trino(String query) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection connection = trino.connect();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(query)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(value(rs.getObject(i)));
        }
        rows.add(String.join("|", values));
      }
    }
    return rows.stream().sorted().toList();
  }

  /** Spark's rows, normalised as {@link #value} and sorted. */
  private static List<String> spark(Dataset<Row> data) {
    return data.collectAsList().stream()
        .map(row -> IntStream.range(0, row.size()).mapToObj(i -> value(row.get(i)))
            .collect(Collectors.joining("|")))
        .sorted().toList();
  }

  /**
   * One value as both engines' rows are compared: a timestamp as its UTC instant (microseconds
   * kept; whatever class and zone the driver chose), anything else as printed.
   */
  private static String value(Object value) {
    if (value instanceof Timestamp timestamp) {
      return timestamp.toInstant().toString();
    }
    if (value instanceof ZonedDateTime || value instanceof OffsetDateTime) {
      return Instant.from((TemporalAccessor) value).toString();
    }
    return String.valueOf(value);
  }
}
