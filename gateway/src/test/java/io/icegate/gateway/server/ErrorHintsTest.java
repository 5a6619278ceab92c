package io.icegate.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.gateway.catalog.RepositoryErrors;
import io.icegate.gateway.iceberg.ErrorMapping;
import io.icegate.gateway.testing.GatewayFixture;
import java.net.http.HttpResponse;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The small print of error answers on both surfaces, over real HTTP (found by a tryout): the
 * hints a client acts on (Retry-After, WWW-Authenticate, the replay mark), the error type of
 * HTTP-level failures, the surface's own format for a URI too long, duplicate JSON members
 * refused, and messages that say what they are about.
 */
class ErrorHintsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static GatewayFixture gateway;
  private static String prefix;
  private static String account;

  @BeforeAll
  static void start() {
    gateway = GatewayFixture.start();
    prefix = gateway.prefix();
    account = "/admin/v1/accounts/" + gateway.defaultAccountId();
  }

  @AfterAll
  static void stop() {
    gateway.close();
  }

  private static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new AssertionError(body, e);
    }
  }

  private static JsonNode icebergError(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return json(response.body()).get("error");
  }

  private static JsonNode problem(HttpResponse<String> response, int status, String code) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/problem+json"));
    JsonNode problem = json(response.body());
    assertThat(problem.get("code").asText()).isEqualTo(code);
    return problem;
  }

  @Test
  void contentionAndAKeyInUseTellTheClientWhenToRetry() {
    // what a store conflict and a contended repository call become on the Iceberg surface
    assertThat(ErrorMapping.retryAfter(RepositoryErrors.toIceberg(
        new IcegateException(ErrorCode.STORE_CONTENTION, null)))).isEqualTo(OptionalInt.of(1));
    assertThat(ErrorMapping.retryAfter(RepositoryErrors.toIceberg(new IcegateException(
        ErrorCode.IDEMPOTENCY_IN_PROGRESS, null, "k")))).isEqualTo(OptionalInt.of(1));
    assertThat(ErrorMapping.retryAfter(new TransactionConflictException("busy")))
        .isEqualTo(OptionalInt.of(1));
    assertThat(ErrorMapping.retryAfter(RepositoryErrors.toIceberg(new IcegateException(
        ErrorCode.GENERATION_MISMATCH, null, "catalog", "c", 1, 2)))).isEmpty();
  }

  @Test
  void anUnreachableUpstreamTellsTheClientWhenToRetry() throws Exception {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort(); // closed again before the gateway calls it
    }
    HttpResponse<String> created = gateway.send("POST", account + "/integrations",
        "{\"displayName\":\"gone\",\"type\":\"ICEBERG_REST\",\"uri\":\"http://127.0.0.1:"
            + closedPort + "/v1\",\"authentication\":{\"type\":\"bearer\",\"token\":\"t\"}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = json(created.body()).get("id").asText();
    HttpResponse<String> down =
        gateway.send("GET", account + "/integrations/" + id + "/namespaces", null);
    problem(down, 503, "UPSTREAM_UNAVAILABLE");
    assertThat(down.headers().firstValue("Retry-After")).contains("5");
    // another reconcile of the same Overlay: the same hint on the Iceberg surface's mapping
    assertThat(ErrorMapping.retryAfter(RepositoryErrors.toIceberg(new IcegateException(
        ErrorCode.RECONCILE_IN_PROGRESS, null, "o")))).isEqualTo(OptionalInt.of(5));
  }

  @Test
  void anAdmin401NamesTheBearerScheme() {
    HttpResponse<String> response =
        gateway.send("GET", account + "/catalogs", null, "Authorization", "Basic x");
    problem(response, 401, "UNAUTHENTICATED");
    assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer");
  }

  @Test
  void anAdminReplayOfARecordedRejectionIsMarkedAsAReplay() {
    String body = "{\"name\":\"twice\",\"warehouse\":\"file:/tmp/twice\"}";
    assertThat(gateway.send("POST", account + "/catalogs", body).statusCode()).isEqualTo(201);
    HttpResponse<String> first =
        gateway.send("POST", account + "/catalogs", body, "Idempotency-Key", "twice-key");
    problem(first, 409, "ALREADY_EXISTS");
    assertThat(first.headers().firstValue("Idempotency-Replayed")).isEmpty();
    HttpResponse<String> again =
        gateway.send("POST", account + "/catalogs", body, "Idempotency-Key", "twice-key");
    problem(again, 409, "ALREADY_EXISTS");
    assertThat(again.headers().firstValue("Idempotency-Replayed")).contains("true");
  }

  @Test
  void httpLevelFailuresCarryTheirOwnErrorType() {
    String namespaces = "/iceberg/v1/" + prefix + "/namespaces";
    assertThat(icebergError(gateway.send("PUT", namespaces, "{}"), 405).get("type").asText())
        .isEqualTo("MethodNotAllowed");
    String huge = "{\"namespace\":[\"big\"],\"properties\":{\"k\":\""
        + "x".repeat(9 * 1024 * 1024) + "\"}}";
    assertThat(icebergError(gateway.send("POST", namespaces, huge), 413).get("type").asText())
        .isEqualTo("RequestTooLargeException");
    String tooLong =
        gateway.rawGet("/iceberg/v1/" + prefix + "/namespaces/" + "n".repeat(10_000));
    assertThat(tooLong).startsWith("HTTP/1.1 414").contains("\"type\":\"URITooLong\"");
  }

  @Test
  void aUriTooLongUnderAdminIsAProblem() {
    String raw = gateway.rawGet(account + "/catalogs/" + "c".repeat(10_000));
    assertThat(raw).startsWith("HTTP/1.1 414").contains("application/problem+json",
        "\"code\":\"MALFORMED_REQUEST\"");
  }

  @Test
  void aMemberGivenTwiceIsRefusedOnBothSurfaces() {
    JsonNode iceberg = icebergError(gateway.send("POST", "/iceberg/v1/" + prefix + "/namespaces",
        "{\"namespace\":[\"one\"],\"namespace\":[\"two\"]}"), 400);
    assertThat(iceberg.get("type").asText()).isEqualTo("BadRequestException");
    assertThat(iceberg.get("message").asText()).contains("namespace");
    assertThat(gateway.send("GET", "/iceberg/v1/" + prefix + "/namespaces/two", null)
        .statusCode()).isEqualTo(404);
    JsonNode admin = problem(gateway.send("POST", account + "/catalogs",
        "{\"name\":\"dup\",\"name\":\"dup2\",\"warehouse\":\"file:/tmp/dup\"}"), 400,
        "MALFORMED_REQUEST");
    assertThat(admin.get("detail").asText()).contains("name");
  }

  @Test
  void anUnknownTypeNamesWhatIsUntyped() {
    JsonNode problem = problem(gateway.send("POST", account + "/integrations",
        "{\"displayName\":\"i\",\"type\":\"ICEBERG_REST\",\"uri\":\"https://c.example.com/v1\","
            + "\"authentication\":{\"type\":\"nope\"}}"), 400, "MALFORMED_REQUEST");
    String detail = problem.get("detail").asText();
    assertThat(detail).contains("unknown or missing type of ");
    assertThat(detail.substring(detail.indexOf("unknown or missing type of ")
        + "unknown or missing type of ".length())).isNotBlank();
  }
}
