package io.icegate.sparkit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The check that a Spark catalog reads storage only with the credentials the gateway vends: it
 * asks for vended credentials, carries no storage setting or key of its own, and the JVM has no
 * ambient AWS identity (environment, system properties, shared files) the S3 client could fall
 * back to.
 */
public final class VendedOnly {
  private VendedOnly() {}

  /** Asserts it for Spark catalog {@code catalog}; no configuration value may be in {@code secrets}. */
  public static void assertCatalogHoldsNoStorageKeys(
      SparkSession spark, String catalog, String... secrets) {
    Map<String, String> conf = CollectionConverters.asJava(spark.conf().getAll());
    String prefix = "spark.sql.catalog." + catalog + ".";
    assertThat(conf).containsEntry(prefix + "header.X-Iceberg-Access-Delegation",
        "vended-credentials");
    assertThat(conf.keySet().stream().filter(key -> key.startsWith(prefix)))
        .noneMatch(key -> key.contains("s3.") || key.contains("key") || key.contains("secret")
            || key.contains("session") || key.contains("credentials-provider"));
    for (String secret : secrets) {
      assertThat(conf.values()).as("a store key in Spark's configuration").doesNotContain(secret);
    }
    assertThat(System.getenv()).doesNotContainKeys("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_WEB_IDENTITY_TOKEN_FILE");
    for (String property : List.of("aws.accessKeyId", "aws.secretAccessKey", "aws.sessionToken")) {
      assertThat(System.getProperty(property)).as(property).isNull();
    }
    for (String property : List.of("aws.sharedCredentialsFile", "aws.configFile")) {
      assertThat(Path.of(System.getProperty(property))).as(property).doesNotExist();
    }
  }
}
