package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.auth.ApiTokens;
import io.icegate.gateway.auth.CachingAuthenticator;
import io.icegate.gateway.server.StoreLocation;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 31: token listing, revocation, expiry and server-admin rotation over real HTTP. */
class TokenLifecycleTest {
  private GatewayFixture gw;
  private String account;
  private String catalog;

  @BeforeEach
  void start() {
    gw = GatewayFixture.start();
    account = json(gw.send("POST", "/admin/v1/accounts", "{\"name\":\"acme\"}")).get("id").asText();
    catalog = json(gw.send("POST", tokens().replace("/tokens", "/catalogs"),
        "{\"name\":\"sales\",\"warehouse\":\"file:/tmp/sales\"}")).get("id").asText();
  }

  @AfterEach
  void stop() {
    gw.close();
  }

  private String tokens() {
    return "/admin/v1/accounts/" + account + "/tokens";
  }

  private static void assertProblem(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(json(r).get("code").asText()).as(r.body()).isEqualTo(code);
  }

  private JsonNode issue(GatewayFixture on, String body) {
    HttpResponse<String> r = on.send("POST", tokens(), body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return json(r);
  }

  private static String bearer(JsonNode issued) {
    return "Bearer " + issued.get("token").asText();
  }

  private int adminStatus(GatewayFixture on, String bearer) {
    return on.send("GET", "/admin/v1/accounts/" + account, null, "Authorization", bearer)
        .statusCode();
  }

  private HttpResponse<String> iceberg(GatewayFixture on, String bearer) {
    return on.send("GET", "/iceberg/v1/" + catalog + "/namespaces", null,
        "Authorization", bearer);
  }

  @Test
  void listingPagesThroughTheAccountsTokensAndNeverShowsASecret() {
    List<String> secrets = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      secrets.add(issue(gw, "{\"name\":\"t" + i + "\",\"role\":\"reader\"}").get("token").asText());
    }
    Set<String> names = new HashSet<>();
    String next = null;
    int pages = 0;
    do {
      HttpResponse<String> page = gw.send("GET", tokens() + "?pageSize=2"
          + (next == null ? "" : "&pageToken=" + next), null);
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      for (String secret : secrets) {
        assertThat(page.body()).doesNotContain(secret).doesNotContain(ApiTokens.digest(secret));
      }
      for (JsonNode item : json(page).get("items")) {
        names.add(item.get("name").asText());
        assertThat(item.get("role").asText()).isEqualTo("reader");
        assertThat(item.get("id").asText()).hasSize(24);
        assertThat(Instant.parse(item.get("createdAt").asText())).isBefore(Instant.now().plusSeconds(1));
        assertThat(item.has("token")).isFalse();
      }
      next = json(page).get("nextPageToken").isNull() ? null : json(page).get("nextPageToken").asText();
      pages++;
    } while (next != null);
    assertThat(names).containsExactlyInAnyOrder("t0", "t1", "t2");
    assertThat(pages).isEqualTo(2);
    assertProblem(gw.send("GET", tokens() + "?pageToken=not-an-id", null), 400,
        "INVALID_PAGE_TOKEN");
  }

  @Test
  void lastUsedIsRecordedAtMostHourly() {
    JsonNode issued = issue(gw, "{\"name\":\"user\",\"role\":\"reader\"}");
    assertThat(json(gw.send("GET", tokens(), null)).get("items").get(0).get("lastUsedAt").isNull())
        .isTrue();
    Instant before = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    assertThat(iceberg(gw, bearer(issued)).statusCode()).isEqualTo(200);
    JsonNode listed = json(gw.send("GET", tokens(), null)).get("items").get(0);
    Instant lastUsed = Instant.parse(listed.get("lastUsedAt").asText());
    assertThat(lastUsed).isBetween(before, Instant.now());
    // a later use within the hour does not write again
    long writes = gw.gateway().store().stats().committedWrites();
    assertThat(adminStatus(gw, bearer(issued))).isEqualTo(200);
    assertThat(gw.gateway().store().stats().committedWrites()).isEqualTo(writes);
    assertThat(json(gw.send("GET", tokens(), null)).get("items").get(0).get("lastUsedAt").asText())
        .isEqualTo(lastUsed.toString());
  }

  @Test
  void aRevokedTokenIsRefusedOnTheAdminAndIcebergRoutes() throws Exception {
    JsonNode issued = issue(gw, "{\"name\":\"leaked\",\"role\":\"admin\"}");
    String leaked = bearer(issued);
    assertThat(adminStatus(gw, leaked)).isEqualTo(200);
    assertThat(iceberg(gw, leaked).statusCode()).isEqualTo(200);
    HttpResponse<String> revoked =
        gw.send("DELETE", tokens() + "/" + issued.get("id").asText(), null);
    assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(204);
    assertThat(adminStatus(gw, leaked)).isEqualTo(401);
    long refusedAfter = untilRefused(gw, leaked);
    assertThat(refusedAfter).isLessThanOrEqualTo(boundMillis());
    assertThat(json(gw.send("GET", tokens(), null)).get("items")).isEmpty();
    assertProblem(gw.send("DELETE", tokens() + "/" + issued.get("id").asText(), null), 404,
        "NOT_FOUND");
  }

