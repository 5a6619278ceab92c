package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.StorageCredential;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.Vended;
import io.icegate.access.iceberg.fixture.ForeignClasses;
import io.icegate.access.iceberg.http.UpstreamConfigFilter;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.storage.VendedStorageCredentials;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An upstream whose configuration names classes ({@code /v1/config} defaults and overrides, a
 * load-table {@code config}): the provider loads none of them, still captures the vended
 * credentials, and warns naming the ignored keys but not their values.
 */
class IcebergRestUpstreamConfigTest {

  private static UpstreamCatalog upstream;

  @BeforeAll
  static void start() throws Exception {
    upstream = new UpstreamCatalog();
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
  }

  @AfterEach
  void reset() {
    upstream.fixture.serverConfig().send(Map.of(), Map.of());
    upstream.fixture.vending().plan(location -> Vended.nothing());
  }

  private static Map<String, String> session() {
    Map<String, String> config = new HashMap<>();
    config.put("s3.access-key-id", upstream.store.accessKeyId());
    config.put("s3.secret-access-key", upstream.store.secretAccessKey());
    config.put("s3.session-token", "vended-session-token");
    config.put(
        "s3.session-token-expires-at-ms",
        Long.toString(Instant.now().plus(1, ChronoUnit.HOURS).toEpochMilli()));
    return config;
  }

  @Test
  void classesNamedByTheUpstreamAreNeitherLoadedNorAllowedToDropVendedCredentials() {
    String fileIo = ForeignClasses.FileIO.class.getName();
    upstream.fixture
        .serverConfig()
        .send(
            Map.of(
                "metrics-reporter-impl", ForeignClasses.Reporter.class.getName(),
                "rest.client.tls.configurer-impl", ForeignClasses.Tls.class.getName()),
            Map.of("io-impl", fileIo));
    upstream.fixture
        .vending()
        .plan(
            location ->
                new Vended(
                    List.of(new StorageCredential(upstream.fixture.warehouse(), session())),
                    Map.of("io-impl", fileIo, "client.factory", "com.example.Factory")));
    Logger logger = (Logger) LoggerFactory.getLogger(UpstreamConfigFilter.class);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    logger.addAppender(logs);
    int before = ForeignClasses.instances();
    VendedStorageCredentials vended;
    try (CatalogClient client = upstream.anonymous()) {
      vended = client.vendStorageCredentials(NamespacePath.of("sales"), "orders").orElseThrow();
      client.vendStorageCredentials(NamespacePath.of("sales"), "orders"); // warned once already
    } finally {
      logger.detachAppender(logs);
    }
    assertThat(ForeignClasses.instances()).isEqualTo(before);
    assertThat(vended.prefix()).isEqualTo(upstream.fixture.warehouse());
    List<String> warnings =
        logs.list.stream()
            .filter(e -> e.getLevel() == Level.WARN)
            .map(ILoggingEvent::getFormattedMessage)
            .toList();
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0))
        .contains("/v1/config")
        .contains("io-impl")
        .contains("metrics-reporter-impl")
        .contains("rest.client.tls.configurer-impl");
    assertThat(warnings.get(1)).contains("load-table").contains("client.factory")
        .doesNotContain("io-impl");
    assertThat(String.join("\n", warnings))
        .doesNotContain(fileIo)
        .doesNotContain("ForeignClasses")
        .doesNotContain("com.example.Factory");
  }

  @Test
  void onlyKeysThatNameAClassAreRemoved() {
    for (String key :
        List.of(
            "io-impl",
            "metrics-reporter-impl",
            "catalog-impl",
            "lock-impl",
            "encryption.kms-impl",
            "s3.client-factory-impl",
            "rest.client.tls.configurer-impl",
            "write.location-provider.impl",
            "client.factory",
            "client.credentials-provider",
            "client.credentials-provider.registration",
            "rest.auth.type",
            "rest.sigv4.delegate-auth-type")) {
      assertThat(UpstreamConfigFilter.namesAClass(key)).as(key).isTrue();
    }
    for (String key :
        List.of(
            "s3.endpoint",
            "client.region",
            "warehouse",
            "prefix",
            "rest-page-size",
            "token",
            "s3.access-key-id",
            "header.X-Iceberg-Access-Delegation")) {
      assertThat(UpstreamConfigFilter.namesAClass(key)).as(key).isFalse();
    }
  }

  @Test
  void ordinaryUpstreamConfigurationStillApplies() {
    // a server default the client does not set itself still reaches the session: the page size
    upstream.fixture.serverConfig().send(Map.of("rest-page-size", "1"), Map.of());
    CatalogConnectionConfig config =
        upstream.config(CatalogAuthentication.none(), new HashMap<>(upstream.store.s3Settings()));
    try (CatalogClient client = upstream.open(config, ResolvedCatalogCredentials.none())) {
      long before = upstream.fixture.requests().count("/v1/namespaces");
      assertThat(client.listNamespaces(NamespacePath.root())).hasSize(2);
      assertThat(upstream.fixture.requests().count("/v1/namespaces") - before).isEqualTo(2L);
    }
  }
}
