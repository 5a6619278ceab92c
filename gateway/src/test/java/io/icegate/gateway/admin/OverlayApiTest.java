package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.created;
import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.gateway.testing.GatewayFixture;
import io.icegate.overlay.store.testing.ContributionInvariants;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CatalogOverlay rules over real HTTP (seed 000 "Catalog overlay", "Lifecycle and garbage
 * collection"): one test per rule, each in its own account, then the store invariants.
 */
class OverlayApiTest {
  private static GatewayFixture gw;
  private static int accounts;

  @BeforeAll
  static void start() throws Exception {
    gw = GatewayFixture.start();
  }

  @AfterAll
  static void stop() {
    ContributionInvariants.checker(gw.gateway().store()).assertClean();
    gw.close();
  }

  /** A fresh account with one catalog and one integration. */
  private record World(String base, String catalog, String integration) {}

  private static World world() {
    String account = json(gw.send("POST", "/admin/v1/accounts",
        "{\"name\":\"ov" + (accounts++) + "\"}")).get("id").asText();
    String base = "/admin/v1/accounts/" + account;
    // one warehouse per account: warehouses of different accounts may not overlap
    String catalog = created(gw.send("POST", base + "/catalogs",
        "{\"name\":\"target\",\"warehouse\":\"file:/tmp/ov/" + account + "\"}"))
        .get("id").asText();
    return new World(base, catalog, integration(base, "upstream"));
  }

  private static String integration(String base, String name) {
    return created(gw.send("POST", base + "/integrations", "{\"displayName\":\"" + name
        + "\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://catalog.example.com/v1\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"tok\"}}")).get("id").asText();
  }

  private static String overlayBody(String name, String integration, String catalog,
      String include) {
    return "{\"displayName\":\"" + name + "\",\"integrationId\":\"" + integration
        + "\",\"catalogId\":\"" + catalog + "\",\"includeNamespaces\":" + include + "}";
  }

  private static JsonNode createOverlay(World w, String name) {
    return created(gw.send("POST", w.base() + "/overlays",
        overlayBody(name, w.integration(), w.catalog(), "[[\"sales\"]]")));
  }

  private static JsonNode assertProblem(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(json(r).get("code").asText()).as(r.body()).isEqualTo(code);
    return json(r);
  }

  private static String etag(String path) {
    return gw.send("GET", path, null).headers().firstValue("ETag").orElseThrow();
  }

  @Test
  void createGetListWithEtagAndNormalizedSelection() {
    World w = world();
    HttpResponse<String> r = gw.send("POST", w.base() + "/overlays", overlayBody("crm",
        w.integration(), w.catalog(), "[[\"b\"],[\"a.b\"],[\"a\",\"b\"],[\"b\"],[\"B\"]]"));
    JsonNode body = created(r);
    assertThat(r.headers().firstValue("ETag")).isPresent();
    assertThat(body.get("includeNamespaces").toString())
        .isEqualTo("[[\"B\"],[\"a\",\"b\"],[\"a.b\"],[\"b\"]]");
    assertThat(body.get("excludeNamespaces")).isEmpty();
    String path = w.base() + "/overlays/" + body.get("id").asText();
    assertThat(json(gw.send("GET", path, null)).get("catalogId").asText()).isEqualTo(w.catalog());
    assertThat(json(gw.send("GET", w.base() + "/overlays", null)).get("items")).hasSize(1);
  }

  @Test
  void emptySegmentsAndMissingMembersAreRefused() {
    World w = world();
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("x", w.integration(), w.catalog(), "[[\"a\",\"\"]]")), 400,
        "INVALID_ARGUMENT");
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("x", w.integration(), w.catalog(), "[[]]")), 400, "INVALID_ARGUMENT");
    assertProblem(gw.send("POST", w.base() + "/overlays", "{\"displayName\":\"x\"}"), 400,
        "MALFORMED_REQUEST");
  }

  @Test
  void bindingsMustExistInTheSameAccount() {
    World w = world();
    World other = world();
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("x", other.integration(), w.catalog(), "[]")), 404, "NOT_FOUND");
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("x", w.integration(), other.catalog(), "[]")), 404, "NOT_FOUND");
  }

  @Test
  void namesAreUniqueAmongOverlaysButReserveNoCatalogName() {
    World w = world();
    createOverlay(w, "target"); // the catalog is also called "target"
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("target", w.integration(), w.catalog(), "[]")), 409, "ALREADY_EXISTS");
  }

  @Test
  void bindingsAreImmutableAndOnlySelectionAdvancesConfiguration() {
    World w = world();
    String path = w.base() + "/overlays/" + createOverlay(w, "o").get("id").asText();
    String other = integration(w.base(), "second");
    assertProblem(gw.send("PATCH", path, "{\"integrationId\":\"" + other + "\"}", "If-Match",
        etag(path)), 400, "IMMUTABLE_MEMBER");
    assertProblem(gw.send("PATCH", path, "{\"catalogId\":\"nope\"}", "If-Match", etag(path)),
        400, "IMMUTABLE_MEMBER");
    assertProblem(gw.send("PATCH", path, "{\"displayName\":\"o2\"}"), 428,
        "PRECONDITION_REQUIRED");
    JsonNode renamed = json(gw.send("PATCH", path, "{\"displayName\":\"o2\"}", "If-Match",
        etag(path)));
    assertThat(renamed.get("configurationGeneration").asLong()).isEqualTo(1);
    assertThat(renamed.get("generation").asLong()).isEqualTo(2);
    JsonNode reselected = json(gw.send("PATCH", path,
        "{\"excludeNamespaces\":[[\"sales\",\"tmp\"]]}", "If-Match", etag(path)));
    assertThat(reselected.get("configurationGeneration").asLong()).isEqualTo(2);
    assertThat(reselected.get("displayName").asText()).isEqualTo("o2");
  }

  @Test
  void renamingIntegrationOrCatalogKeepsTheBinding() {
    World w = world();
    String path = w.base() + "/overlays/" + createOverlay(w, "o").get("id").asText();
    String catalogPath = w.base() + "/catalogs/" + w.catalog();
    assertThat(gw.send("PATCH", catalogPath, "{\"name\":\"renamed\"}", "If-Match",
        etag(catalogPath)).statusCode()).isEqualTo(200);
    String integrationPath = w.base() + "/integrations/" + w.integration();
    assertThat(gw.send("PATCH", integrationPath, "{\"displayName\":\"renamed\"}", "If-Match",
        etag(integrationPath)).statusCode()).isEqualTo(200);
    JsonNode overlay = json(gw.send("GET", path, null));
    assertThat(overlay.get("catalogId").asText()).isEqualTo(w.catalog());
    assertThat(overlay.get("displayName").asText()).isEqualTo("o");
  }

  @Test
  void idempotencyKeyReplaysAndOnConflictModes() {
    World w = world();
    String body = overlayBody("idem", w.integration(), w.catalog(), "[[\"a\"]]");
    JsonNode first = created(gw.send("POST", w.base() + "/overlays", body,
        "Idempotency-Key", "ov-1"));
    HttpResponse<String> replay = gw.send("POST", w.base() + "/overlays", body,
        "Idempotency-Key", "ov-1");
    assertThat(replay.statusCode()).isEqualTo(201);
    assertThat(replay.headers().firstValue("Idempotency-Replayed")).contains("true");
    assertThat(json(replay).get("id")).isEqualTo(first.get("id"));
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("idem", w.integration(), w.catalog(), "[[\"b\"]]"), "Idempotency-Key",
        "ov-1"), 422, "IDEMPOTENCY_KEY_REUSED");
    assertProblem(gw.send("POST", w.base() + "/overlays?onConflict=replace", body,
        "Idempotency-Key", "ov-2"), 400, "INVALID_ARGUMENT");
    HttpResponse<String> existing = gw.send("POST",
        w.base() + "/overlays?onConflict=return-existing", body);
    assertThat(existing.statusCode()).isEqualTo(200);
    assertThat(json(existing).get("id")).isEqualTo(first.get("id"));
  }

  @Test
  void replaceGivesANewIdentityAndMayRebind() {
    World w = world();
    JsonNode first = createOverlay(w, "r");
    String second = integration(w.base(), "second");
    JsonNode replaced = created(gw.send("POST", w.base() + "/overlays?onConflict=replace",
        overlayBody("r", second, w.catalog(), "[]")));
    assertThat(replaced.get("id")).isNotEqualTo(first.get("id"));
    assertThat(replaced.get("integrationId").asText()).isEqualTo(second);
    assertProblem(gw.send("GET", w.base() + "/overlays/" + first.get("id").asText(), null), 404,
        "NOT_FOUND");
    // the first integration lost its dependent: a plain delete is allowed now
    assertThat(gw.send("DELETE", w.base() + "/integrations/" + w.integration(), null)
        .statusCode()).isEqualTo(204);
  }

  @Test
  void integrationDeleteIsRefusedWhileOverlaysExistAndNamesThem() {
    World w = world();
    String overlay = createOverlay(w, "o").get("id").asText();
    JsonNode problem = assertProblem(
        gw.send("DELETE", w.base() + "/integrations/" + w.integration(), null), 409,
        "DEPENDENCY_EXISTS");
    assertThat(problem.get("detail").asText())
        .isEqualTo("integration 'upstream' is the source of overlay(s) 'o'; delete them first,"
            + " or delete the integration with cascade=true");
    assertThat(problem.toString()).contains("overlay 'o' (id " + overlay + ")")
        .doesNotContain("tok");
  }

  @Test
  void integrationReplaceIsRefusedWhileOverlaysDependOnIt() {
    World w = world();
    createOverlay(w, "o");
    assertProblem(gw.send("POST", w.base() + "/integrations?onConflict=replace",
        "{\"displayName\":\"upstream\",\"type\":\"UNITY\",\"uri\":\"https://u.example.com\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}"), 409,
        "DEPENDENCY_EXISTS");
  }

  @Test
  void catalogDeleteIsRefusedWhileAnOverlayReferencesItAndNamesIt() {
    World w = world();
    String overlay = createOverlay(w, "o").get("id").asText();
    JsonNode problem = assertProblem(
        gw.send("DELETE", w.base() + "/catalogs/" + w.catalog(), null), 409, "DEPENDENCY_EXISTS");
    assertThat(problem.get("detail").asText()).startsWith(
        "catalog 'target' is the target of overlay(s) 'o'; delete the overlays");
    assertThat(problem.toString()).contains("overlay 'o' (id " + overlay + ")");
    assertThat(gw.send("DELETE", w.base() + "/overlays/" + overlay, null).statusCode())
        .isEqualTo(204);
    assertThat(gw.send("DELETE", w.base() + "/catalogs/" + w.catalog(), null).statusCode())
        .isEqualTo(204);
  }

  /**
   * tryout: names were put between quotes raw, so a name holding a quote read as two names (and a
   * right-to-left override reordered the text); they are escaped.
   */
  @Test
  void aRefusalQuotesNamesHoldingQuotesOrInvisibleCharactersEscaped() {
    World w = world();
    String overlay = createOverlay(w, "o', 'forged\\\\\\u202E").get("id").asText();
    JsonNode problem = assertProblem(
        gw.send("DELETE", w.base() + "/catalogs/" + w.catalog(), null), 409, "DEPENDENCY_EXISTS");
    assertThat(problem.get("detail").asText()).startsWith(
        "catalog 'target' is the target of overlay(s) 'o\\', \\'forged\\\\\\u202E'; ");
    assertThat(problem.toString()).doesNotContain("\u202E");
    assertThat(problem.get("details").get(0).asText())
        .isEqualTo("overlay 'o\\', \\'forged\\\\\\u202E' (id " + overlay + ")");
  }

  @Test
  void aRefusedCatalogDeleteNamesAFewOverlaysAndCountsTheRest() {
    World w = world();
    for (int i = 1; i <= 7; i++) {
      createOverlay(w, "ov-" + i);
    }
    JsonNode problem = assertProblem(
        gw.send("DELETE", w.base() + "/catalogs/" + w.catalog(), null), 409, "DEPENDENCY_EXISTS");
    assertThat(problem.get("detail").asText()).startsWith("catalog 'target' is the target of"
        + " overlay(s) 'ov-1', 'ov-2', 'ov-3', 'ov-4', 'ov-5' and 2 more; ");
    assertThat(problem.get("details")).hasSize(5);
  }

  @Test
  void overlayDeleteRemovesTheDependenciesAndKeepsTheCatalog() {
    World w = world();
    String path = w.base() + "/overlays/" + createOverlay(w, "o").get("id").asText();
    assertProblem(gw.send("DELETE", path, null, "If-Match", "\"x/9\""), 412,
        "PRECONDITION_FAILED");
    assertThat(gw.send("DELETE", path, null, "If-Match", etag(path)).statusCode())
        .isEqualTo(204);
    assertProblem(gw.send("GET", path, null), 404, "NOT_FOUND");
    assertThat(gw.send("GET", w.base() + "/catalogs/" + w.catalog(), null).statusCode())
        .isEqualTo(200);
    assertThat(gw.send("DELETE", w.base() + "/integrations/" + w.integration(), null)
        .statusCode()).isEqualTo(204);
  }

  @Test
  void cascadeDeletesOverlaysIntegrationAndCredentialsButNotTheCatalog() {
    World w = world();
    String a = createOverlay(w, "a").get("id").asText();
    String b = createOverlay(w, "b").get("id").asText();
    String unrelated = integration(w.base(), "unrelated");
    String keep = created(gw.send("POST", w.base() + "/overlays",
        overlayBody("keep", unrelated, w.catalog(), "[]"))).get("id").asText();
    assertProblem(gw.send("DELETE", w.base() + "/integrations/" + w.integration()
        + "?cascade=maybe", null), 400, "INVALID_ARGUMENT");
    assertThat(gw.send("DELETE", w.base() + "/integrations/" + w.integration() + "?cascade=true",
        null).statusCode()).isEqualTo(204);
    for (String gone : new String[] {"/overlays/" + a, "/overlays/" + b,
        "/integrations/" + w.integration()}) {
      assertProblem(gw.send("GET", w.base() + gone, null), 404, "NOT_FOUND");
    }
    assertThat(gw.send("GET", w.base() + "/overlays/" + keep, null).statusCode()).isEqualTo(200);
    assertThat(gw.send("GET", w.base() + "/catalogs/" + w.catalog(), null).statusCode())
        .isEqualTo(200);
    // no credential generation left
    ContributionInvariants.checker(gw.gateway().store()).assertClean();
  }

  @Test
  void accountDeletionRemovesOverlays() {
    World w = world();
    createOverlay(w, "o");
    String account = w.base().substring(w.base().lastIndexOf('/') + 1);
    assertThat(gw.send("DELETE", w.base(), null).statusCode()).isEqualTo(204);
    assertThat(ContributionInvariants.checker(gw.gateway().store()).keysOfAccount(account))
        .isZero();
  }

  @Test
  void readersMayListButNotCreate() {
    World w = world();
    String token = json(gw.send("POST", w.base() + "/tokens",
        "{\"name\":\"r\",\"role\":\"reader\"}")).get("token").asText();
    assertThat(gw.send("GET", w.base() + "/overlays", null, "Authorization", "Bearer " + token).statusCode()).isEqualTo(200);
    assertProblem(gw.send("POST", w.base() + "/overlays",
        overlayBody("x", w.integration(), w.catalog(), "[]"), "Authorization", "Bearer " + token), 403, "PERMISSION_DENIED");
  }
}
