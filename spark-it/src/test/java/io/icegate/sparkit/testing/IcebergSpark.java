package io.icegate.sparkit.testing;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A local Spark session ({@code local[2]}) with Iceberg's SQL extensions, bound to 127.0.0.1 and
 * writing its scratch files under a private {@code spark.local.dir} (DESIGN.md matrix: the Java 17
 * flags come from surefire's argLine, {@code SPARK_LOCAL_IP} from its environment).
 *
 * <p>Catalogs are added with {@link #restCatalog}; Spark reads a catalog's configuration when the
 * catalog is first named, so one can be added to a running session.
 */
public final class IcebergSpark {
  /** The Iceberg Spark catalog class every catalog here uses. */
  public static final String SPARK_CATALOG = "org.apache.iceberg.spark.SparkCatalog";
  private static final String ICEBERG_EXTENSIONS =
      "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions";

  private IcebergSpark() {}

  /**
   * Starts (or returns the already running) session.
   *
   * @param scratch a directory for Spark's local dir and its default {@code spark_catalog}
   *     warehouse, so nothing lands in the working directory
   */
  public static SparkSession start(Path scratch) {
    return builder(scratch).getOrCreate();
  }

  /**
   * As {@link #start}, with delta-spark beside Iceberg: Delta's SQL extension, Delta's catalog as
   * the session catalog (so {@code delta.`path`} names a Delta table) and UTC as the session time
   * zone (rows print the same whatever the machine's zone).
   */
  public static SparkSession startWithDelta(Path scratch) {
    return builder(scratch)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension,"
            + ICEBERG_EXTENSIONS)
        .config("spark.sql.catalog.spark_catalog",
            "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate();
  }

  private static SparkSession.Builder builder(Path scratch) {
    return SparkSession.builder()
        .master("local[2]")
        .appName("icegate-spark-it")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.local.dir", scratch.resolve("spark-local").toString())
        .config("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toString())
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.sql.extensions", ICEBERG_EXTENSIONS);
  }

  /**
   * Configures catalog {@code name} as an Iceberg REST catalog with the standard properties
   * ({@code type=rest}, {@code uri}, {@code warehouse}) and one way to authenticate.
   *
   * @param authProperty {@code token} (a bearer token) or {@code credential}
   *     ({@code client-id:secret}, exchanged at the server's OAuth token route)
   */
  public static void restCatalog(SparkSession spark, String name, String uri, String warehouse,
      String authProperty, String authValue) {
    restCatalog(spark, name, uri, warehouse, authProperty, authValue, Map.of());
  }

  /**
   * As above, plus further catalog properties, e.g. S3FileIO's {@code s3.endpoint}, {@code
   * s3.path-style-access}, {@code client.region}, {@code s3.access-key-id}, {@code
   * s3.secret-access-key} for tables on {@code s3://}.
   */
  public static void restCatalog(SparkSession spark, String name, String uri, String warehouse,
      String authProperty, String authValue, Map<String, String> properties) {
    String prefix = "spark.sql.catalog." + name;
    spark.conf().set(prefix, SPARK_CATALOG);
    spark.conf().set(prefix + ".type", "rest");
    spark.conf().set(prefix + ".uri", uri);
    spark.conf().set(prefix + ".warehouse", warehouse);
    spark.conf().set(prefix + "." + authProperty, authValue);
    properties.forEach((key, value) -> spark.conf().set(prefix + "." + key, value));
  }
}
