package io.icegate.access.deltasharing.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.paging.PageTokenGuard;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The Delta Sharing REST protocol over {@code java.net.http}: every request carries the recipient's
 * bearer token, is preceded by the outbound address check, and its failure is mapped onto a {@link
 * CatalogAccessException} code from the HTTP status (protocol: 401 missing or wrong token, 403
 * forbidden, 404 unknown share, schema or table, 400 malformed, 5xx server error). Callers name
 * the operation with what it is about ({@code "table metadata of share.schema.table"}), so every
 * failure says what failed.
 *
 * <p>Messages carry the upstream's {@code errorCode} and {@code message} (the server's view) but
 * never the token or request headers.
 *
 * <p>Limit: {@code java.net.http} offers no resolver hook, so the connection resolves the name
 * again after the policy check; the JVM's resolver cache normally returns the checked answer (the
 * same gap, for the same reason, as the Iceberg REST provider's catalog requests).
 */
public final class SharingTransport {

  /** A response that passed the status check. */
  public record Response(int status, Map<String, List<String>> headers, String body) {

    /** The first value of a header, case-insensitively, or {@code null}. */
    public String header(String name) {
      for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
        if (entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
          return entry.getValue().get(0);
        }
      }
      return null;
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final URI prefix;
  private final String token;
  private final Map<String, String> headers;
  private final OutboundAddressPolicy policy;
  private final Duration timeout;
  private final int maxPages;
  private final HttpClient http;

