package io.icegate.gateway.upstream;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.StorageCredential;
import io.icegate.access.iceberg.fixture.CredentialVendingFilter.Vended;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.OAuthTokenFilter;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Integration validation, capabilities and discovery through the admin HTTP API of a running
 * gateway, against real servers on loopback: Iceberg's own REST catalog code (the iceberg-rest
 * test-jar fixture, with its OAuth2 token endpoint and credential-vending filter) over s3proxy.
 * Every response and every log line of the class is checked for the planted secrets at the end.
 */
class IntegrationUpstreamApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SESSION_TOKEN = "vended-session-token-Zq93";
  private static final String WRONG_SECRET = "wrong-client-secret-Mv27";

  private static ObjectStoreFixture store;
  private static IcebergRestFixture upstream;
  private static ObjectStoreFixture emptyStore;
  private static IcebergRestFixture emptyUpstream;
  private static GatewayFixture gw;
  private static String account;
  private static final List<HttpResponse<String>> responses = new ArrayList<>();
  private static final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private static Level icegateLevel;

  @BeforeAll
  static void start() throws Exception {
    logs.start();
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(logs);
    Logger icegate = (Logger) LoggerFactory.getLogger("io.icegate");
    icegateLevel = icegate.getLevel();
    icegate.setLevel(Level.DEBUG);
    store = ObjectStoreFixture.startS3Proxy();
    upstream = IcebergRestFixture.start(store).seed();
    upstream.oauth().requireAuthentication(true);
    emptyStore = ObjectStoreFixture.startS3Proxy();
    emptyUpstream = IcebergRestFixture.start(emptyStore);
    try (RESTCatalog client = emptyUpstream.newClient()) {
      client.createNamespace(Namespace.of("nothing_here"), new HashMap<>());
    }
    gw = GatewayFixture.start();
    account = json(send("POST", "/admin/v1/accounts", "{\"name\":\"upstream\"}")).get("id")
        .asText();
  }

  @AfterEach
  void noVending() {
    upstream.vending().plan(location -> Vended.nothing());
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      gw.close();
      upstream.close();
      store.close();
      emptyUpstream.close();
      emptyStore.close();
    } finally {
      ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
      ((Logger) LoggerFactory.getLogger("io.icegate")).setLevel(icegateLevel);
    }
    List<String> secrets = List.of(OAuthTokenFilter.CLIENT_SECRET, WRONG_SECRET,
        ObjectStoreFixture.SECRET_ACCESS_KEY, SESSION_TOKEN);
    for (HttpResponse<String> r : responses) {
      for (String secret : secrets) {
        assertThat(r.body()).as(r.uri().toString()).doesNotContain(secret);
        assertThat(r.headers().map().toString()).doesNotContain(secret);
      }
    }
    assertThat(logs.list).isNotEmpty();
    for (ILoggingEvent event : logs.list) {
      for (String secret : secrets) {
        assertThat(event.getFormattedMessage()).doesNotContain(secret);
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
          assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
        }
      }
    }
  }

  private static HttpResponse<String> send(String method, String path, String body,
      String... headers) {
    HttpResponse<String> r = gw.send(method, path, body, headers);
    responses.add(r);
    return r;
  }

  private static String integrations() {
    return "/admin/v1/accounts/" + account + "/integrations";
  }

  /** Creates an Iceberg REST integration on {@code catalog} with {@code authentication}. */
  private static String integration(String name, IcebergRestFixture catalog,
      ObjectStoreFixture objects, Map<String, Object> authentication) {
    ObjectNode body = JSON.createObjectNode();
    body.put("displayName", name);
    body.put("type", "ICEBERG_REST");
    body.put("uri", catalog.uri().toString());
    ObjectNode properties = body.putObject("properties");
    objects.s3Settings().forEach(properties::put);
    properties.put("rest-page-size", "2"); // upstream pagination happens on every listing
    body.set("authentication", JSON.valueToTree(authentication));
    HttpResponse<String> created = send("POST", integrations(), body.toString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    return json(created).get("id").asText();
  }

  private static Map<String, Object> oauth(IcebergRestFixture catalog, String secret) {
    Map<String, Object> auth = new HashMap<>();
    auth.put("type", "oauth2-client-credentials");
    auth.put("tokenUri", catalog.uri() + "/v1/oauth/tokens");
    auth.put("clientId", OAuthTokenFilter.CLIENT_ID);
    auth.put("clientSecret", secret);
    return auth;
  }

  private static void vendRightSession() {
    Vended session = rightSession();
    upstream.vending().plan(location -> session);
  }

  /** The store's identity as a session for the warehouse, expiring in an hour. */
  private static Vended rightSession() {
    Map<String, String> config = new HashMap<>();
    config.put("s3.access-key-id", store.accessKeyId());
    config.put("s3.secret-access-key", store.secretAccessKey());
    config.put("s3.session-token", SESSION_TOKEN);
    config.put("s3.session-token-expires-at-ms",
        Long.toString(Instant.now().plus(1, ChronoUnit.HOURS).toEpochMilli()));
    return new Vended(List.of(new StorageCredential(upstream.warehouse(), config)), Map.of());
  }

  private static JsonNode validate(String id) {
    HttpResponse<String> r = send("POST", integrations() + "/" + id + "/validate", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r);
  }

  private static Map<String, String> statuses(JsonNode report) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (JsonNode check : report.get("checks")) {
      out.put(check.get("check").asText(), check.get("status").asText());
    }
    return out;
  }

  private static JsonNode check(JsonNode report, String name) {
    for (JsonNode check : report.get("checks")) {
      if (check.get("check").asText().equals(name)) {
        return check;
      }
    }
    throw new AssertionError("no check " + name + " in " + report);
  }

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  void validationIsOkWhenTheUpstreamVendsWorkingCredentials() {
    String id = integration("vending", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    vendRightSession();
    JsonNode report = validate(id);
    assertThat(statuses(report)).containsExactly(
        Map.entry("connection", "ok"), Map.entry("authentication", "ok"),
        Map.entry("discovery", "ok"), Map.entry("credential-vending", "ok"),
        Map.entry("credential-expiry", "ok"), Map.entry("credential-scope", "ok"),
        Map.entry("storage-access", "ok"));
    assertThat(report.get("ok").asBoolean()).isTrue();
    assertThat(check(report, "storage-access").get("code").isNull()).isTrue();
  }

  @Test
  void anUpstreamThatDoesNotVendIsNotOk() {
    String id = integration("no-vending", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).isFalse();
    assertThat(check(report, "authentication").get("status").asText()).isEqualTo("ok");
    assertThat(check(report, "credential-vending").get("status").asText()).isEqualTo("failed");
    assertThat(check(report, "credential-vending").get("code").asText()).isEqualTo("NOT_VENDED");
    assertThat(check(report, "storage-access").get("status").asText()).isEqualTo("skipped");
  }

  @Test
  void wrongVendedKeysFailStorageAccess() {
    String id = integration("wrong-vended", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    Map<String, String> config = new HashMap<>();
    config.put("s3.access-key-id", "not-the-store-key");
    config.put("s3.secret-access-key", "not-the-store-secret");
    config.put("s3.session-token", SESSION_TOKEN);
    config.put("s3.session-token-expires-at-ms",
        Long.toString(Instant.now().plus(1, ChronoUnit.HOURS).toEpochMilli()));
    upstream.vending().plan(location -> new Vended(
        List.of(new StorageCredential(upstream.warehouse(), config)), Map.of()));
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).isFalse();
    assertThat(check(report, "credential-scope").get("status").asText()).isEqualTo("ok");
    assertThat(check(report, "storage-access").get("status").asText()).isEqualTo("failed");
    assertThat(check(report, "storage-access").get("code").asText())
        .isEqualTo("STORAGE_ACCESS_FAILED");
  }

  @Test
  void anUpstreamWithNoTableIsNotOk() {
    emptyUpstream.oauth().requireAuthentication(false);
    String id = integration("empty", emptyUpstream, emptyStore,
        oauth(emptyUpstream, OAuthTokenFilter.CLIENT_SECRET));
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).isFalse();
    assertThat(check(report, "discovery").get("status").asText()).isEqualTo("ok");
    assertThat(check(report, "credential-vending").get("code").asText()).isEqualTo("NO_TABLE");
    assertThat(check(report, "credential-expiry").get("status").asText()).isEqualTo("skipped");
  }

  @Test
  void wrongCredentialsFailAuthentication() {
    String id = integration("wrong-secret", upstream, store, oauth(upstream, WRONG_SECRET));
    vendRightSession();
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).isFalse();
    assertThat(check(report, "authentication").get("status").asText()).as(report.toString())
        .isEqualTo("failed");
    assertThat(check(report, "authentication").get("code").asText())
        .isEqualTo("AUTHENTICATION_FAILED");
    assertThat(check(report, "discovery").get("status").asText()).isEqualTo("skipped");
    HttpResponse<String> listing = send("GET", integrations() + "/" + id + "/namespaces", null);
    assertThat(listing.statusCode()).as(listing.body()).isEqualTo(502);
    assertThat(json(listing).get("code").asText()).isEqualTo("UPSTREAM_FAILED");
  }

  @Test
  void assumeRoleIsRefusedWithAClearMessage() {
    Map<String, Object> auth = new HashMap<>();
    auth.put("type", "aws-assume-role");
    auth.put("roleArn", "arn:aws:iam::123456789012:role/reader");
    auth.put("region", "us-east-1");
    String id = integration("assume-role", upstream, store, auth);
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).isFalse();
    JsonNode authentication = check(report, "authentication");
    assertThat(authentication.get("status").asText()).isEqualTo("failed");
    assertThat(authentication.get("code").asText()).isEqualTo("INVALID_CONFIGURATION");
    assertThat(authentication.get("message").asText()).contains("aws-assume-role")
        .contains("not supported").contains("ambient");
    HttpResponse<String> listing = send("GET", integrations() + "/" + id + "/namespaces", null);
    assertThat(listing.statusCode()).isEqualTo(422);
    assertThat(json(listing).get("code").asText()).isEqualTo("INTEGRATION_NOT_USABLE");
    assertThat(json(listing).get("detail").asText()).contains("aws-assume-role");
  }

  @Test
  void capabilitiesAreTheProviders() {
    String id = integration("caps", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    HttpResponse<String> r = send("GET", integrations() + "/" + id + "/capabilities", null);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<String> capabilities = new ArrayList<>();
    json(r).get("capabilities").forEach(c -> capabilities.add(c.asText()));
    assertThat(capabilities).contains("TABLES", "HIERARCHICAL_NAMESPACES", "CREDENTIAL_VENDING",
        "VIEW_LISTING", "VIEW_METADATA");
    assertThat(json(r).get("supportsViews").asBoolean()).isTrue();
  }

  @Test
  void discoveryPagesThroughSortedNamespacesAndObjects() {
    String id = integration("discover", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    String base = integrations() + "/" + id;

    JsonNode first = json(send("GET", base + "/namespaces?pageSize=1", null));
    assertThat(first.get("namespaces").toString()).isEqualTo("[[\"Marketing\"]]");
    String token = first.get("nextPageToken").asText();
    JsonNode second = json(send("GET", base + "/namespaces?pageSize=1&pageToken=" + q(token),
        null));
    assertThat(second.get("namespaces").toString()).isEqualTo("[[\"sales\"]]");
    assertThat(second.get("nextPageToken").isNull()).isTrue();

    JsonNode children = json(send("GET", base + "/namespaces?parent=sales", null));
    assertThat(children.get("namespaces").toString()).isEqualTo("[[\"sales\",\"emea\"]]");
    JsonNode nested = json(send("GET", base + "/namespaces?parent=sales%1Femea", null));
    assertThat(nested.get("namespaces").toString()).isEqualTo("[]");

    JsonNode objects = json(send("GET", base + "/objects?namespace=sales", null));
    assertThat(objects.get("objects").toString()).isEqualTo(
        "[{\"kind\":\"view\",\"namespace\":[\"sales\"],\"name\":\"order_summary\"},"
            + "{\"kind\":\"table\",\"namespace\":[\"sales\"],\"name\":\"orders\"}]");
    JsonNode tables = json(send("GET", base + "/objects?namespace=sales&kind=table&pageSize=1",
        null));
    assertThat(tables.get("objects").toString()).contains("orders").doesNotContain("summary");
    assertThat(tables.get("nextPageToken").isNull()).isTrue();
    JsonNode emea = json(send("GET", base + "/objects?namespace=sales%1Femea&pageSize=1", null));
    assertThat(emea.get("objects").toString()).isEqualTo(
        "[{\"kind\":\"table\",\"namespace\":[\"sales\",\"emea\"],\"name\":\"customers\"}]");

    HttpResponse<String> missing = send("GET", base + "/objects?namespace=nope", null);
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
    HttpResponse<String> noNamespace = send("GET", base + "/objects", null);
    assertThat(noNamespace.statusCode()).isEqualTo(400);
    assertThat(send("GET", base + "/objects?namespace=sales&kind=index", null).statusCode())
        .isEqualTo(400);
  }

  @Test
  void pageTokensAreBoundToTheListingAndTheGenerations() {
    String id = integration("tokens", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    String base = integrations() + "/" + id;
    String objectsToken = json(send("GET", base + "/objects?namespace=sales&pageSize=1", null))
        .get("nextPageToken").asText();
    String namespacesToken = json(send("GET", base + "/namespaces?pageSize=1", null))
        .get("nextPageToken").asText();

    // the same listing resumes
    JsonNode rest = json(send("GET", base + "/objects?namespace=sales&pageSize=1&pageToken="
        + q(objectsToken), null));
    assertThat(rest.get("objects").toString()).contains("\"orders\"");
    // another namespace, another filter, another route, another integration: 400
    assertInvalidToken(send("GET", base + "/objects?namespace=Marketing&pageSize=1&pageToken="
        + q(objectsToken), null));
    assertInvalidToken(send("GET", base + "/objects?namespace=sales&kind=table&pageToken="
        + q(objectsToken), null));
    assertInvalidToken(send("GET", base + "/namespaces?parent=sales&pageToken="
        + q(namespacesToken), null));
    assertInvalidToken(send("GET", base + "/objects?namespace=sales&pageToken="
        + q(namespacesToken), null));
    String other = integration("tokens-other", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    assertInvalidToken(send("GET", integrations() + "/" + other + "/namespaces?pageToken="
        + q(namespacesToken), null));

    // rotation: a new credential generation and configuration generation; old tokens are refused
    HttpResponse<String> current = send("GET", base, null);
    String etag = current.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> rotated = send("PUT", base + "/authentication",
        JSON.valueToTree(oauth(upstream, OAuthTokenFilter.CLIENT_SECRET)).toString(),
        "If-Match", etag);
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
    assertInvalidToken(send("GET", base + "/namespaces?pageSize=1&pageToken="
        + q(namespacesToken), null));
    assertInvalidToken(send("GET", base + "/objects?namespace=sales&pageSize=1&pageToken="
        + q(objectsToken), null));
    // a fresh listing after rotation works and pages again
    JsonNode fresh = json(send("GET", base + "/namespaces?pageSize=1", null));
    String freshToken = fresh.get("nextPageToken").asText();
    assertThat(json(send("GET", base + "/namespaces?pageSize=1&pageToken=" + q(freshToken),
        null)).get("namespaces").toString()).isEqualTo("[[\"sales\"]]");
    // an edited token is refused too (one bit of its MAC flipped: replacing its last characters
    // could leave the bytes as they were, 1 time in 256, since a decoder ignores the spare bits)
    byte[] edited = Base64.getUrlDecoder().decode(freshToken);
    edited[edited.length - 1] ^= 1;
    assertInvalidToken(send("GET", base + "/namespaces?pageSize=1&pageToken="
        + q(Base64.getUrlEncoder().withoutPadding().encodeToString(edited)), null));
  }

  private static void assertInvalidToken(HttpResponse<String> r) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(json(r).get("code").asText()).isEqualTo("INVALID_PAGE_TOKEN");
  }

  @Test
  void validationPassesOverTablesThatVendNothingAndSaysWhichTableItProbed() {
    // Marketing.Campaigns comes first in sort order and vends nothing; sales tables vend
    String id = integration("probe-search", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    Vended sales = rightSession();
    upstream.vending().plan(location -> location.contains("/sales/") ? sales : Vended.nothing());
    JsonNode report = validate(id);
    assertThat(report.get("ok").asBoolean()).as(report.toString()).isTrue();
    assertThat(report.get("probedTable")).isEqualTo(JSON.createObjectNode()
        .<ObjectNode>set("namespace", JSON.createArrayNode().add("sales")).put("name", "orders"));
    JsonNode skipped = report.get("skippedTables");
    assertThat(skipped).hasSize(1);
    assertThat(skipped.get(0).get("namespace").get(0).asText()).isEqualTo("Marketing");
    assertThat(skipped.get(0).get("name").asText()).isEqualTo("Campaigns");
    assertThat(skipped.get(0).get("code").asText()).isEqualTo("NOT_VENDED");
    assertThat(skipped.get(0).get("message").asText()).isNotBlank();
  }

  @Test
  void aValidateBodyNamesTheTableToProbe() {
    String id = integration("probe-named", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    vendRightSession();
    HttpResponse<String> r = send("POST", integrations() + "/" + id + "/validate",
        "{\"table\":{\"namespace\":[\"sales\",\"emea\"],\"name\":\"customers\"}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode report = json(r);
    assertThat(report.get("ok").asBoolean()).as(report.toString()).isTrue();
    assertThat(report.get("probedTable").get("namespace").toString())
        .isEqualTo("[\"sales\",\"emea\"]");
    assertThat(report.get("probedTable").get("name").asText()).isEqualTo("customers");
    assertThat(report.get("skippedTables")).isEmpty();

    HttpResponse<String> missing = send("POST", integrations() + "/" + id + "/validate",
        "{\"table\":{\"namespace\":[\"sales\"],\"name\":\"no_such_table\"}}");
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(200);
    JsonNode discovery = check(json(missing), "discovery");
    assertThat(discovery.get("status").asText()).isEqualTo("failed");
    assertThat(discovery.get("code").asText()).isEqualTo("PROBE_TABLE_NOT_FOUND");
    assertThat(discovery.get("message").asText()).contains("no_such_table");
    assertThat(json(missing).get("probedTable").isNull()).isTrue();

    // an empty object is no table: the search runs
    HttpResponse<String> empty = send("POST", integrations() + "/" + id + "/validate", "{}");
    assertThat(empty.statusCode()).as(empty.body()).isEqualTo(200);
    assertThat(json(empty).get("probedTable").get("name").asText()).isEqualTo("Campaigns");
  }

  @Test
  void aMalformedValidateBodyIsABadRequestNamingTheMember() {
    String id = integration("probe-malformed", upstream, store,
        oauth(upstream, OAuthTokenFilter.CLIENT_SECRET));
    Map<String, String> bodies = new java.util.LinkedHashMap<>();
    bodies.put("{\"table\":{\"name\":\"orders\"}}", "table.namespace");
    bodies.put("{\"table\":{\"namespace\":[\"sales\"]}}", "table.name");
    bodies.put("{\"table\":{\"namespace\":\"sales\",\"name\":\"orders\"}}",
        "table.namespace");
    bodies.put("{\"table\":{\"namespace\":[],\"name\":\"orders\"}}", "table.namespace");
    bodies.put("{\"table\":{\"namespace\":[\"sales\",\"\"],\"name\":\"orders\"}}",
        "table.namespace[1]");
    bodies.put("{\"table\":{\"namespace\":[\"sales\"],\"name\":\"\"}}", "table.name");
    bodies.put("{\"tabel\":{}}", "tabel");
    bodies.put("[1]", "body");
    bodies.put("not json", "JSON");
    bodies.forEach((body, member) -> {
      HttpResponse<String> r = send("POST", integrations() + "/" + id + "/validate", body);
      assertThat(r.statusCode()).as(body + " -> " + r.body()).isEqualTo(400);
      assertThat(r.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/problem+json");
      assertThat(json(r).get("code").asText()).isEqualTo("MALFORMED_REQUEST");
      assertThat(json(r).get("detail").asText()).as(body).contains(member);
    });
  }

  @Test
  void unknownIntegrationIsNotFound() {
    HttpResponse<String> r = send("POST", integrations() + "/no-such-id/validate", null);
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(json(r).get("code").asText()).isEqualTo("NOT_FOUND");
  }
}
