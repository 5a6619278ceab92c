package io.icegate.sparkit.delta;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The processes of a Delta gateway test, started once per test class and stopped together: object
 * stores (s3proxy child JVMs, each with one identity), the packaged gateway (child JVM), the Unity
 * Catalog fixture (in this JVM: it has no Jetty to clash with Spark's Servlet 5) vending the first
 * store's keys, and a Spark session with delta-spark, plus the admin calls ({@link DeltaFederation})
 * that set a federation up over plain HTTP. delta-spark writes tables on local disk under {@link
 * #work} (the Spark JVM has no Hadoop S3 filesystem); the tests copy them to the lake store.
 *
 * <p>A start that fails half way stops what it started (a child JVM left running would outlive
 * the build).
 */
final class DeltaWorld implements AutoCloseable {
  /** An object store to start: its name (log files), its one identity and its buckets. */
  record Store(String name, String accessKeyId, String secretAccessKey, String... buckets) {}

  private final Path work;
  private final String token;
  private final Map<String, Store> specs = new LinkedHashMap<>();
  private final Map<String, FixtureProcess> stores = new LinkedHashMap<>();
  private GatewayProcess gateway;
  private UnityCatalogFixture unity;
  private SparkSession spark;
  private DeltaFederation federation;

  private DeltaWorld(Path work, String token) {
    this.work = work;
    this.token = token;
  }

  /**
   * Starts a world in a fresh work directory named after {@code prefix}: the stores, the gateway
   * (admin and Iceberg token {@code token}), Unity vending the keys of {@code lake} and asking for
   * the authentication {@code unityAuth} sets ({@link UnityCatalogFixture#requireOAuth} or {@link
   * UnityCatalogFixture#requireBearer}), and Spark.
   *
   * @param lake the store of the Delta tables, whose identity Unity vends
   * @param others further stores, e.g. the Catalog's own for generated files
   */
  static DeltaWorld start(String prefix, String token, Consumer<UnityCatalogFixture> unityAuth,
      Store lake, Store... others) throws IOException {
    DeltaWorld world = new DeltaWorld(WorkDirs.fresh(prefix), token);
    try {
      List<Store> all = new ArrayList<>(List.of(lake));
      all.addAll(List.of(others));
      for (Store store : all) {
        world.specs.put(store.name(), store);
        world.stores.put(store.name(), FixtureProcess.startObjectStoreWithIdentity(world.work,
            store.name(), store.accessKeyId(), store.secretAccessKey(), store.buckets()));
      }
      world.gateway = GatewayProcess.start(world.work, token);
      world.unity = UnityCatalogFixture.start(lake.accessKeyId(), lake.secretAccessKey());
      unityAuth.accept(world.unity);
      world.spark = IcebergSpark.startWithDelta(world.work);
      world.federation = new DeltaFederation(new AdminApi(world.gateway.baseUri(), token));
      return world;
    } catch (IOException | RuntimeException | Error e) {
      try {
        world.close();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** The test class's own directory: gateway data and logs, Spark's scratch, local tables. */
  Path work() {
    return work;
  }

  GatewayProcess gateway() {
    return gateway;
  }

  UnityCatalogFixture unity() {
    return unity;
  }

  SparkSession spark() {
    return spark;
  }

  DeltaFederation federation() {
    return federation;
  }

  /** The store of the Delta tables, whose identity Unity vends. */
  FixtureProcess lake() {
    return stores.values().iterator().next();
  }

  /** S3FileIO settings that reach the lake store with its identity. */
  Map<String, String> lakeKeys() {
    return keys(specs.keySet().iterator().next());
  }

  /** The running store named {@code name}. */
  FixtureProcess store(String name) {
    return stores.get(name);
  }

  /** S3FileIO settings that reach store {@code name} with its identity ({@link S3Objects}). */
  Map<String, String> keys(String name) {
    Store spec = specs.get(name);
    return S3Objects.fileIoProperties(store(name), spec.accessKeyId(), spec.secretAccessKey());
  }

  /**
   * Creates a Catalog on {@code warehouse} whose storage is store {@code storeName} (its endpoint,
   * region, path style and keys) plus {@code vending} (e.g. {@code vendStaticKeys}); its id.
   */
  String catalog(String name, String warehouse, String storeName, Map<String, Object> vending) {
    FixtureProcess store = store(storeName);
    Store spec = specs.get(storeName);
    Map<String, Object> s3 = new LinkedHashMap<>();
    s3.put("endpoint", store.address());
    s3.put("region", store.setting("region"));
    s3.put("pathStyleAccess", true);
    s3.put("accessKeyId", spec.accessKeyId());
    s3.put("secretAccessKey", spec.secretAccessKey());
    s3.putAll(vending);
    return federation.catalog(name, warehouse, s3);
  }

  /**
   * Names the gateway's Catalog {@code warehouse} as Spark catalog {@code gw}, with no storage
   * settings (the gateway vends one credential per prefix, each with its endpoint, region and path
   * style) and Iceberg's table cache off, so each step sees the last reconcile.
   */
  void sparkCatalogThroughTheGateway(String warehouse) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("cache-enabled", "false");
    properties.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    IcebergSpark.restCatalog(spark, "gw", gateway.icebergUri(), warehouse, "token", token,
        properties);
  }

  /** Fails when a store or the gateway has exited. */
  void requireAlive() {
    stores.values().forEach(FixtureProcess::requireAlive);
    gateway.requireAlive();
  }

  /** Stops Spark, Unity, the gateway and the stores, each even when an earlier one failed. */
  @Override
  public void close() throws Exception {
    List<AutoCloseable> all = new ArrayList<>();
    all.add(spark);
    all.add(unity);
    all.add(gateway);
    all.addAll(stores.values());
    Teardown.closeAll(all.toArray(AutoCloseable[]::new));
  }

  /** Every row as its values joined by {@code |}, sorted: a whole result set, order aside. */
  static List<String> rows(Dataset<Row> data) {
    return data.collectAsList().stream().map(row -> row.mkString("|")).sorted().toList();
  }
}