  /**
   * @param prefix the protocol's {@code {prefix}} (the profile file's {@code endpoint})
   * @param token the recipient's bearer token
   * @param headers extra headers for every request ({@code header.*} properties)
   * @param timeout connect and per-request timeout
   * @param maxPages the most pages one listing may take ({@link PageTokenGuard})
   */
  public SharingTransport(
      URI prefix,
      String token,
      Map<String, String> headers,
      OutboundAddressPolicy policy,
      Duration timeout,
      int maxPages) {
    String text = prefix.toString();
    this.prefix = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    this.token = token;
    this.headers = Map.copyOf(headers);
    this.policy = policy;
    this.timeout = timeout;
    this.maxPages = maxPages;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** The path segments joined below the prefix, each percent-encoded. */
  public static String path(String... segments) {
    StringBuilder path = new StringBuilder();
    for (String segment : segments) {
      path.append('/')
          .append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return path.toString();
  }

  /** A GET of {@code path} (from {@link #path}) with query parameters. */
  public Response get(String operation, String path, Map<String, String> query) {
    return get(operation, path, query, Map.of());
  }

  /** A GET with request headers of its own (the capabilities header of {@code /metadata}). */
  public Response get(
      String operation, String path, Map<String, String> query, Map<String, String> extra) {
    HttpRequest.Builder builder = request(path, query);
    extra.forEach(builder::header);
    return send(operation, builder.GET());
  }

  /** A POST of a JSON body. */
  public Response post(String operation, String path, Object body) {
    String json;
    try {
      json = JSON.writeValueAsString(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return send(
        operation,
        request(path, Map.of())
            .header("Content-Type", "application/json; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /**
   * Every item of a paginated listing, in server order: follows {@code nextPageToken} until it is
   * absent or empty (both mean "no more" in the protocol), sending {@code maxResults} when given.
   *
   * @param pageSize the {@code maxResults} to ask for, or {@code null} to let the server choose
   * @throws CatalogAccessException {@code UPSTREAM_PROTOCOL_ERROR} when the server repeats a token
   *     or exceeds the page bound, so no partial listing is returned as if complete
   */
  public <T> List<T> listAll(
      String operation, String path, Integer pageSize, Function<JsonNode, T> item) {
    PageTokenGuard guard = new PageTokenGuard(maxPages);
    List<T> items = new ArrayList<>();
    String pageToken = "";
    while (true) {
      guard.beforeGet(path, Map.of(PageTokenGuard.PAGE_TOKEN, pageToken));
      Map<String, String> query = new LinkedHashMap<>();
      if (pageSize != null) {
        query.put("maxResults", Integer.toString(pageSize));
      }
      if (!pageToken.isEmpty()) {
        query.put("pageToken", pageToken);
      }
      JsonNode page = json(operation, get(operation, path, query).body());
      JsonNode found = page.path("items");
      if (!found.isMissingNode() && !found.isNull()) {
        if (!found.isArray()) {
          throw protocolError(operation + " answered 'items' that is not an array");
        }
        found.forEach(node -> items.add(item.apply(node)));
      }
      JsonNode next = page.path("nextPageToken");
      if (next.isMissingNode() || next.isNull() || next.asText().isEmpty()) {
        return items;
      }
      pageToken = next.asText();
    }
  }

  /** Parses JSON text, mapping a parse failure to {@code UPSTREAM_PROTOCOL_ERROR}. */
  public static JsonNode json(String operation, String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw protocolError(operation + " answered a body that is not JSON");
    }
  }

  /** Binds a JSON object onto a protocol record. */
  public static <T> T bind(String operation, JsonNode node, Class<T> type) {
    try {
      return JSON.treeToValue(node, type);
    } catch (IOException | IllegalArgumentException e) {
      throw protocolError(operation + " answered an unexpected " + type.getSimpleName());
    }
  }

  private HttpRequest.Builder request(String path, Map<String, String> query) {
    StringBuilder uri = new StringBuilder(prefix.toString()).append(path);
    char separator = prefix.getRawQuery() == null ? '?' : '&';
    for (Map.Entry<String, String> entry : query.entrySet()) {
      uri.append(separator)
          .append(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8));
      separator = '&';
    }
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(uri.toString()))
            .timeout(timeout)
            .header("Authorization", "Bearer " + token);
    headers.forEach(builder::header);
    return builder;
  }

  private Response send(String operation, HttpRequest.Builder builder) {
    HttpRequest request = builder.build();
    policy.resolve(request.uri().getHost());
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw CatalogAccessException.unreachable(
          "the sharing server for " + operation, request.uri(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CatalogAccessException(Code.CONNECTION_FAILED, operation + " was interrupted", e);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return new Response(status, response.headers().map(), response.body());
    }
    throw new CatalogAccessException(
        codeFor(status), operation + " failed: HTTP " + status + upstreamError(response.body()));
  }

  /**
   * The status-to-code table; see the class comment. A 500 is the server failing on this very
   * request (the reference server answers it for tables it cannot read), which a retry does not
   * mend: it is not a connection failure. 502, 503 and 504 (a proxy or an overloaded server) are.
   */
  static Code codeFor(int status) {
    if (status == 401) {
      return Code.AUTHENTICATION_FAILED;
    }
    if (status == 403) {
      return Code.PERMISSION_DENIED;
    }
    if (status == 404) {
      return Code.NOT_FOUND;
    }
    if (status == 408 || status == 429 || status == 502 || status == 503 || status == 504) {
      return Code.CONNECTION_FAILED;
    }
    return Code.UPSTREAM_PROTOCOL_ERROR;
  }

  /** {@code " (errorCode: message)"} from a protocol error body, or nothing. */
  private static String upstreamError(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      JsonNode error = JSON.readTree(body);
      String code = error.path("errorCode").asText("");
      String message = error.path("message").asText("");
      if (code.isEmpty() && message.isEmpty()) {
        return "";
      }
      String text = code + (message.isEmpty() ? "" : ": " + message);
      return " (" + (text.length() > 300 ? text.substring(0, 300) + "..." : text) + ")";
    } catch (IOException e) {
      return "";
    }
  }

  private static CatalogAccessException protocolError(String message) {
    return new CatalogAccessException(Code.UPSTREAM_PROTOCOL_ERROR, message);
  }

  @Override
  public String toString() {
    return "SharingTransport[" + prefix + "]";
  }
}
