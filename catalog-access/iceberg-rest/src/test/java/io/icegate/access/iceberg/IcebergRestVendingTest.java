package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.read.ListAppender;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.StorageCredential;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.Vended;
import io.icegate.access.iceberg.fixture.OAuthTokenFilter;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.model.UpstreamTable;
import io.icegate.access.storage.VendedStorageCredentials;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class IcebergRestVendingTest {

  private static final NamespacePath SALES = NamespacePath.of("sales");
  private static final Instant EXPIRY =
      Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);

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
    upstream.fixture.vending().plan(location -> Vended.nothing());
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
  }

  /** A complete renewable session with the store's real identity. */
  private static Map<String, String> session(String keyId, String secret) {
    Map<String, String> config = new HashMap<>();
    config.put("s3.access-key-id", keyId);
    config.put("s3.secret-access-key", secret);
    config.put("s3.session-token", "vended-session-token");
    config.put("s3.session-token-expires-at-ms", Long.toString(EXPIRY.toEpochMilli()));
    return config;
  }

  private static Map<String, String> rightSession() {
    return session(upstream.store.accessKeyId(), upstream.store.secretAccessKey());
  }

  private static void vend(StorageCredential... credentials) {
    upstream.fixture.vending().plan(location -> new Vended(List.of(credentials), Map.of()));
  }

  private static Optional<VendedStorageCredentials> vendForOrders() {
    try (CatalogClient client = upstream.anonymous()) {
      return client.vendStorageCredentials(SALES, "orders");
    }
  }

  private static void assertCode(Runnable call, Code code) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            CatalogAccessException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void nothingVendedMeansDoesNotVend() {
    assertThat(vendForOrders()).isEmpty();
  }

  @Test
  void keysInTheResponseConfigAreNeverTakenAsVendedCredentials() {
    upstream.fixture.vending().plan(location -> new Vended(List.of(), rightSession()));
    assertThat(vendForOrders()).isEmpty();
  }

  @Test
  void aCompleteCoveringSessionIsReturnedWithOnlyTheAllowlistedKeys() {
    Map<String, String> config = rightSession();
    config.put("s3.endpoint", "http://169.254.169.254/");
    config.put("client.region", "eu-west-1");
    vend(new StorageCredential(upstream.fixture.warehouse(), config));
    VendedStorageCredentials vended = vendForOrders().orElseThrow();
    assertThat(vended.prefix()).isEqualTo(upstream.fixture.warehouse());
    assertThat(vended.expiresAt()).isEqualTo(EXPIRY);
    assertThat(vended.properties().keySet())
        .containsExactlyInAnyOrder(
            "s3.access-key-id",
            "s3.secret-access-key",
            "s3.session-token",
            "s3.session-token-expires-at-ms");
  }

  @Test
  void everyCallIsAFreshLoadTable() {
    vend(new StorageCredential(upstream.fixture.warehouse(), rightSession()));
    try (CatalogClient client = upstream.anonymous()) {
      int before = upstream.fixture.vending().loadTableResponses();
      client.vendStorageCredentials(SALES, "orders");
      client.vendStorageCredentials(SALES, "orders");
      assertThat(upstream.fixture.vending().loadTableResponses()).isEqualTo(before + 2);
    }
  }

  @Test
  void theLongestCompleteCoveringPrefixWins() {
    String table = upstream.fixture.warehouse() + "/sales/orders";
    vend(
        new StorageCredential("s3://", session("root", "r")),
        new StorageCredential(table, session("table", "t")),
        new StorageCredential(upstream.fixture.warehouse(), session("warehouse", "w")));
    assertThat(vendForOrders().orElseThrow().properties())
        .containsEntry("s3.access-key-id", "table");
  }

  @Test
  void aLongerPrefixWithoutSessionTokenLosesToAShorterCompleteOne() {
    Map<String, String> bare = rightSession();
    bare.remove("s3.session-token");
    vend(
        new StorageCredential(upstream.fixture.warehouse() + "/sales", bare),
        new StorageCredential(upstream.fixture.warehouse(), session("complete", "c")));
    VendedStorageCredentials vended = vendForOrders().orElseThrow();
    assertThat(vended.prefix()).isEqualTo(upstream.fixture.warehouse());
    assertThat(vended.properties()).containsEntry("s3.access-key-id", "complete");
  }

  @Test
  void aBareKeyPairIsRefused() {
    vend(
        new StorageCredential(
            upstream.fixture.warehouse(),
            Map.of("s3.access-key-id", "AKID", "s3.secret-access-key", "secret")));
    assertCode(IcebergRestVendingTest::vendForOrders, Code.INVALID_CONFIGURATION);
  }

  @Test
  void anIncompleteTupleOrABadExpiryIsInvalidConfiguration() {
    Map<String, String> noSecret = rightSession();
    noSecret.remove("s3.secret-access-key");
    vend(new StorageCredential(upstream.fixture.warehouse(), noSecret));
    assertCode(IcebergRestVendingTest::vendForOrders, Code.INVALID_CONFIGURATION);

    Map<String, String> badExpiry = rightSession();
    badExpiry.put("s3.session-token-expires-at-ms", "tomorrow");
    vend(new StorageCredential(upstream.fixture.warehouse(), badExpiry));
    assertCode(IcebergRestVendingTest::vendForOrders, Code.INVALID_CONFIGURATION);

    Map<String, String> noExpiry = rightSession();
    noExpiry.remove("s3.session-token-expires-at-ms");
    vend(new StorageCredential(upstream.fixture.warehouse(), noExpiry));
    assertCode(IcebergRestVendingTest::vendForOrders, Code.INVALID_CONFIGURATION);
  }

  @Test
  void credentialsCoveringNoPartOfTheTableAreAScopeError() {
    vend(
        new StorageCredential("s3://other-bucket/", rightSession()),
        new StorageCredential(upstream.fixture.warehouse() + "/marketing", rightSession()));
    assertCode(IcebergRestVendingTest::vendForOrders, Code.CREDENTIAL_SCOPE_INVALID);
  }

  @Test
  void prefixMatchIsTextualLikeS3FileIo() {
    // "s3://warehouse/wh/sales/ord" is not a path boundary of ".../orders" but S3FileIO uses it
    vend(new StorageCredential(upstream.fixture.warehouse() + "/sales/ord", rightSession()));
    assertThat(vendForOrders()).isPresent();
  }

  @Test
  void theVendedCredentialsReadTheMetadataFile() {
    vend(new StorageCredential(upstream.fixture.warehouse(), rightSession()));
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(SALES, "orders");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SALES, "orders").orElseThrow();
      client.validateStorageAccess(table, vended);
    }
  }

  @Test
  void wrongVendedKeysBesideRightAmbientKeysFailStorageAccess() {
    // the process environment holds the store's real identity; the catalog vends wrong keys
    System.setProperty("aws.accessKeyId", upstream.store.accessKeyId());
    System.setProperty("aws.secretAccessKey", upstream.store.secretAccessKey());
    vend(new StorageCredential(upstream.fixture.warehouse(), session("AKIDWRONG", "wrong-secret")));
    try (CatalogClient client = upstream.anonymous()) {
      UpstreamTable table = client.loadTable(SALES, "orders");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SALES, "orders").orElseThrow();
      assertCode(() -> client.validateStorageAccess(table, vended), Code.STORAGE_ACCESS_FAILED);
    }
  }

  @Test
  void storageAccessAppliesTheOutboundPolicyToTheObjectStore() {
    Map<String, String> properties = upstream.properties();
    properties.put("s3.endpoint", "http://0.0.0.0:" + upstream.store.endpoint().getPort());
    vend(new StorageCredential(upstream.fixture.warehouse(), rightSession()));
    try (CatalogClient client =
        upstream.open(upstream.config(CatalogAuthentication.none(), properties), null)) {
      UpstreamTable table = client.loadTable(SALES, "orders");
      VendedStorageCredentials vended =
          client.vendStorageCredentials(SALES, "orders").orElseThrow();
      assertCode(() -> client.validateStorageAccess(table, vended), Code.ADDRESS_DENIED);
    }
  }

  @Test
  void plantedSecretsAppearInNoLogLineToStringOrException() {
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    root.addAppender(appender);
    List<String> texts = new ArrayList<>();
    String vendedSecret = "vended-secret-PLANTED-3";
    try {
      upstream.fixture.oauth().requireAuthentication(true);
      CatalogConnectionConfig config =
          upstream.config(new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2, Map.of()));
      ResolvedCatalogCredentials good =
          new ResolvedCatalogCredentials(
              Map.of(
                  "client-id",
                  OAuthTokenFilter.CLIENT_ID,
                  "client-secret",
                  OAuthTokenFilter.CLIENT_SECRET),
              Map.of("X-Custom-Auth", "header-secret-PLANTED-2"),
              null);
      vend(
          new StorageCredential(
              upstream.fixture.warehouse(), session("AKIDPLANTED4", vendedSecret)));
      try (CatalogClient client = upstream.open(config, good)) {
        texts.add(client.toString());
        UpstreamTable table = client.loadTable(SALES, "orders");
        VendedStorageCredentials vended =
            client.vendStorageCredentials(SALES, "orders").orElseThrow();
        texts.add(vended.toString());
        try {
          client.validateStorageAccess(table, vended);
        } catch (CatalogAccessException e) {
          texts.add(ThrowableProxyUtil.asString(new ch.qos.logback.classic.spi.ThrowableProxy(e)));
        }
      }
      ResolvedCatalogCredentials wrong =
          new ResolvedCatalogCredentials(
              Map.of(
                  "client-id",
                  OAuthTokenFilter.CLIENT_ID,
                  "client-secret",
                  "wrong-secret-PLANTED-1"),
              Map.of(),
              null);
      texts.add(wrong.toString());
      try (CatalogClient client = upstream.open(config, wrong)) {
        client.validate();
      } catch (CatalogAccessException e) {
        texts.add(ThrowableProxyUtil.asString(new ch.qos.logback.classic.spi.ThrowableProxy(e)));
      }
    } finally {
      upstream.fixture.oauth().requireAuthentication(false);
      root.detachAppender(appender);
    }
    for (ILoggingEvent event : appender.list) {
      texts.add(event.getFormattedMessage());
      if (event.getThrowableProxy() != null) {
        texts.add(ThrowableProxyUtil.asString(event.getThrowableProxy()));
      }
    }
    assertThat(texts).isNotEmpty();
    for (String text : texts) {
      assertThat(text)
          .doesNotContain(OAuthTokenFilter.CLIENT_SECRET)
          .doesNotContain("PLANTED")
          .doesNotContain("vended-session-token");
    }
  }
}
