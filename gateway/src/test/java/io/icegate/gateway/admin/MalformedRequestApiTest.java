package io.icegate.gateway.admin;

import static io.icegate.gateway.testing.HttpJson.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the admin API is a 400 problem with a stable code, never a 500, and writes nothing:
 * malformed JSON and members, a JSON null body, a large form-encoded body, bad percent escapes
 * (Jetty's own rejections included).
 */
class MalformedRequestApiTest extends AdminOverHttp {

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
  void aJsonNullBodyIsAProblemNotA500() {
    // Jackson reads the literal null as a null object; every create used to fail on it with a 500.
    assertProblem(gw.send("POST", "/admin/v1/accounts", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/catalogs", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/integrations", "null"), 400, "MALFORMED_REQUEST");
    assertProblem(gw.send("POST", base() + "/overlays", " null "), 400, "MALFORMED_REQUEST");
  }

  @Test
  void aLargeFormEncodedBodyIsAProblemNotA500() {
    // What `curl -d @file` sends; Jetty used to throw on form bodies above 200,000 bytes.
    assertProblem(gw.send("POST", "/admin/v1/accounts", "x".repeat(300_000),
        "Content-Type", "application/x-www-form-urlencoded"), 400, "MALFORMED_REQUEST");
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
}
