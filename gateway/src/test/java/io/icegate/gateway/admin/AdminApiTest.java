package io.icegate.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Admin API rules over real HTTP against a running gateway (one test per rule). */
class AdminApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "planted-secret-7f3a9c";
  private static GatewayFixture gw;
  private static String account;

  @BeforeAll
  static void start() throws Exception {
    gw = GatewayFixture.start();
    account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"acme\"}")).get("id").asText();
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static JsonNode json(HttpResponse<String> r) {
    try {
      return JSON.readTree(r.body());
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + r.statusCode() + " " + r.body(), e);
    }
  }

  private static String base() {
    return "/admin/v1/accounts/" + account;
  }

  private static String integration(String name) {
    return "{\"displayName\":\"" + name + "\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://catalog.example.com/v1\",\"properties\":{\"warehouse\":\"w\"},"
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"" + SECRET + "\"}}";
  }

  private static void assertProblem(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/problem+json");
    assertThat(json(r).get("code").asText()).isEqualTo(code);
  }

  @Test
  void createGetAndListCatalogsWithEtags() {
    HttpResponse<String> created = gw.send("POST", base() + "/catalogs",
        "{\"name\":\"sales\",\"warehouse\":\"s3://bucket/sales\",\"storage\":{\"s3\":"
            + "{\"region\":\"us-east-1\",\"accessKeyId\":\"AK\",\"secretAccessKey\":\"" + SECRET
            + "\"}}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("ETag")).isPresent();
    assertThat(created.body()).doesNotContain(SECRET);
    JsonNode body = json(created);
    assertThat(body.at("/storage/s3/credentialsConfigured").asBoolean()).isTrue();
    String id = body.get("id").asText();
    HttpResponse<String> got = gw.send("GET", base() + "/catalogs/" + id, null);
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.headers().firstValue("ETag")).isEqualTo(created.headers().firstValue("ETag"));
    HttpResponse<String> page = gw.send("GET", base() + "/catalogs?pageSize=1", null);
    assertThat(json(page).get("items")).hasSize(1);
  }

  @Test
  void patchNeedsIfMatchAndRefusesAStaleOne() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"patchme\",\"warehouse\":\"file:/tmp/x\"}")).get("id").asText();
    assertProblem(gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p2\"}"), 428,
        "PRECONDITION_REQUIRED");
    String etag = gw.send("GET", base() + "/catalogs/" + id, null).headers()
        .firstValue("ETag").orElseThrow();
    HttpResponse<String> ok = gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p2\"}",
        "If-Match", etag);
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertProblem(gw.send("PATCH", base() + "/catalogs/" + id, "{\"name\":\"p3\"}",
        "If-Match", etag), 412, "GENERATION_MISMATCH");
  }

  @Test
  void idempotencyKeyReplaysAndRefusesAnotherBody() {
    HttpResponse<String> first = gw.send("POST", base() + "/integrations", integration("idem"),
        "Idempotency-Key", "k1");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    HttpResponse<String> replay = gw.send("POST", base() + "/integrations", integration("idem"),
        "Idempotency-Key", "k1");
    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(json(replay).get("id")).isEqualTo(json(first).get("id"));
    assertProblem(gw.send("POST", base() + "/integrations", integration("other"),
        "Idempotency-Key", "k1"), 422, "IDEMPOTENCY_KEY_REUSED");
    assertProblem(gw.send("POST", base() + "/integrations?onConflict=replace",
        integration("idem"), "Idempotency-Key", "k2"), 400, "INVALID_ARGUMENT");
  }

  @Test
  void onConflictModes() {
    JsonNode first = json(gw.send("POST", base() + "/integrations", integration("dup")));
    assertProblem(gw.send("POST", base() + "/integrations", integration("dup")), 409,
        "ALREADY_EXISTS");
    HttpResponse<String> existing = gw.send("POST",
        base() + "/integrations?onConflict=return-existing", integration("dup"));
    assertThat(existing.statusCode()).isEqualTo(200);
    assertThat(json(existing).get("id")).isEqualTo(first.get("id"));
    HttpResponse<String> replaced = gw.send("POST", base() + "/integrations?onConflict=replace",
        integration("dup"));
    assertThat(replaced.statusCode()).isEqualTo(201);
    assertThat(json(replaced).get("id")).isNotEqualTo(first.get("id"));
    // the replaced identity's credentials went with it
    assertThat(credentialKeys(first.get("id").asText())).isZero();
    assertThat(credentialKeys(json(replaced).get("id").asText())).isEqualTo(1);
  }

  @Test
  void integrationRulesTypeImmutableRotationAndGenerations() {
    JsonNode created = json(gw.send("POST", base() + "/integrations", integration("rot")));
    String id = created.get("id").asText();
    assertThat(created.get("credentialGeneration").asLong()).isEqualTo(1);
    String path = base() + "/integrations/" + id;
    String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    assertProblem(gw.send("PATCH", path, "{\"type\":\"UNITY\"}", "If-Match", etag), 400,
        "IMMUTABLE_MEMBER");
    HttpResponse<String> renamed = gw.send("PATCH", path, "{\"displayName\":\"rot2\"}",
        "If-Match", etag);
    assertThat(json(renamed).get("configurationGeneration").asLong()).isEqualTo(1);
    HttpResponse<String> moved = gw.send("PATCH", path,
        "{\"uri\":\"https://other.example.com/v1\"}", "If-Match",
        renamed.headers().firstValue("ETag").orElseThrow());
    assertThat(json(moved).get("configurationGeneration").asLong()).isEqualTo(2);
    assertProblem(gw.send("PUT", path + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"new-" + SECRET + "\"}"), 428, "PRECONDITION_REQUIRED");
    HttpResponse<String> rotated = gw.send("PUT", path + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"new-" + SECRET + "\"}", "If-Match",
        moved.headers().firstValue("ETag").orElseThrow());
    assertThat(rotated.statusCode()).as(rotated.body()).isEqualTo(200);
    assertThat(json(rotated).get("credentialGeneration").asLong()).isEqualTo(2);
    assertThat(rotated.body()).doesNotContain(SECRET);
  }

  @Test
  void connectionBoundaryNamesTheKeyNeverTheValue() {
    String body = "{\"displayName\":\"bad\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://c.example.com/v1\",\"properties\":{\"client_secret\":\"" + SECRET
        + "\"},\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}";
    HttpResponse<String> r = gw.send("POST", base() + "/integrations", body);
    assertProblem(r, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(r.body()).contains("client_secret").doesNotContain(SECRET);
    for (String uri : new String[] {"ftp://c.example.com", "https://u:" + SECRET + "@c.example.com",
        "https://c.example.com/v1#frag", "https://c.example.com/v1?token=" + SECRET,
        "https://c.example.com:99999/v1", "https://c.example.com:0/v1"}) {
      HttpResponse<String> bad = gw.send("POST", base() + "/integrations",
          integration("u").replace("https://catalog.example.com/v1", uri));
      assertProblem(bad, 400, "CONNECTION_SETTING_REJECTED");
      assertThat(bad.body()).doesNotContain(SECRET);
    }
    assertProblem(gw.send("POST", base() + "/integrations",
        integration("meta").replace("catalog.example.com", "169.254.169.254")), 400,
        "OUTBOUND_ADDRESS_REJECTED");
  }

  @Test
  void providerPropertyValuesAreCheckedAtCreateAndUpdateNamingTheProperty() {
    String strict = "delta.sharing.strict-access-modes";
    String sharing = "{\"displayName\":\"share\",\"type\":\"DELTA_SHARING\","
        + "\"uri\":\"https://sharing.example.com/delta-sharing\",\"properties\":{\"" + strict
        + "\":\"VALUE\"},\"authentication\":{\"type\":\"bearer\",\"token\":\"" + SECRET
        + "\"}}";
    HttpResponse<String> refused = gw.send("POST", base() + "/integrations",
        sharing.replace("VALUE", "yes"));
    assertProblem(refused, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(refused.body()).contains(strict).doesNotContain(SECRET);
    HttpResponse<String> created = gw.send("POST", base() + "/integrations",
        sharing.replace("VALUE", "true"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String path = base() + "/integrations/" + json(created).get("id").asText();
    HttpResponse<String> patched = gw.send("PATCH", path,
        "{\"properties\":{\"" + strict + "\":\"maybe\"}}", "If-Match",
        created.headers().firstValue("ETag").orElseThrow());
    assertProblem(patched, 400, "CONNECTION_SETTING_REJECTED");
    assertThat(patched.body()).contains(strict);

    // the Iceberg REST provider: a name it would refuse at connection (a tryout's PATCH with
    // oauth2-server-uri answered 200 and broke the next round), and a timeout that is no number
    for (String properties : new String[] {"{\"oauth2-server-uri\":\"https://c.example.com/t\"}",
        "{\"rest.client.socket-timeout-ms\":\"abc\"}", "{\"foo\":\"bar\"}"}) {
      HttpResponse<String> bad = gw.send("POST", base() + "/integrations",
          integration("p").replace("\"properties\":{\"warehouse\":\"w\"}",
              "\"properties\":" + properties));
      assertProblem(bad, 400, "CONNECTION_SETTING_REJECTED");
      assertThat(bad.body()).contains(properties.substring(2, properties.indexOf('"', 2)));
    }
    HttpResponse<String> rest = gw.send("POST", base() + "/integrations", integration("rest"));
    assertThat(rest.statusCode()).as(rest.body()).isEqualTo(201);
    assertProblem(gw.send("PATCH", base() + "/integrations/" + json(rest).get("id").asText(),
        "{\"properties\":{\"oauth2-server-uri\":\"https://c.example.com/t\"}}", "If-Match",
        rest.headers().firstValue("ETag").orElseThrow()), 400, "CONNECTION_SETTING_REJECTED");
  }

  @Test
  void outboundAddressPolicyOnCreateAndOnUriChange() {
    HttpResponse<String> mapped = gw.send("POST", base() + "/integrations",
        integration("mapped").replace("catalog.example.com", "[::ffff:169.254.169.254]"));
    assertProblem(mapped, 400, "OUTBOUND_ADDRESS_REJECTED");
    assertThat(mapped.body()).contains("::ffff:169.254.169.254");
    JsonNode created = json(gw.send("POST", base() + "/integrations",
        integration("moving").replace("catalog.example.com", "127.0.0.1")));
    String path = base() + "/integrations/" + created.get("id").asText();
    String etag = gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
    assertProblem(gw.send("PATCH", path, "{\"uri\":\"https://[fd00:ec2::254]/v1\"}",
        "If-Match", etag), 400, "OUTBOUND_ADDRESS_REJECTED");
    assertThat(gw.send("GET", path, null).body()).contains("127.0.0.1");
  }

  @Test
  void authenticationCompatibilityPerType() {
    String unitySigv4 = "{\"displayName\":\"uc\",\"type\":\"UNITY\",\"uri\":\"https://u.example.com\","
        + "\"authentication\":{\"type\":\"aws-sigv4\",\"region\":\"r\",\"signingName\":\"s\","
        + "\"accessKeyId\":\"a\",\"secretAccessKey\":\"" + SECRET + "\"}}";
    assertProblem(gw.send("POST", base() + "/integrations", unitySigv4), 400,
        "AUTHENTICATION_NOT_SUPPORTED");
    String sharingOauth = "{\"displayName\":\"ds\",\"type\":\"DELTA_SHARING\","
        + "\"uri\":\"https://d.example.com\",\"authentication\":{\"type\":"
        + "\"oauth2-client-credentials\",\"clientId\":\"c\",\"clientSecret\":\"" + SECRET + "\"}}";
    assertProblem(gw.send("POST", base() + "/integrations", sharingOauth), 400,
        "AUTHENTICATION_NOT_SUPPORTED");
  }

  @Test
  void badInputIsA400WithAStableCodeAndWritesNothing() {
    String before = gw.send("GET", base() + "/integrations", null).body();
    String[] bodies = {
      "{not json", "{\"displayName\":\"x\",\"bogus\":1}", "{\"displayName\":5}",
      "{\"type\":\"ICEBERG_REST\"}", integration("x".repeat(300)),
      integration("e").replace("ICEBERG_REST", "NOPE")
    };
    for (String body : bodies) {
      HttpResponse<String> r = gw.send("POST", base() + "/integrations", body);
      assertThat(r.statusCode()).as(body).isEqualTo(400);
      assertThat(json(r).get("code").asText()).isIn("MALFORMED_REQUEST", "INVALID_ARGUMENT");
      assertThat(r.body()).doesNotContain(SECRET);
    }
    assertThat(gw.send("GET", base() + "/integrations", null).body()).isEqualTo(before);
  }

  @Test
  void secondAccountSeesNothingOfTheFirst() {
    String other = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"other\"}"))
        .get("id").asText();
    String token = json(gw.send("POST", "/admin/v1/accounts/" + other + "/tokens",
        "{\"name\":\"t\",\"role\":\"admin\"}")).get("token").asText();
    String catalog = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"iso\",\"warehouse\":\"file:/tmp/iso\"}")).get("id").asText();
    String integ = json(gw.send("POST", base() + "/integrations", integration("iso")))
        .get("id").asText();
    String auth = "Bearer " + token;
    String[][] calls = {
      {"GET", base()}, {"GET", base() + "/catalogs"}, {"POST", base() + "/catalogs"},
      {"GET", base() + "/catalogs/" + catalog}, {"PATCH", base() + "/catalogs/" + catalog},
      {"DELETE", base() + "/catalogs/" + catalog}, {"GET", base() + "/integrations"},
      {"POST", base() + "/integrations"}, {"GET", base() + "/integrations/" + integ},
      {"PATCH", base() + "/integrations/" + integ},
      {"DELETE", base() + "/integrations/" + integ},
      {"PUT", base() + "/integrations/" + integ + "/authentication"},
      {"POST", base() + "/tokens"},
    };
    for (String[] call : calls) {
      HttpResponse<String> r = gw.send(call[0], call[1], "{}", "Authorization", auth,
          "If-Match", "\"x/1\"");
      assertProblem(r, 404, "NOT_FOUND");
    }
    assertThat(gw.send("GET", base() + "/catalogs/" + catalog, null).statusCode()).isEqualTo(200);
  }

  @Test
  void readersCannotWrite() {
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"r\",\"role\":\"reader\"}")).get("token").asText();
    assertThat(gw.send("GET", base() + "/catalogs", null, "Authorization", "Bearer " + token)
        .statusCode()).isEqualTo(200);
    assertProblem(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"r\",\"warehouse\":\"file:/tmp/r\"}", "Authorization", "Bearer " + token),
        403, "PERMISSION_DENIED");
    assertProblem(gw.send("GET", base(), null, "Authorization", "Bearer nope"), 401,
        "UNAUTHENTICATED");
  }

  @Test
  void catalogDeleteRefusedWhileItHoldsNamespaces() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"full\",\"warehouse\":\"file:/tmp/full\"}")).get("id").asText();
    // A namespace through the Iceberg surface with a writer token of the account.
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"w\",\"role\":\"writer\"}")).get("token").asText();
    HttpResponse<String> ns = gw.send("POST", "/iceberg/v1/" + id + "/namespaces",
        "{\"namespace\":[\"n\"]}", "Authorization", "Bearer " + token);
    assertThat(ns.statusCode()).as(ns.body()).isEqualTo(200);
    HttpResponse<String> refused = gw.send("DELETE", base() + "/catalogs/" + id, null);
    assertProblem(refused, 409, "DEPENDENCY_EXISTS");
    // the detail names what holds the catalog, so the operator knows what to drop first
    assertThat(json(refused).get("detail").asText())
        .startsWith("catalog 'full' holds 1 namespace(s), among them 'n'; ");
    gw.send("DELETE", "/iceberg/v1/" + id + "/namespaces/n", null, "Authorization",
        "Bearer " + token);
    assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode()).isEqualTo(204);
    assertProblem(gw.send("GET", base() + "/catalogs/" + id, null), 404, "NOT_FOUND");
  }

  @Test
  void aDeletedCatalogIsGoneFromTheIcebergRoutesAtOnce() {
    String reader = "Bearer " + json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"gone-reader\",\"role\":\"reader\"}")).get("token").asText();
    io.icegate.core.repo.Repositories repositories =
        io.icegate.overlay.store.OverlayStore.repositories(gw.gateway().store(),
            java.time.Clock.systemUTC());
    for (String how : new String[] {"admin API", "another process"}) {
      String id = json(gw.send("POST", base() + "/catalogs", "{\"name\":\"gone-"
          + how.replace(' ', '-') + "\",\"warehouse\":\"file:/tmp/gone\"}")).get("id").asText();
      String namespaces = "/iceberg/v1/" + id + "/namespaces";
      assertThat(gw.send("GET", namespaces, null, "Authorization", reader).statusCode())
          .as(how).isEqualTo(200);
      if (how.equals("admin API")) {
        assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode())
            .isEqualTo(204);
      } else {
        // Another gateway process on the same store deletes it: this process's caches never hear.
        repositories.catalogs(account).delete(id, io.icegate.core.repo.ExpectedGeneration.any());
      }
      HttpResponse<String> after = gw.send("GET", namespaces, null, "Authorization", reader);
      assertThat(after.statusCode()).as(how + ": " + after.body()).isEqualTo(404);
      assertThat(gw.send("POST", namespaces, "{\"namespace\":[\"n\"]}", "Authorization",
          reader).statusCode()).as(how).isIn(403, 404);
    }
  }

  @Test
  void jettysOwnRejectionsUnderAdminAreProblems() throws Exception {
    String raw = gw.rawGet(base() + "/catalogs/%ZZ");
    assertThat(raw).startsWith("HTTP/1.1 400");
    assertThat(raw).containsIgnoringCase("Content-Type: application/problem+json");
    String body = raw.substring(raw.indexOf("\r\n\r\n") + 4);
    JsonNode problem = JSON.readTree(body);
    assertThat(problem.get("code").asText()).isEqualTo("MALFORMED_REQUEST");
    assertThat(problem.get("status").asInt()).isEqualTo(400);
    // The Iceberg surface keeps Iceberg's ErrorResponse for the same rejection.
    assertThat(gw.rawGet("/iceberg/v1/x/namespaces/%ZZ")).contains("\"code\":400")
        .doesNotContain("problem+json");
  }

  @Test
  void aRelativeFileWarehouseIsRefused() {
    for (String warehouse : new String[] {"file:relative/wh", "file:./wh", "file:wh", "file:"}) {
      assertProblem(gw.send("POST", base() + "/catalogs",
          "{\"name\":\"relative\",\"warehouse\":\"" + warehouse + "\"}"), 400,
          "INVALID_ARGUMENT");
    }
    assertThat(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"absolute\",\"warehouse\":\"file:///tmp/abs\"}").statusCode())
        .isEqualTo(201);
  }

  @Test
  void deletedAccountsTokensStopAuthenticating() {
    String gone = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"gone\"}"))
        .get("id").asText();
    String path = "/admin/v1/accounts/" + gone;
    String token = json(gw.send("POST", path + "/tokens",
        "{\"name\":\"t\",\"role\":\"admin\"}")).get("token").asText();
    String catalog = json(gw.send("POST", path + "/catalogs",
        "{\"name\":\"c\",\"warehouse\":\"file:/tmp/gone\"}")).get("id").asText();
    String auth = "Bearer " + token;
    String iceberg = "/iceberg/v1/" + catalog + "/namespaces";
    // Both surfaces answer first, so the Iceberg side's token cache holds the principal.
    assertThat(gw.send("GET", path + "/catalogs", null, "Authorization", auth).statusCode())
        .isEqualTo(200);
    assertThat(gw.send("GET", iceberg, null, "Authorization", auth).statusCode()).isEqualTo(200);

    assertThat(gw.send("DELETE", path, null).statusCode()).isEqualTo(204);

    assertProblem(gw.send("GET", path + "/catalogs", null, "Authorization", auth), 401,
        "UNAUTHENTICATED");
    assertThat(gw.send("GET", iceberg, null, "Authorization", auth).statusCode()).isEqualTo(401);
    assertThat(gw.send("GET", "/iceberg/v1/config", null, "Authorization", auth).statusCode())
        .isEqualTo(401);
    // The bootstrap token (a server admin of another account) is unaffected.
    assertThat(gw.send("GET", base() + "/catalogs", null).statusCode()).isEqualTo(200);
  }

  @Test
  void fencedAccountsTokensAreRefused() {
    String fenced = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"fenced\"}"))
        .get("id").asText();
    String token = json(gw.send("POST", "/admin/v1/accounts/" + fenced + "/tokens",
        "{\"name\":\"t\",\"role\":\"reader\"}")).get("token").asText();
    // A deleter that died after installing the fence: the record stays, the fence too.
    io.icegate.core.model.ResourceRef ref = io.icegate.core.model.ResourceRef.account(fenced);
    gw.gateway().store().run(tx -> {
      new io.icegate.core.durability.DeletionFences().install(tx,
          new io.icegate.core.durability.Fence(ref, "op", java.time.Instant.now(), null));
      return null;
    });
    assertProblem(gw.send("GET", "/admin/v1/accounts/" + fenced, null, "Authorization",
        "Bearer " + token), 401, "UNAUTHENTICATED");
  }

  @Test
  void accountDeletionRemovesIntegrationsAndTheirCredentials() {
    String doomed = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"doomed\"}"))
        .get("id").asText();
    String path = "/admin/v1/accounts/" + doomed;
    String integ = json(gw.send("POST", path + "/integrations", integration("d"))).get("id")
        .asText();
    String etag = gw.send("GET", path + "/integrations/" + integ, null).headers()
        .firstValue("ETag").orElseThrow();
    gw.send("PUT", path + "/integrations/" + integ + "/authentication",
        "{\"type\":\"bearer\",\"token\":\"t2\"}", "If-Match", etag);
    String catalog = json(gw.send("POST", path + "/catalogs",
        "{\"name\":\"c\",\"warehouse\":\"s3://b/c\",\"storage\":{\"s3\":"
            + "{\"accessKeyId\":\"AK\",\"secretAccessKey\":\"sk\"}}}")).get("id").asText();
    assertThat(credentialKeys(integ)).isPositive();
    assertThat(credentialKeys(catalog)).isPositive();
    HttpResponse<String> deleted = gw.send("DELETE", path, null);
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
    assertThat(credentialKeys(integ)).isZero();
    assertThat(credentialKeys(catalog)).isZero();
    com.apple.foundationdb.Range notes =
        io.icegate.core.store.KeyLayout.credentialCandidates(doomed).range();
    int notesLeft = gw.gateway().store().read(tx -> tx.getRange(notes.begin, notes.end)).size();
    assertThat(notesLeft).isZero();
    assertProblem(gw.send("GET", path + "/integrations/" + integ, null), 404, "NOT_FOUND");
  }

  private static int credentialKeys(String owner) {
    com.apple.foundationdb.Range range =
        io.icegate.core.store.KeyLayout.credentials(owner).range();
    return gw.gateway().store().read(tx -> tx.getRange(range.begin, range.end)).size();
  }

  @Test
  void deleteTakesAnOptionalIfMatchAndRefusesAStaleOne() {
    JsonNode created = json(gw.send("POST", base() + "/integrations", integration("del")));
    String path = base() + "/integrations/" + created.get("id").asText();
    String stale = "\"" + created.get("id").asText() + "/99\"";
    assertProblem(gw.send("DELETE", path, null, "If-Match", stale), 412, "GENERATION_MISMATCH");
    assertThat(gw.send("DELETE", path, null).statusCode()).isEqualTo(204);
    assertProblem(gw.send("DELETE", path, null), 404, "NOT_FOUND");
  }

  @Test
  void listsPageWithPageTokens() {
    for (int i = 0; i < 3; i++) {
      gw.send("POST", base() + "/catalogs", "{\"name\":\"page-" + i
          + "\",\"warehouse\":\"file:/tmp/p\"}");
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    String token = null;
    do {
      JsonNode page = json(gw.send("GET", base() + "/catalogs?pageSize=2"
          + (token == null ? "" : "&pageToken=" + token), null));
      assertThat(page.get("items").size()).isLessThanOrEqualTo(2);
      page.get("items").forEach(item -> names.add(item.get("name").asText()));
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
    } while (token != null);
    assertThat(names).contains("page-0", "page-1", "page-2").doesNotHaveDuplicates();
    assertProblem(gw.send("GET", base() + "/catalogs?pageToken=forged", null), 400,
        "INVALID_PAGE_TOKEN");
    assertProblem(gw.send("GET", base() + "/catalogs?pageSize=0", null), 400,
        "INVALID_ARGUMENT");
  }

  @Test
  void tokenRolesAreAClosedSetAndTheSecretIsShownOnce() {
    assertProblem(gw.send("POST", base() + "/tokens", "{\"name\":\"t\",\"role\":\"root\"}"),
        400, "MALFORMED_REQUEST");
    HttpResponse<String> issued = gw.send("POST", base() + "/tokens",
        "{\"name\":\"t\",\"role\":\"writer\"}");
    assertThat(issued.statusCode()).isEqualTo(201);
    String token = json(issued).get("token").asText();
    assertThat(gw.send("GET", base(), null, "Authorization", "Bearer " + token).statusCode())
        .isEqualTo(200);
    // writers act on /iceberg but not on the admin surface's mutations
    assertProblem(gw.send("POST", base() + "/integrations", integration("w"), "Authorization",
        "Bearer " + token), 403, "PERMISSION_DENIED");
  }

  @Test
  void aDeletedCatalogIsFencedForClientsHoldingItsPrefix() {
    String id = json(gw.send("POST", base() + "/catalogs",
        "{\"name\":\"fenced\",\"warehouse\":\"file:/tmp/fenced\"}")).get("id").asText();
    assertThat(gw.send("DELETE", base() + "/catalogs/" + id, null).statusCode()).isEqualTo(204);
    String token = json(gw.send("POST", base() + "/tokens",
        "{\"name\":\"f\",\"role\":\"writer\"}")).get("token").asText();
    HttpResponse<String> ns = gw.send("POST", "/iceberg/v1/" + id + "/namespaces",
        "{\"namespace\":[\"n\"]}", "Authorization", "Bearer " + token);
    assertThat(ns.statusCode()).as(ns.body()).isIn(404, 409);
  }

  /**
   * 409 while the first request with a key is still running: a create through core's
   * IdempotentCreates on the gateway's store holds the reservation (blocked in its preparation
   * step, where a credentialed create stores its secret) while the same request arrives over HTTP.
   */
  @Test
  void aKeyWhoseFirstRequestIsStillRunningIs409() throws Exception {
    io.icegate.core.repo.Repositories repos =
        io.icegate.overlay.store.OverlayStore.repositories(gw.gateway().store(),
            java.time.Clock.systemUTC());
    io.icegate.core.durability.IdempotentCreates creates =
        new io.icegate.core.durability.IdempotentCreates(repos, java.time.Clock.systemUTC(),
            io.icegate.core.durability.IdempotencySettings.DEFAULT);
    io.icegate.core.model.Integration spec = new io.icegate.core.model.Integration("running",
        io.icegate.admin.model.IntegrationType.ICEBERG_REST, "https://catalog.example.com/v1",
        java.util.Map.of("warehouse", "w"), new io.icegate.admin.model.IntegrationAuthentication
            .Bearer(), 0);
    String fingerprint = io.icegate.core.durability.RequestFingerprint.of(java.util.Map.of(
        "request", spec, "onConflict", io.icegate.core.repo.OnConflict.ERROR,
        "withCredentials", true));
    java.util.concurrent.CountDownLatch reserved = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    Thread first = new Thread(() -> creates.create(repos.integrations(account), "running-key",
        fingerprint, spec, io.icegate.core.repo.OnConflict.ERROR,
        new io.icegate.core.durability.IdempotentCreates.Preparation<>() {
          @Override
          public io.icegate.core.model.Integration prepare(String id,
              io.icegate.core.model.Integration s) {
            reserved.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return s;
          }

          @Override
          public void published(io.icegate.core.store.Transaction tx,
              io.icegate.core.model.Resource<io.icegate.core.model.Integration> r) {}
        }));
    first.start();
    assertThat(reserved.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    try {
      HttpResponse<String> running = gw.send("POST", base() + "/integrations",
          integration("running"), "Idempotency-Key", "running-key");
      assertProblem(running, 409, "IDEMPOTENCY_IN_PROGRESS");
      assertThat(running.headers().firstValue("Retry-After")).contains("1");
    } finally {
      release.countDown();
      first.join(10_000);
    }
  }

  @Test
  void aLargeFormEncodedBodyIsAProblemNotA500() {
    // What `curl -d @file` sends; Jetty used to throw on form bodies above 200,000 bytes.
    assertProblem(gw.send("POST", "/admin/v1/accounts", "x".repeat(300_000),
        "Content-Type", "application/x-www-form-urlencoded"), 400, "MALFORMED_REQUEST");
  }

  @Test
  void aJsonNullBodyIsAProblemNotA500() {
    // Jackson reads the literal null as a null object; every create used to fail on it with a 500.
    assertProblem(gw.send("POST", "/admin/v1/accounts", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/catalogs", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/integrations", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/overlays", " null "), 400, "MALFORMED_REQUEST");
  }

  @Test
  void aBadPercentEscapeInTheQueryIsAProblemNotA500() throws Exception {
    // java.net.URI refuses a bad percent escape, so this one goes over a raw socket.
    java.net.URI uri = java.net.URI.create(gw.baseUri());
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      socket.getOutputStream().write(("GET " + base() + "/catalogs?pageSize=%ZZ HTTP/1.1\r\n"
          + "Host: localhost\r\nAuthorization: Bearer " + GatewayFixture.TOKEN
          + "\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      String raw = new String(socket.getInputStream().readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
      assertThat(raw).startsWith("HTTP/1.1 400");
      assertThat(raw).contains("application/problem+json", "\"code\":\"MALFORMED_REQUEST\"");
    }
  }

  @Test
  void listsUnderAnAccountThatDoesNotExistAre404() {
    String missing = "/admin/v1/accounts/00000000-0000-0000-0000-00000000dead";
    assertProblem(gw.send("GET", missing, null), 404, "NOT_FOUND");
    assertProblem(gw.send("GET", missing + "/catalogs", null), 404, "NOT_FOUND");
    assertProblem(gw.send("GET", missing + "/integrations", null), 404, "NOT_FOUND");
  }
}
