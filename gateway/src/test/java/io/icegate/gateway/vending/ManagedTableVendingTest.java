package io.icegate.gateway.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.StorageCredential;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.Vended;
import io.icegate.core.store.KeyValue;
import io.icegate.gateway.testing.FederatedCatalog;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 10, "Reading through the gateway", vended credentials of managed tables: a load-table with
 * {@code X-Iceberg-Access-Delegation: vended-credentials} of a visible managed table answers the
 * credentials the upstream catalog vends through the Integration (the real upstream fixture's
 * {@link CredentialVendingFilter}), in {@code storage-credentials} with the Integration's storage
 * settings, never with an ETag or a 304; they are cached until shortly before their expiry, then
 * fetched again; nothing vended is a 403 saying so; vended secrets appear in no log line and no
 * admin response; iceberg-core's RESTCatalog reads the upstream's manifests with them.
 */
class ManagedTableVendingTest {
  private static final String SECRET = "vended-secret-7f3a9c";
  private static final String TOKEN = "vended-session-token-b81e";
  private static FederatedCatalog fed;
  private static String path;
  private static final AtomicInteger vended = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    fed = FederatedCatalog.start();
    fed.appendUpstream(FederatedCatalog.ORDERS);
    fed.reconcile();
    fed.validate(FederatedCatalog.ORDERS);
    path = fed.loadPath(FederatedCatalog.ORDERS);
  }

  @AfterAll
  static void stop() throws Exception {
    ContributionInvariants.checker(fed.gateway().gateway().store()).assertClean();
    fed.close();
  }

  /** Fresh sessions, and nothing cached from an earlier test may answer. */
  @BeforeEach
  void vendDistinctSessions() {
    vendSessions(3_600_000L, "id-");
    bumpIntegration();
  }

  /**
   * Each upstream load vends a new session for the warehouse: key id {@code idPrefix + n}, the
   * planted secret and token suffixed with {@code n}, expiring {@code lifetimeMillis} from now.
   */
  private static void vendSessions(long lifetimeMillis, String idPrefix) {
    fed.upstream().vending().plan(location -> {
      int n = vended.incrementAndGet();
      Map<String, String> session = new HashMap<>();
      session.put("s3.access-key-id", idPrefix + n);
      session.put("s3.secret-access-key", SECRET + n);
      session.put("s3.session-token", TOKEN + n);
      session.put("s3.session-token-expires-at-ms",
          Long.toString(System.currentTimeMillis() + lifetimeMillis));
      return new Vended(List.of(new StorageCredential(fed.upstream().warehouse(), session)),
          Map.of());
    });
  }

  private static HttpResponse<String> delegated(String route, String... headers) {
    String[] all = new String[headers.length + 2];
    all[0] = "X-Iceberg-Access-Delegation";
    all[1] = "vended-credentials";
    System.arraycopy(headers, 0, all, 2, headers.length);
    return fed.gateway().send("GET", route, null, all);
  }

  private static JsonNode onlyCredential(JsonNode body) {
    JsonNode credentials = body.get("storage-credentials");
    assertThat(credentials).as(body.toString()).isNotNull();
    assertThat(credentials.size()).isEqualTo(1);
    return credentials.get(0);
  }

  @Test
  void aDelegatedLoadAnswersTheVendedKeysAndStorageSettingsWithoutAnEtag() {
    HttpResponse<String> plain = fed.gateway().send("GET", path, null);
    String etag = plain.headers().firstValue("ETag").orElseThrow();
    assertThat(plain.body()).doesNotContain("storage-credentials");

    HttpResponse<String> r = delegated(path, "If-None-Match", etag);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("ETag")).isEmpty();
    assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
    JsonNode body = FederatedCatalog.json(r);
    assertThat(body.at("/metadata/current-snapshot-id").asLong())
        .isEqualTo(fed.upstreamMetadata(FederatedCatalog.ORDERS).currentSnapshot().snapshotId());
    JsonNode credential = onlyCredential(body);
    assertThat(credential.get("prefix").asText()).isEqualTo(fed.upstream().warehouse());
    JsonNode config = credential.get("config");
    assertThat(config.get("s3.access-key-id").asText()).startsWith("id-");
    assertThat(config.get("s3.secret-access-key").asText()).startsWith(SECRET);
    assertThat(config.get("s3.session-token").asText()).startsWith(TOKEN);
    assertThat(config.get("s3.session-token-expires-at-ms").asLong())
        .isGreaterThan(System.currentTimeMillis());
    assertThat(config.get("s3.endpoint").asText())
        .isEqualTo(fed.objects().endpoint().toString());
    assertThat(config.get("s3.path-style-access").asText()).isEqualTo("true");

    HttpResponse<String> credentials = delegated(path + "/credentials");
    assertThat(credentials.statusCode()).as(credentials.body()).isEqualTo(200);
    JsonNode routed = FederatedCatalog.json(credentials).get("storage-credentials").get(0);
    assertThat(routed.get("config").get("s3.session-token").asText())
        .isEqualTo(config.get("s3.session-token").asText()); // the cached session
  }

  @Test
  void theCachedCredentialIsFetchedAgainShortlyBeforeItExpires() throws Exception {
    vendSessions(10_000L, "short-");
    int loads = fed.upstream().vending().loadTableResponses();
    JsonNode first = onlyCredential(FederatedCatalog.json(delegated(path))).get("config");
    assertThat(first.get("s3.access-key-id").asText()).startsWith("short-");
    assertThat(fed.upstream().vending().loadTableResponses()).isEqualTo(loads + 1);
    JsonNode again = onlyCredential(FederatedCatalog.json(delegated(path))).get("config");
    assertThat(again.get("s3.session-token").asText())
        .isEqualTo(first.get("s3.session-token").asText());
    assertThat(fed.upstream().vending().loadTableResponses()).isEqualTo(loads + 1);

    // Handed out until half of its 10 s lifetime is left, then replaced by a fresh one.
    Thread.sleep(6_000);
    JsonNode renewed = onlyCredential(FederatedCatalog.json(delegated(path))).get("config");
    assertThat(renewed.get("s3.session-token").asText())
        .isNotEqualTo(first.get("s3.session-token").asText());
    assertThat(renewed.get("s3.session-token-expires-at-ms").asLong())
        .isGreaterThan(first.get("s3.session-token-expires-at-ms").asLong());
    assertThat(fed.upstream().vending().loadTableResponses()).isEqualTo(loads + 2);
  }

  /**
   * Rotates the Integration's authentication (the same bearer token): a new configuration
   * generation, so no credential cached before is handed out again.
   */
  private static void bumpIntegration() {
    String route = fed.adminBase() + "/integrations/" + fed.integration();
    String etag = fed.gateway().send("GET", route, null).headers().firstValue("ETag")
        .orElseThrow();
    HttpResponse<String> rotated = fed.gateway().send("PUT", route + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"upstream-bearer-secret\"}", "If-Match", etag);
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
  }

  @Test
  void nothingVendedIsA403SayingSoAndAPlainLoadStillWorks() {
    fed.upstream().vending().plan(location -> Vended.nothing());
    for (HttpResponse<String> r : List.of(delegated(path), delegated(path + "/credentials"))) {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
      assertThat(r.body()).contains("ForbiddenException")
          .contains("vends no storage credentials for table sales.orders");
    }
    assertThat(fed.gateway().send("GET", path, null).statusCode()).isEqualTo(200);
  }

  @Test
  void anUnreachableUpstreamIsA503SayingWhyNotAnInternalError() throws Exception {
    String route = fed.adminBase() + "/integrations/" + fed.integration();
    HttpResponse<String> before = fed.gateway().send("GET", route, null);
    String uri = FederatedCatalog.json(before).get("uri").asText();
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    HttpResponse<String> moved = fed.gateway().send("PATCH", route,
        "{\"uri\":\"http://127.0.0.1:" + closedPort + "/catalog\"}", "If-Match",
        before.headers().firstValue("ETag").orElseThrow());
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
    try {
      for (HttpResponse<String> r : List.of(delegated(path), delegated(path + "/credentials"))) {
        // found by the new-user tryout: the reason was only in the log, the body said
        // "internal error"
        assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
        assertThat(r.body()).contains("ServiceUnavailableException")
            .contains("unavailable from the upstream catalog").contains("CONNECTION_FAILED")
            .doesNotContain("internal error");
      }
    } finally {
      HttpResponse<String> current = fed.gateway().send("GET", route, null);
      HttpResponse<String> back = fed.gateway().send("PATCH", route,
          "{\"uri\":\"" + uri + "\"}", "If-Match",
          current.headers().firstValue("ETag").orElseThrow());
      assertThat(back.statusCode()).as(back.body()).isEqualTo(200);
    }
  }

  @Test
  void icebergsRestCatalogReadsTheUpstreamManifestsWithTheVendedCredentialsOnly() {
    // s3proxy accepts one identity: the fixture's keys work, any other key fails.
    fed.upstream().vending().plan(location -> session(fed.objects().accessKeyId(),
        fed.objects().secretAccessKey()));
    bumpIntegration();
    try (RESTCatalog client = delegatingClient()) {
      Table table = client.loadTable(FederatedCatalog.ORDERS);
      List<ManifestFile> manifests = table.currentSnapshot().allManifests(table.io());
      assertThat(manifests).isNotEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }

    fed.upstream().vending().plan(location -> session("wrong-key", "wrong-secret"));
    bumpIntegration();
    try (RESTCatalog client = delegatingClient()) {
      Table table = client.loadTable(FederatedCatalog.ORDERS);
      assertThatThrownBy(() -> table.currentSnapshot().allManifests(table.io()))
          .isInstanceOf(RuntimeException.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Vended session(String key, String secret) {
    Map<String, String> session = new HashMap<>();
    session.put("s3.access-key-id", key);
    session.put("s3.secret-access-key", secret);
    session.put("s3.session-token", TOKEN + "-client");
    session.put("s3.session-token-expires-at-ms",
        Long.toString(System.currentTimeMillis() + 3_600_000L));
    return new Vended(List.of(new StorageCredential(fed.upstream().warehouse(), session)),
        Map.of());
  }

  /** iceberg-core's client asking for vended credentials; it has no S3 keys of its own. */
  private static RESTCatalog delegatingClient() {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, fed.gateway().icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "default");
    props.put("token", GatewayFixture.TOKEN);
    props.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("delegating", props);
    return catalog;
  }

  @Test
  void vendedSecretsAppearInNoLogLineAndNoAdminResponse() throws Exception {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    Logger icegate = (Logger) LoggerFactory.getLogger("io.icegate");
    Level before = icegate.getLevel();
    root.addAppender(logs);
    icegate.setLevel(Level.DEBUG);
    StringBuilder admin = new StringBuilder();
    String tableId = fed.tableId(FederatedCatalog.ORDERS);
    try {
      assertThat(delegated(path).statusCode()).isEqualTo(200);
      assertThat(delegated(path + "/credentials").statusCode()).isEqualTo(200);
      // An unusable vended entry (a bare key pair, no session token) is refused without echoing
      // its secret.
      fed.upstream().vending().plan(location -> new Vended(List.of(new StorageCredential(
          fed.upstream().warehouse(), Map.of("s3.access-key-id", "bare",
              "s3.secret-access-key", SECRET + "-bare"))), Map.of()));
      bumpIntegration();
      HttpResponse<String> refused = delegated(path);
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
      assertThat(refused.body()).contains("bare key pair").doesNotContain(SECRET);
      // the upstream's own client would use vended keys too: vend nothing while it commits
      fed.upstream().vending().plan(location -> Vended.nothing());
      fed.appendUpstream(FederatedCatalog.ORDERS);
      vendDistinctSessions();
      admin.append(FederatedCatalog.json(fed.gateway().send("POST",
          fed.adminBase() + "/overlays/" + fed.overlay() + "/reconcile", null)));
      fed.validate(FederatedCatalog.ORDERS);
      for (String route : List.of("/integrations/" + fed.integration(),
          "/overlays/" + fed.overlay(), "/integrations", "/overlays",
          "/catalogs/" + fed.gateway().prefix(),
          "/catalogs/" + fed.gateway().prefix() + "/tables/" + tableId,
          "/catalogs/" + fed.gateway().prefix() + "/tables/" + tableId + "/validation-errors")) {
        admin.append(fed.gateway().send("GET", fed.adminBase() + route, null).body());
      }
      assertThat(delegated(path).statusCode()).isEqualTo(200);
    } finally {
      root.detachAppender(logs);
      icegate.setLevel(before);
    }
    assertThat(vended.get()).isGreaterThan(0);
    for (ILoggingEvent event : logs.list) {
      String line = event.getFormattedMessage() + throwableText(event.getThrowableProxy());
      assertThat(line).doesNotContain(SECRET).doesNotContain(TOKEN);
    }
    assertThat(admin.toString()).doesNotContain(SECRET).doesNotContain(TOKEN)
        .doesNotContain("upstream-bearer-secret");
    // nor in any store record: vended sessions are process memory only, and the Integration's
    // secret is stored sealed (seed 000, "Vended storage credentials")
    List<KeyValue> all = fed.gateway().gateway().store().read(tx -> tx.getRange(new byte[0],
        new byte[] {(byte) 0xff}));
    assertThat(all).isNotEmpty();
    for (KeyValue kv : all) {
      String record = new String(kv.key(), StandardCharsets.ISO_8859_1)
          + new String(kv.value(), StandardCharsets.ISO_8859_1);
      assertThat(record).doesNotContain(SECRET).doesNotContain(TOKEN)
          .doesNotContain("upstream-bearer-secret");
    }
  }

  private static String throwableText(IThrowableProxy proxy) {
    StringBuilder text = new StringBuilder();
    for (IThrowableProxy p = proxy; p != null; p = p.getCause()) {
      text.append(' ').append(p.getClassName()).append(": ").append(p.getMessage());
    }
    return text.toString();
  }
}