  @Test
  void aRevocationOnOneGatewayIsHonouredByAnotherOverTheSameStoreWithinTheBound()
      throws Exception {
    Path otherDir = Files.createTempDirectory("icegate-gw2");
    // the same master key: a gateway with its own key is refused on a shared store
    Files.copy(gw.dataDir().resolve(io.icegate.core.credential.MasterKey.GENERATED_FILE),
        otherDir.resolve(io.icegate.core.credential.MasterKey.GENERATED_FILE));
    String file = "sqlite:" + gw.dataDir().resolve("icegate.db");
    try (GatewayFixture other = GatewayFixture.reopen(otherDir, StoreLocation.open(file, otherDir))) {
      JsonNode issued = issue(gw, "{\"name\":\"shared\",\"role\":\"reader\"}");
      String token = bearer(issued);
      // the other gateway caches the answer now
      assertThat(iceberg(other, token).statusCode()).isEqualTo(200);
      assertThat(adminStatus(other, token)).isEqualTo(200);
      assertThat(gw.send("DELETE", tokens() + "/" + issued.get("id").asText(), null).statusCode())
          .isEqualTo(204);
      assertThat(adminStatus(other, token)).isEqualTo(401);
      assertThat(untilRefused(other, token)).isLessThanOrEqualTo(boundMillis());
    }
  }

  /**
   * Tryout: a token's name with control characters was issued (201); the name is written into the
   * audit line, where a line break forges an entry. Names follow the rules of every other name.
   */
  @Test
  void aTokenNameWithControlCharactersIsRefused() {
    for (String name : new String[] {"a\\u0000b", "line\\nforged: token issued", "x".repeat(256)}) {
      assertProblem(gw.send("POST", tokens(), "{\"name\":\"" + name + "\",\"role\":\"reader\"}"),
          400, "INVALID_ARGUMENT");
    }
    assertThat(json(gw.send("GET", tokens(), null)).get("items").findValuesAsText("name"))
        .noneMatch(n -> n.contains("forged") || n.contains("\u0000"));
  }

  @Test
  void anExpiredTokenIsRefusedWithAClearProblem() throws Exception {
    assertProblem(gw.send("POST", tokens(),
        "{\"name\":\"past\",\"role\":\"reader\",\"expiresAt\":\"2020-01-01T00:00:00Z\"}"), 400,
        "INVALID_ARGUMENT");
    assertProblem(gw.send("POST", tokens(),
        "{\"name\":\"bad\",\"role\":\"reader\",\"expiresAt\":\"tomorrow\"}"), 400,
        "MALFORMED_REQUEST");
    Instant expiresAt = Instant.now().plusSeconds(2);
    JsonNode issued = issue(gw,
        "{\"name\":\"short\",\"role\":\"reader\",\"expiresAt\":\"" + expiresAt + "\"}");
    assertThat(issued.get("expiresAt").asText()).isEqualTo(expiresAt.toString());
    String token = bearer(issued);
    assertThat(iceberg(gw, token).statusCode()).isEqualTo(200);
    assertThat(adminStatus(gw, token)).isEqualTo(200);
    Thread.sleep(Math.max(0, expiresAt.toEpochMilli() - System.currentTimeMillis()) + 50);
    HttpResponse<String> admin = gw.send("GET", "/admin/v1/accounts/" + account, null,
        "Authorization", token);
    assertProblem(admin, 401, "TOKEN_EXPIRED");
    assertThat(json(admin).get("detail").asText()).contains("expired at " + expiresAt);
    // the Iceberg answer was cached a moment ago: expiry is checked on cached answers too
    HttpResponse<String> ice = iceberg(gw, token);
    assertThat(ice.statusCode()).isEqualTo(401);
    assertThat(ice.body()).contains("expired at");
    assertThat(json(gw.send("GET", tokens(), null)).get("items").get(0).get("expiresAt").asText())
        .isEqualTo(expiresAt.toString());
  }

