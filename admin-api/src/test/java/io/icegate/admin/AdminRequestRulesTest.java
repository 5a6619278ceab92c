package io.icegate.admin;

import static io.icegate.admin.AdminHttpMappingTest.assertProblem;
import static io.icegate.admin.testing.AdminServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.testing.AdminServer;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.durability.Fence;
import io.icegate.core.model.Account;
import io.icegate.core.model.ResourceRef;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Request rules found wrong by fresh-user tryouts, over real HTTP: page sizes beyond any number
 * type, creates into a deleted account, {@code If-Match} lists, and a duplicate member inside a
 * map; an Overlay's namespace lists given as JSON null.
 */
class AdminRequestRulesTest {
  private static AdminServer server;
  private static String base;

  @BeforeAll
  static void start() {
    server = AdminServer.start();
    String account = server.services.repositories().accounts().create(new Account("rules")).id();
    server.grant(AdminServer.ADMIN, account, TokenRole.ADMIN, true);
    base = "/admin/v1/accounts/" + account;
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** A catalog created for a test: its id, first ETag and admin path. */
  private record Created(String id, String etag, String path) {}

  private static Created createCatalog(String name) {
    HttpResponse<String> created = server.send("POST", base + "/catalogs",
        "{\"name\":\"" + name + "\",\"warehouse\":\"file:/tmp/" + name + "\"}");
    String id = json(created).get("id").asText();
    return new Created(id, created.headers().firstValue("ETag").orElseThrow(),
        base + "/catalogs/" + id);
  }

  @Test
  void aPageSizeBeyondEveryNumberRangeIsTheUsualBadRequestNamingIt() {
    for (String size : new String[] {"9223372036854775808", "99999999999999999999999",
        "-9223372036854775809", "2147483648", "1001"}) {
      JsonNode problem = assertProblem(
          server.send("GET", base + "/catalogs?pageSize=" + size, null), 400, "INVALID_ARGUMENT");
      assertThat(problem.get("detail").asText()).as(size).contains("pageSize")
          .doesNotContain("Exception");
    }
    assertThat(server.send("GET", base + "/catalogs?pageSize=1000", null).statusCode())
        .isEqualTo(200);
  }

  @Test
  void aCreateIntoAFinishedDeletedAccountIs404AndIntoOneBeingDeleted409() {
    String gone = json(server.send("POST", "/admin/v1/accounts", "{\"name\":\"gone\"}"))
        .get("id").asText();
    assertThat(server.send("DELETE", "/admin/v1/accounts/" + gone, null).statusCode())
        .isEqualTo(204);
    String catalog = "{\"name\":\"c\",\"warehouse\":\"file:/tmp/c\"}";
    JsonNode missing = assertProblem(
        server.send("POST", "/admin/v1/accounts/" + gone + "/catalogs", catalog), 404,
        "NOT_FOUND");
    assertThat(missing.get("detail").asText()).contains("account").contains(gone);
    assertProblem(server.send("POST", "/admin/v1/accounts/" + gone + "/integrations",
        "{\"displayName\":\"i\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://c.example.com\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}"), 404, "NOT_FOUND");
    assertProblem(server.send("POST", "/admin/v1/accounts/" + gone + "/catalogs", catalog,
        "Idempotency-Key", "after-delete"), 404, "NOT_FOUND");

    // A deletion that stopped between its fence and its record delete (its deleter died): the
    // account is being deleted, and a create into it is 409 FENCED until a retried delete ends.
    String going = json(server.send("POST", "/admin/v1/accounts", "{\"name\":\"going\"}"))
        .get("id").asText();
    server.services.store().run(tx -> {
      server.services.repositories().fences().install(tx,
          new Fence(ResourceRef.account(going), "died", Instant.now(), null));
      return null;
    });
    assertProblem(server.send("POST", "/admin/v1/accounts/" + going + "/catalogs", catalog), 409,
        "FENCED");
    assertThat(server.send("DELETE", "/admin/v1/accounts/" + going, null).statusCode())
        .isEqualTo(204);
    assertProblem(server.send("POST", "/admin/v1/accounts/" + going + "/catalogs", catalog), 404,
        "NOT_FOUND");
  }

  @Test
  void ifMatchWithAListSucceedsWhenAnyTagMatchesAndStarIsAccepted() {
    Created created = createCatalog("listed");
    String id = created.id();
    String etag = created.etag();
    String path = created.path();
    String stale = "\"" + id + "/99\"";
    String other = "\"someone-else/1\"";

    // no strong tag of this resource in the list
    assertProblem(server.send("PATCH", path, "{\"name\":\"l2\"}", "If-Match",
        other + ", W/" + etag), 412, "PRECONDITION_FAILED");
    // tags of this resource, none current
    assertProblem(server.send("PATCH", path, "{\"name\":\"l2\"}", "If-Match",
        stale + ", " + other + ", \"" + id + "/98\""), 412, "GENERATION_MISMATCH");
    HttpResponse<String> listed = server.send("PATCH", path, "{\"name\":\"l2\"}", "If-Match",
        stale + ", " + etag + ",W/" + etag);
    assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
    String next = listed.headers().firstValue("ETag").orElseThrow();
    assertProblem(server.send("PATCH", path, "{\"name\":\"l3\"}", "If-Match", "W/" + next), 412,
        "PRECONDITION_FAILED");
    assertProblem(server.send("PATCH", path, "{\"name\":\"l3\"}", "If-Match",
        next + " garbage"), 412, "PRECONDITION_FAILED");
    HttpResponse<String> any = server.send("PATCH", path, "{\"name\":\"l3\"}", "If-Match", "*");
    assertThat(any.statusCode()).as(any.body()).isEqualTo(200);
    assertThat(json(any).get("name").asText()).isEqualTo("l3");
    assertThat(server.send("DELETE", path, null, "If-Match", stale + ", "
        + any.headers().firstValue("ETag").orElseThrow()).statusCode()).isEqualTo(204);
  }

  @Test
  void aDuplicateMemberInsideAMapIsNamedWithTheMap() {
    JsonNode nested = assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"dup\",\"warehouse\":\"file:/tmp/dup\","
            + "\"properties\":{\"a\":\"hush-1\",\"a\":\"hush-2\"}}"), 400, "MALFORMED_REQUEST");
    assertThat(nested.get("detail").asText()).contains("duplicate member a in properties")
        .doesNotContain("hush");
    JsonNode top = assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"dup\",\"name\":\"hush\",\"warehouse\":\"file:/tmp/dup\"}"), 400,
        "MALFORMED_REQUEST");
    assertThat(top.get("detail").asText()).contains("duplicate member name")
        .doesNotContain(" in ").doesNotContain("hush");
    assertThat(server.send("GET", base + "/catalogs", null).body()).doesNotContain("\"dup\"");
  }

  /** Tryout: an unknown integration type was "missing or has the wrong type or value". */
  /** tryout: a property with an empty name was stored (the CLI's {@code --property '=v'}). */
  @Test
  void aPropertyWithAnEmptyOrBlankKeyIs400() {
    Created catalog = createCatalog("named-keys");
    String integration = "{\"displayName\":\"named-keys\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://catalog.example.com/v1\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"},"
        + "\"properties\":";
    HttpResponse<String> created = server.send("POST", base + "/integrations", integration + "{}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String integrationPath = base + "/integrations/" + json(created).get("id").asText();
    String integrationTag = created.headers().firstValue("ETag").orElseThrow();
    for (String[] request : new String[][] {
        {"POST", base + "/catalogs", "{\"name\":\"k\",\"warehouse\":\"file:/tmp/k\","
            + "\"properties\":{\"\":\"v\"}}"},
        {"PATCH", catalog.path(), "{\"properties\":{\"a\":\"1\",\" \":\"v\"}}"},
        {"POST", base + "/integrations", integration + "{\"\":\"v\"}}"},
        {"PATCH", integrationPath, "{\"properties\":{\"\":\"v\"}}"}}) {
      String tag = request[1].equals(integrationPath) ? integrationTag : catalog.etag();
      JsonNode problem = assertProblem(server.send(request[0], request[1], request[2],
          "If-Match", tag), 400, "INVALID_ARGUMENT");
      assertThat(problem.get("detail").asText()).as(request[2])
          .contains("properties", "must not be empty");
    }
    assertThat(json(server.send("GET", catalog.path(), null)).get("properties")).isEmpty();
    assertThat(json(server.send("GET", integrationPath, null)).get("properties")).isEmpty();
  }

  /**
   * tryout: a name holding a lone surrogate (a JSON escape of one: valid JSON, not Unicode) was
   * 500 INTERNAL, the key encoding's IllegalArgumentException; a surrogate pair is a character.
   */
  @Test
  void aNameWithALoneSurrogateIs400AndAPairIsAccepted() {
    String integration = "{\"displayName\":\"NAME\",\"type\":\"ICEBERG_REST\","
        + "\"uri\":\"https://catalog.example.com/v1\","
        + "\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}";
    Created catalog = createCatalog("surrogates");
    for (String lone : new String[] {"\\ud800", "a\\udc00", "\\ud83d\\ud83d"}) {
      for (String[] request : new String[][] {
          {"POST", base + "/catalogs",
              "{\"name\":\"" + lone + "\",\"warehouse\":\"file:/tmp/s\"}"},
          {"PATCH", catalog.path(), "{\"name\":\"" + lone + "\"}"},
          {"POST", base + "/integrations", integration.replace("NAME", lone)}}) {
        JsonNode problem = assertProblem(server.send(request[0], request[1], request[2],
            "If-Match", catalog.etag()), 400, "INVALID_ARGUMENT");
        assertThat(problem.get("detail").asText()).as(request[2]).contains("surrogate");
      }
    }
    HttpResponse<String> pair = server.send("POST", base + "/catalogs",
        "{\"name\":\"smile-\\ud83d\\ude00\",\"warehouse\":\"file:/tmp/smile\"}");
    assertThat(pair.statusCode()).as(pair.body()).isEqualTo(201);
    assertThat(json(pair).get("name").asText()).isEqualTo("smile-\ud83d\ude00");
  }

  @Test
  void anUnknownEnumValueIsAnsweredWithTheAcceptedValuesNotTheValueGiven() {
    JsonNode problem = assertProblem(server.send("POST", base + "/integrations",
        "{\"displayName\":\"m2\",\"type\":\"KAFKA-hush\","
            + "\"uri\":\"https://example.com/api\"}"), 400, "MALFORMED_REQUEST");
    assertThat(problem.get("detail").asText())
        .contains("member type must be one of [ICEBERG_REST, UNITY, DELTA_SHARING]")
        .doesNotContain("hush");
  }

  /** Tryout: an ETag whose quotes a shell stripped got a bare 412 with nothing to go on. */
  @Test
  void anUnquotedTagIs412SayingToQuoteItAndSeveralLinesAreOneList() {
    Created created = createCatalog("quoted");
    String id = created.id();
    String etag = created.etag();
    String bare = etag.replace("\"", "");
    String path = created.path();
    for (String unquoted : new String[] {bare, "W/" + bare, bare + ", " + bare}) {
      JsonNode problem = assertProblem(server.send("PATCH", path, "{\"name\":\"q2\"}",
          "If-Match", unquoted), 412, "PRECONDITION_FAILED");
      assertThat(problem.get("detail").asText()).as(unquoted)
          .contains("double quotes").contains("\"" + id + "/");
    }
    // a stale but well-formed tag keeps the plain wording
    assertThat(assertProblem(server.send("PATCH", path, "{\"name\":\"q2\"}", "If-Match",
        "\"other/1\""), 412, "PRECONDITION_FAILED").get("detail").asText())
        .doesNotContain("double quotes");
    // RFC 9110 5.3: two lines are the list "other/1", ETAG, so the current tag matches
    HttpResponse<String> twoLines = server.send("PATCH", path, "{\"name\":\"q2\"}",
        "If-Match", "\"other/1\"", "If-Match", etag);
    assertThat(twoLines.statusCode()).as(twoLines.body()).isEqualTo(200);
  }

  /** Tryout: the overlays of a missing account were an empty page, the catalogs a 404. */
  @Test
  void everyAccountScopedListOfAMissingAccountIs404() {
    for (String list : new String[] {"catalogs", "integrations", "overlays", "tokens"}) {
      JsonNode problem = assertProblem(server.send("GET",
          "/admin/v1/accounts/no-such-account/" + list, null), 404, "NOT_FOUND");
      assertThat(problem.get("detail").asText()).as(list).contains("no-such-account");
    }
  }

  @Test
  void anEmptyOrRepeatedPageParameterIs400NamingIt() {
    for (String query : new String[] {"pageSize=", "pageSize=10&pageSize=1000",
        "pageToken=a&pageToken=b", "pageSize=5&pageToken=&pageToken="}) {
      JsonNode problem = assertProblem(server.send("GET", base + "/catalogs?" + query, null), 400,
          "INVALID_ARGUMENT");
      assertThat(problem.get("detail").asText()).as(query)
          .contains(query.contains("pageToken") ? "pageToken" : "pageSize");
    }
  }

  @Test
  void anUnknownRouteNamesMethodAndPath() {
    JsonNode problem = assertProblem(server.send("DELETE", "/admin/v1/acounts/x", null), 404,
        "ROUTE_NOT_FOUND");
    assertThat(problem.get("detail").asText()).contains("DELETE /admin/v1/acounts/x")
        .doesNotContain("the path");
  }

  /**
   * {@code includeNamespaces} or {@code excludeNamespaces} as JSON null: 400 naming the member on
   * create (it read as [], so a null include selected the whole upstream tree) and on PATCH (it
   * read as absent: 200 and nothing cleared); nothing is written either way.
   */
  @Test
  void aNullNamespaceListIs400OnCreateAndPatchAndWritesNothing() {
    String integration = json(server.send("POST", base + "/integrations",
        "{\"displayName\":\"nulls\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://n.example.com\","
            + "\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}")).get("id").asText();
    String catalog = createCatalog("null-lists").id();
    String head = "{\"integrationId\":\"" + integration + "\",\"catalogId\":\"" + catalog + "\",";
    for (String member : new String[] {"includeNamespaces", "excludeNamespaces"}) {
      JsonNode refused = assertProblem(server.send("POST", base + "/overlays",
          head + "\"displayName\":\"null-" + member + "\",\"" + member + "\":null}"), 400,
          "INVALID_ARGUMENT");
      assertThat(refused.get("detail").asText()).contains(member, "null");
    }
    assertThat(server.send("GET", base + "/overlays", null).body()).doesNotContain("null-");
    HttpResponse<String> created = server.send("POST", base + "/overlays", head
        + "\"displayName\":\"lists\",\"includeNamespaces\":[[\"a\"]],"
        + "\"excludeNamespaces\":[[\"a\",\"b\"]]}");
    String path = base + "/overlays/" + json(created).get("id").asText();
    String etag = created.headers().firstValue("ETag").orElseThrow();
    for (String member : new String[] {"includeNamespaces", "excludeNamespaces"}) {
      JsonNode refused = assertProblem(server.send("PATCH", path, "{\"" + member + "\":null}",
          "If-Match", etag), 400, "INVALID_ARGUMENT");
      assertThat(refused.get("detail").asText()).contains(member, "null");
    }
    HttpResponse<String> after = server.send("GET", path, null);
    assertThat(after.headers().firstValue("ETag")).contains(etag);
    assertThat(json(after).get("includeNamespaces").toString()).isEqualTo("[[\"a\"]]");
    assertThat(json(after).get("excludeNamespaces").toString()).isEqualTo("[[\"a\",\"b\"]]");
  }
}
