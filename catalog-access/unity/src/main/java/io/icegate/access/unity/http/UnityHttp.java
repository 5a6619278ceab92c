package io.icegate.access.unity.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.network.OutboundAddressPolicy;
import io.icegate.access.unity.UnitySettings;
import io.icegate.access.unity.api.UnityApi.ErrorResponse;
import io.icegate.access.unity.auth.CatalogTokens;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The Unity REST transport: JSON over {@link HttpClient}, the catalog token on every request, one
 * retry with a fresh token after a 401 when the token source can mint one, and Unity's status codes
 * mapped onto {@link CatalogAccessException} codes.
 *
 * <p>The outbound address policy is applied to the host of every request (catalog and token
 * endpoint) before it is sent, and redirects are never followed, so a response cannot steer the
 * client to an address the policy refuses. The JDK client resolves the name again when it
 * connects; a DNS answer that changes between the two lookups is the remaining gap, narrower than
 * the redirect one this closes.
 */
public final class UnityHttp implements CatalogTokens.TokenEndpointTransport {

  /** Upper bound on pages in one listing: an upstream that never ends pagination fails instead. */
  public static final int MAX_PAGES = 10_000;

  /** Page size requested with {@code max_results}. */
  public static final int PAGE_SIZE = 100;

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final HttpClient http;
  private final UnitySettings settings;
  private final OutboundAddressPolicy policy;
  private CatalogTokens tokens;

  public UnityHttp(UnitySettings settings, OutboundAddressPolicy policy) {
    this.settings = settings;
    this.policy = policy;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(settings.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** Installs the token source; done once, right after construction. */
  public void authenticateWith(CatalogTokens tokens) {
    this.tokens = tokens;
  }

  /**
   * GETs {@code path} (relative to the API base) with query parameters and decodes the body.
   *
   * @throws CatalogAccessException mapped from the status, see {@link #failure}
   */
  public <T> T get(String path, Map<String, String> query, Class<T> type) {
    return decode(send("GET", settings.apiBase().resolve(path + query(query)), null), type, path);
  }

  /** POSTs {@code body} as JSON to {@code uri} and decodes the response. */
  public <T> T post(URI uri, Object body, Class<T> type) {
    String json;
    try {
      json = JSON.writeValueAsString(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return decode(send("POST", uri, json), type, uri.getPath());
  }

  /**
   * Reads every page of a Unity listing ({@code max_results}, {@code page_token}, {@code
   * next_page_token}); an empty or absent next token ends it. A repeated token or more than {@link
   * #MAX_PAGES} pages fails with {@code UPSTREAM_PROTOCOL_ERROR}, so no partial inventory is
   * returned as if complete.
   *
   * @param items the items of one page
   * @param next the next page token of one page
   */
  public <P, I> List<I> listAll(
      String path,
      Map<String, String> query,
      Class<P> pageType,
      Function<P, List<I>> items,
      Function<P, String> next) {
    List<I> all = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String token = null;
    for (int page = 1; ; page++) {
      if (page > MAX_PAGES) {
        throw new CatalogAccessException(
            Code.UPSTREAM_PROTOCOL_ERROR,
            "pagination of " + path + " exceeded " + MAX_PAGES + " pages; the listing is incomplete");
      }
      Map<String, String> q = new LinkedHashMap<>(query);
      q.put("max_results", Integer.toString(PAGE_SIZE));
      if (token != null) {
        q.put("page_token", token);
      }
      P response = get(path, q, pageType);
      List<I> found = items.apply(response);
      if (found != null) {
        all.addAll(found);
      }
      token = next.apply(response);
      if (token == null || token.isEmpty()) {
        return all;
      }
      if (!seen.add(token)) {
        throw new CatalogAccessException(
            Code.UPSTREAM_PROTOCOL_ERROR,
            "pagination of " + path + " repeated a page token; the listing is incomplete");
      }
    }
  }

  @Override
  public HttpResponse<String> postForm(URI uri, String basicAuth, String form) {
    HttpRequest request =
        builder(uri)
            .header("Authorization", "Basic " + basicAuth)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return exchange(request, "the OAuth2 token endpoint");
  }

  private HttpResponse<String> send(String method, URI uri, String json) {
    String token = tokens.current().orElse(null);
    HttpResponse<String> response = exchange(catalogRequest(method, uri, json, token));
    if (response.statusCode() == 401 && token != null && tokens.refreshAfterRejection(token)) {
      String fresh = tokens.current().orElse(null);
      response = exchange(catalogRequest(method, uri, json, fresh));
    }
    return response;
  }

  private HttpRequest catalogRequest(String method, URI uri, String json, String token) {
    HttpRequest.Builder builder = builder(uri).header("Accept", "application/json");
    settings.headers().forEach(builder::header);
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    if (json == null) {
      builder.GET();
    } else {
      builder
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    }
    return builder.build();
  }

  private HttpRequest.Builder builder(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(settings.readTimeout());
  }

  private HttpResponse<String> exchange(HttpRequest request) {
    return exchange(request, "the Unity catalog");
  }

  /** Sends {@code request}; {@code what} names its endpoint when it cannot be reached. */
  private HttpResponse<String> exchange(HttpRequest request, String what) {
    policy.resolve(request.uri().getHost());
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw CatalogAccessException.unreachable(what, request.uri(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CatalogAccessException(Code.CONNECTION_FAILED, "interrupted", e);
    }
  }

  private static <T> T decode(HttpResponse<String> response, Class<T> type, String path) {
    if (response.statusCode() != 200) {
      throw failure(response, path);
    }
    try {
      return JSON.readValue(response.body(), type);
    } catch (IOException e) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, path + " answered a body that does not decode", e);
    }
  }

  /**
   * 401 {@code AUTHENTICATION_FAILED}, 403 {@code PERMISSION_DENIED}, 404 {@code NOT_FOUND}, 5xx
   * and 429 {@code CONNECTION_FAILED} (retryable), anything else {@code UPSTREAM_PROTOCOL_ERROR};
   * the message keeps Unity's {@code error_code} and message, which describe the upstream's view
   * and carry no request secrets.
   */
  static CatalogAccessException failure(HttpResponse<String> response, String path) {
    int status = response.statusCode();
    Code code =
        switch (status) {
          case 401 -> Code.AUTHENTICATION_FAILED;
          case 403 -> Code.PERMISSION_DENIED;
          case 404 -> Code.NOT_FOUND;
          case 429, 500, 502, 503, 504 -> Code.CONNECTION_FAILED;
          default -> Code.UPSTREAM_PROTOCOL_ERROR;
        };
    String detail = "";
    try {
      ErrorResponse error = JSON.readValue(response.body(), ErrorResponse.class);
      if (error != null && error.errorCode() != null) {
        detail = ": " + error.errorCode() + (error.message() == null ? "" : " " + error.message());
      }
    } catch (IOException | RuntimeException e) {
      // not Unity's error shape; the status alone is reported
    }
    return new CatalogAccessException(code, path + " answered HTTP " + status + detail);
  }

  /** Unity path segment or full name, percent-encoded. */
  public static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(Map<String, String> query) {
    if (query.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("?");
    query.forEach(
        (k, v) -> out.append(out.length() == 1 ? "" : "&").append(k).append('=').append(segment(v)));
    return out.toString();
  }
}
