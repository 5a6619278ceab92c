package io.icegate.admin;

import static io.icegate.admin.testing.AdminServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.testing.AdminServer;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.model.Account;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin servlet's HTTP mapping over real HTTP on loopback: routing (unknown route 404, wrong
 * method 405 with Allow), authentication and roles, problem+json bodies with the catalogue's code,
 * ETag and If-Match (428 without, 412 stale), page tokens, and bad input as 400 naming the member
 * without echoing its value.
 */
class AdminHttpMappingTest {
  private static final String READER = "igt_admin-api-test-reader";

  private static AdminServer server;
  private static String base;

  @BeforeAll
  static void start() {
    server = AdminServer.start();
    String account = server.services.repositories().accounts().create(new Account("acme")).id();
    server.grant(AdminServer.ADMIN, account, TokenRole.ADMIN, true);
    server.grant(READER, account, TokenRole.READER, false);
    base = "/admin/v1/accounts/" + account;
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** Asserts a problem+json answer with {@code status} and {@code code}; returns its body. */
  static JsonNode assertProblem(HttpResponse<String> response, int status, String code) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith(AdminServlet.PROBLEM));
    JsonNode problem = json(response);
    assertThat(problem.get("code").asText()).isEqualTo(code);
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("title").asText()).isEqualTo(code);
    assertThat(problem.get("type").asText()).isEqualTo("urn:icegate:problem:" + code.toLowerCase());
    return problem;
  }

  @Test
  void anUnknownRouteIsA404ProblemAndAWrongMethodA405WithAllow() {
    assertProblem(server.send("GET", "/admin/v1/nothing-here", null), 404, "ROUTE_NOT_FOUND");
    assertProblem(server.send("GET", base + "/catalogs/x/y/z", null), 404, "ROUTE_NOT_FOUND");
    HttpResponse<String> wrong = server.send("PUT", "/admin/v1/accounts", "{}");
    assertProblem(wrong, 405, "METHOD_NOT_ALLOWED");
    assertThat(wrong.headers().firstValue("Allow")).hasValueSatisfying(
        allow -> assertThat(allow.split(", ")).contains("GET", "POST"));
  }

  /**
   * Two Authorization lines (tryout): Jetty's getHeader gave the first, so a proxy that checked the
   * last one and this server acted as different callers; now 400 whatever their order.
   */
  @Test
  void severalAuthorizationOrIdempotencyKeyLinesAre400() {
    JsonNode problem = assertProblem(server.send("GET", base + "/catalogs", null,
        "Authorization", "Bearer " + AdminServer.ADMIN, "Authorization", "Bearer " + READER),
        400, "MALFORMED_REQUEST");
    assertThat(problem.get("detail").asText()).contains("Authorization header is given 2 times")
        .doesNotContain(READER);
    assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"two-tokens\",\"warehouse\":\"file:/tmp/t\"}",
        "Authorization", "Bearer " + READER, "Authorization", "Bearer " + AdminServer.ADMIN),
        400, "MALFORMED_REQUEST");
    assertProblem(server.send("GET", base + "/catalogs/two-tokens", null), 404, "NOT_FOUND");
    // two Idempotency-Keys: a retry with either one alone would not be seen as this request
    assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"two-keys\",\"warehouse\":\"file:/tmp/t\"}",
        "Idempotency-Key", "k-1", "Idempotency-Key", "k-2"), 400, "MALFORMED_REQUEST");
    assertProblem(server.send("GET", base + "/catalogs/two-keys", null), 404, "NOT_FOUND");
  }

  @Test
  void callersAreAuthenticatedAndTheirRolesApplied() {
    assertProblem(server.send("GET", base + "/catalogs", null, "Authorization", "Basic x"),
        401, "UNAUTHENTICATED");
    assertProblem(server.send("GET", base + "/catalogs", null, "Authorization",
        "Bearer igt_unknown"), 401, "UNAUTHENTICATED");
    assertThat(server.send("GET", base + "/catalogs", null, "Authorization", "Bearer " + READER)
        .statusCode()).isEqualTo(200);
    assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"r\",\"warehouse\":\"file:/tmp/r\"}", "Authorization", "Bearer " + READER),
        403, "PERMISSION_DENIED");
    // another account is not there at all for an account's token
    assertProblem(server.send("GET", "/admin/v1/accounts/someone-else/catalogs", null,
        "Authorization", "Bearer " + READER), 404, "NOT_FOUND");
  }

  @Test
  void etagsAndIfMatchGuardUpdates() {
    HttpResponse<String> created = server.send("POST", base + "/catalogs",
        "{\"name\":\"guarded\",\"warehouse\":\"file:/tmp/guarded\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = json(created).get("id").asText();
    String etag = created.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> read = server.send("GET", base + "/catalogs/" + id, null);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.headers().firstValue("ETag")).contains(etag);

    String path = base + "/catalogs/" + id;
    assertProblem(server.send("PATCH", path, "{\"name\":\"g2\"}"), 428, "PRECONDITION_REQUIRED");
    assertProblem(server.send("PATCH", path, "{\"name\":\"g2\"}", "If-Match",
        "\"" + id + "/99\""), 412, "GENERATION_MISMATCH");
    HttpResponse<String> patched =
        server.send("PATCH", path, "{\"name\":\"g2\"}", "If-Match", etag);
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    assertThat(json(patched).get("name").asText()).isEqualTo("g2");
    String next = patched.headers().firstValue("ETag").orElseThrow();
    assertThat(next).isNotEqualTo(etag);
    assertProblem(server.send("DELETE", path, null, "If-Match", etag), 412,
        "GENERATION_MISMATCH");
    assertThat(server.send("DELETE", path, null, "If-Match", next).statusCode()).isEqualTo(204);
    assertProblem(server.send("GET", path, null), 404, "NOT_FOUND");
  }

  @Test
  void badInputIsA400NamingTheMemberNeverItsValue() {
    JsonNode wrongType = assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":[\"hush-hush\"],\"warehouse\":\"file:/tmp/w\"}"), 400, "MALFORMED_REQUEST");
    assertThat(wrongType.get("detail").asText()).contains("name").doesNotContain("hush-hush");
    JsonNode unknown = assertProblem(server.send("POST", base + "/catalogs",
        "{\"name\":\"n\",\"warehouse\":\"file:/tmp/w\",\"bogus\":\"hush-hush\"}"), 400,
        "MALFORMED_REQUEST");
    assertThat(unknown.get("detail").asText()).contains("bogus").doesNotContain("hush-hush");
    assertProblem(server.send("POST", base + "/catalogs", "{not json"), 400,
        "MALFORMED_REQUEST");
    JsonNode badSize = assertProblem(server.send("GET", base + "/catalogs?pageSize=many", null),
        400, "INVALID_ARGUMENT");
    assertThat(badSize.get("detail").asText()).contains("pageSize");
    assertThat(json(server.send("GET", base + "/catalogs", null)).get("items").toString())
        .doesNotContain("hush-hush");
  }

  @Test
  void listsPageWithTheirTokens() {
    for (int i = 0; i < 3; i++) {
      assertThat(server.send("POST", base + "/catalogs", "{\"name\":\"page-" + i
          + "\",\"warehouse\":\"file:/tmp/p\"}").statusCode()).isEqualTo(201);
    }
    List<String> names = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      JsonNode page = json(server.send("GET", base + "/catalogs?pageSize=2"
          + (token == null ? "" : "&pageToken=" + token), null));
      assertThat(page.get("items").size()).isLessThanOrEqualTo(2);
      page.get("items").forEach(item -> names.add(item.get("name").asText()));
      token = page.get("nextPageToken").isNull() ? null : page.get("nextPageToken").asText();
      pages++;
    } while (token != null);
    assertThat(names).contains("page-0", "page-1", "page-2").doesNotHaveDuplicates();
    assertThat(pages).isGreaterThanOrEqualTo(2);
    assertProblem(server.send("GET", base + "/catalogs?pageToken=forged", null), 400,
        "INVALID_PAGE_TOKEN");
    assertProblem(server.send("GET", base + "/catalogs?pageSize=0", null), 400,
        "INVALID_ARGUMENT");
  }
}
