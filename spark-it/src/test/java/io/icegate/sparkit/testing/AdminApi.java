package io.icegate.sparkit.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The gateway's admin API ({@code /admin/v1}, admin-api/src/main/resources/openapi.yaml) over
 * plain HTTP with {@code java.net.http} and Jackson, the way a user's script calls it: bearer
 * token, JSON bodies, status codes checked. Nothing of the gateway's own code is used.
 */
public final class AdminApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();
  private final String baseUri;
  private final String token;

  /**
   * @param baseUri the gateway's {@code http://127.0.0.1:PORT}
   * @param token an admin token (the bootstrap token is a server admin of account {@code default})
   */
  public AdminApi(String baseUri, String token) {
    this.baseUri = baseUri;
    this.token = token;
  }

  /** An answer: status and body (JSON, or null when there is none). */
  public record Answer(int status, JsonNode body, String raw) {
    /** The body, failing with status and body when the status is not {@code expected}. */
    public JsonNode expect(int expected) {
      if (status != expected) {
        throw new AssertionError("expected HTTP " + expected + ", got " + status + ": " + raw);
      }
      return body;
    }
  }

  /** The id of the account named {@code name}, from {@code GET /admin/v1/accounts}. */
  public String accountId(String name) {
    for (JsonNode account : get("/admin/v1/accounts").expect(200).path("items")) {
      if (name.equals(account.path("name").asText())) {
        return account.path("id").asText();
      }
    }
    throw new AssertionError("no account " + name);
  }

  public Answer get(String path) {
    return send("GET", path, null, Map.of());
  }

  /** POST with a JSON body built from {@code body} (maps, lists, strings, numbers). */
  public Answer post(String path, Object body) {
    return send("POST", path, body, Map.of());
  }

  public Answer post(String path, Object body, Map<String, String> headers) {
    return send("POST", path, body, headers);
  }

  public Answer delete(String path) {
    return send("DELETE", path, null, Map.of());
  }

  private Answer send(String method, String path, Object body, Map<String, String> headers) {
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUri + path))
          .timeout(TIMEOUT)
          .header("Authorization", "Bearer " + token)
          .header("Accept", "application/json");
      headers.forEach(request::header);
      if (body == null) {
        request.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        request.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
      }
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      String raw = response.body();
      JsonNode json = raw == null || raw.isBlank() ? null : parse(raw);
      return new Answer(response.statusCode(), json, raw);
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + method + " " + path, e);
    }
  }

  private static JsonNode parse(String raw) {
    try {
      return JSON.readTree(raw);
    } catch (IOException e) {
      return null; // not JSON (e.g. a plain-text error from a proxy); raw keeps it
    }
  }
}
