package io.icegate.cli.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin HTTP API as the CLI sees it (docs/admin-api.md): JSON over {@code java.net.http} with
 * a bearer token. A non-2xx answer becomes a {@link CliException} whose exit code follows the
 * status and whose message is the problem's {@code code}, {@code detail} and itemized {@code
 * details}; the request body is never part of a message (it may hold a secret).
 */
public final class AdminClient {
  /** Records as request bodies: absent members are left out, not sent as null. */
  public static final ObjectMapper JSON = new ObjectMapper()
      .setSerializationInclusion(JsonInclude.Include.NON_NULL);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String endpoint;
  private final String token;
  private final HttpClient http;

  public AdminClient(String endpoint, String token) {
    this.endpoint = endpoint;
    this.token = token;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** A 2xx answer: status, {@code ETag} header (empty when absent) and JSON body (null if none). */
  public record Reply(int status, Optional<String> etag, JsonNode body) {}

  /** One page of a list: its items and the token of the next page (null on the last). */
  public record Page(List<JsonNode> items, String nextPageToken) {}

  /** Query-string encoding of one value. */
  public static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** {@code GET path}. */
  public Reply get(String path) {
    return send("GET", path, null, Map.of());
  }

  /**
   * One page of the list at {@code path} ({@code pageSize} null = the server's default).
   */
  public Page page(String path, Integer pageSize, String pageToken) {
    return page(path, "items", pageSize, pageToken);
  }

  /**
   * One page of a list whose items are the array member {@code member} ({@code namespaces},
   * {@code objects} on the discovery routes); {@code path} may already carry a query string.
   */
  public Page page(String path, String member, Integer pageSize, String pageToken) {
    StringBuilder query = new StringBuilder();
    if (pageSize != null) {
      query.append("pageSize=").append(pageSize);
    }
    if (pageToken != null) {
      query.append(query.length() > 0 ? "&" : "").append("pageToken=").append(encode(pageToken));
    }
    String separator = path.indexOf('?') >= 0 ? "&" : "?";
    JsonNode body = get(query.length() == 0 ? path : path + separator + query).body();
    List<JsonNode> items = new ArrayList<>();
    body.path(member).forEach(items::add);
    JsonNode next = body.get("nextPageToken");
    return new Page(items, next == null || next.isNull() ? null : next.asText());
  }

  /** Every item of the list at {@code path}, following page tokens to the end. */
  public List<JsonNode> all(String path) {
    return all(path, "items");
  }

  /** Every item of the list at {@code path} whose items are the array member {@code member}. */
  public List<JsonNode> all(String path, String member) {
    List<JsonNode> items = new ArrayList<>();
    String token = null;
    do {
      Page page = page(path, member, 1000, token);
      items.addAll(page.items());
      token = page.nextPageToken();
    } while (token != null);
    return items;
  }

  /** Items as the JSON a script reads: {@code {"items": [...], "nextPageToken": ...}}. */
  public static ObjectNode pageJson(List<JsonNode> items, String nextPageToken) {
    return pageJson("items", items, nextPageToken);
  }

  /** As {@link #pageJson(List, String)} with the items under {@code member}. */
  public static ObjectNode pageJson(String member, List<JsonNode> items, String nextPageToken) {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode array = out.putArray(member);
    items.forEach(array::add);
    out.put("nextPageToken", nextPageToken);
    return out;
  }

  /**
   * Sends a request; {@code body} (a record, a tree, or null) is written as JSON.
   *
   * @throws CliException for a non-2xx status or when the server cannot be reached
   */
  public Reply send(String method, String path, Object body, Map<String, String> headers) {
    HttpRequest.BodyPublisher publisher;
    try {
      publisher = body == null
          ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body));
    } catch (IOException e) {
      throw new CliException(ExitCode.FAILED, "cannot encode the request body");
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint + path))
        .timeout(TIMEOUT)
        .method(method, publisher)
        .header("Authorization", "Bearer " + token)
        .header("Accept", "application/json");
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    headers.forEach((name, value) -> {
      try {
        request.header(name, value);
      } catch (IllegalArgumentException e) {
        // a value the shell passed with characters HTTP headers cannot carry (non-ASCII, a line
        // break): not echoed, it may be anything the user pasted
        throw new CliException(ExitCode.USAGE, "the " + name + " value cannot be sent in an HTTP"
            + " header (only visible ASCII characters and spaces)");
      }
    });
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new CliException(ExitCode.FAILED, "cannot reach " + endpoint + " ("
          + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
          + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCode.FAILED, "interrupted");
    }
    JsonNode json = parse(response.body());
    if (response.statusCode() / 100 != 2) {
      throw problem(method, path, response.statusCode(), json);
    }
    return new Reply(response.statusCode(), response.headers().firstValue("ETag"), json);
  }

  private static JsonNode parse(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  private static CliException problem(String method, String path, int status, JsonNode json) {
    String code = json == null ? "" : json.path("code").asText("");
    String detail = json == null ? "" : json.path("detail").asText(json.path("title").asText(""));
    StringBuilder message = new StringBuilder(method).append(' ').append(path).append(": ")
        .append(status);
    if (!code.isEmpty()) {
      message.append(' ').append(code);
    }
    if (!detail.isEmpty()) {
      message.append(": ").append(detail);
    }
    message.append(itemized(json == null ? null : json.get("details")));
    return new CliException(ExitCode.ofStatus(status), message.toString(),
        code.isEmpty() ? null : code);
  }

  /**
   * A problem's itemized {@code details} (e.g. every reconcile conflict) as indented lines after
   * the first, or empty when there are none.
   */
  public static String itemized(JsonNode details) {
    StringBuilder out = new StringBuilder();
    if (details != null && details.isArray()) {
      details.forEach(d -> out.append(System.lineSeparator()).append("  - ").append(d.asText()));
    }
    return out.toString();
  }
}