  @Test
  void theBootstrapTokenCanBeRetiredButNeverTheLastServerAdminToken() {
    String bootstrap = "Bearer " + GatewayFixture.TOKEN;
    String home = null;
    for (JsonNode item : json(gw.send("GET", "/admin/v1/accounts", null)).get("items")) {
      if (item.get("name").asText().equals("default")) {
        home = item.get("id").asText();
      }
    }
    String homeTokens = "/admin/v1/accounts/" + home + "/tokens";
    // an account admin may not mint server admins
    String acmeAdmin = bearer(issue(gw, "{\"name\":\"acme-admin\",\"role\":\"admin\"}"));
    assertProblem(gw.send("POST", tokens(), "{\"name\":\"x\",\"serverAdmin\":true}",
        "Authorization", acmeAdmin), 403, "PERMISSION_DENIED");
    HttpResponse<String> minted = gw.send("POST", homeTokens,
        "{\"name\":\"ops\",\"serverAdmin\":true}");
    assertThat(minted.statusCode()).as(minted.body()).isEqualTo(201);
    assertThat(json(minted).get("serverAdmin").asBoolean()).isTrue();
    String ops = bearer(json(minted));
    JsonNode listed = json(gw.send("GET", homeTokens, null, "Authorization", ops));
    String bootstrapId = null;
    for (JsonNode item : listed.get("items")) {
      if (item.get("name").asText().equals("bootstrap")) {
        bootstrapId = item.get("id").asText();
      }
    }
    assertThat(bootstrapId).as(listed.toString()).isNotNull();
    HttpResponse<String> retired = gw.send("DELETE", homeTokens + "/" + bootstrapId, null,
        "Authorization", ops);
    assertThat(retired.statusCode()).as(retired.body()).isEqualTo(204);
    assertProblem(gw.send("GET", "/admin/v1/accounts", null), 401, "UNAUTHENTICATED");
    assertThat(gw.send("GET", "/admin/v1/accounts", null, "Authorization", ops).statusCode())
        .isEqualTo(200);
    String opsId = json(minted).get("id").asText();
    HttpResponse<String> last = gw.send("DELETE", homeTokens + "/" + opsId, null,
        "Authorization", ops);
    assertProblem(last, 409, "LAST_SERVER_ADMIN_TOKEN");
    assertThat(json(last).get("detail").asText()).contains("last server-admin token");
    assertThat(bootstrap).isNotEqualTo(ops);
  }

  @Test
  void theServerMaximumLifetimeBoundsEveryIssuedToken() {
    try (GatewayFixture limited =
        GatewayFixture.startWith(s -> s.withMaxTokenLifetime(java.time.Duration.ofHours(1)))) {
      String home = json(limited.send("GET", "/admin/v1/accounts", null)).get("items").get(0)
          .get("id").asText();
      String path = "/admin/v1/accounts/" + home + "/tokens";
      Instant before = Instant.now();
      HttpResponse<String> defaulted =
          limited.send("POST", path, "{\"name\":\"d\",\"role\":\"reader\"}");
      assertThat(defaulted.statusCode()).as(defaulted.body()).isEqualTo(201);
      assertThat(Instant.parse(json(defaulted).get("expiresAt").asText()))
          .isBetween(before.plusSeconds(3600), Instant.now().plusSeconds(3600));
      assertProblem(limited.send("POST", path, "{\"name\":\"long\",\"role\":\"reader\","
          + "\"expiresAt\":\"" + Instant.now().plusSeconds(7200) + "\"}"), 400,
          "INVALID_ARGUMENT");
      HttpResponse<String> shorter = limited.send("POST", path, "{\"name\":\"s\","
          + "\"role\":\"reader\",\"expiresAt\":\"" + Instant.now().plusSeconds(60) + "\"}");
      assertThat(shorter.statusCode()).as(shorter.body()).isEqualTo(201);
    }
  }

  private static long boundMillis() {
    return CachingAuthenticator.REVOCATION_BOUND.toMillis() + 500;
  }

  /** Milliseconds until the Iceberg routes of {@code on} refuse {@code bearer} (401). */
  private long untilRefused(GatewayFixture on, String bearer) throws InterruptedException {
    long start = System.nanoTime();
    while (iceberg(on, bearer).statusCode() != 401) {
      if (System.nanoTime() - start > 10_000_000_000L) {
        throw new AssertionError("still accepted after 10 s");
      }
      Thread.sleep(50);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void theTokenRouteSaysWhoTheCallerIsForEveryRoleAndNeverTheSecret() {
    JsonNode reader = issue(gw, "{\"name\":\"dash\",\"role\":\"reader\"}");
    HttpResponse<String> r = gw.send("GET", "/admin/v1/token", null, "Authorization", bearer(reader));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    JsonNode who = json(r);
    assertThat(who.get("accountId").asText()).isEqualTo(account);
    assertThat(who.get("accountName").asText()).isEqualTo("acme");
    assertThat(who.get("role").asText()).isEqualTo("reader");
    assertThat(who.get("serverAdmin").asBoolean()).isFalse();
    assertThat(who.get("name").asText()).isEqualTo("dash");
    assertThat(r.body()).doesNotContain(reader.get("token").asText());

    JsonNode boot = json(gw.send("GET", "/admin/v1/token", null));
    assertThat(boot.get("serverAdmin").asBoolean()).isTrue();
    assertThat(boot.get("role").asText()).isEqualTo("admin");
    assertThat(boot.get("accountName").asText()).isEqualTo("default");

    assertProblem(gw.send("GET", "/admin/v1/token", null, "Authorization", "Bearer igt_nope"),
        401, "UNAUTHENTICATED");
    assertProblem(gw.send("GET", "/admin/v1/token", null, "Authorization", ""), 401,
        "UNAUTHENTICATED");
  }
}
