package io.icegate.access.unity.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * OAuth2 client-credentials tokens (RFC 6749 section 4.4) for the catalog API, minted lazily and
 * renewed when the reported lifetime is nearly over or when the catalog rejects a token with 401
 * (an expiry the server knows before we do). Client authentication uses HTTP Basic, the method RFC
 * 6749 section 2.3.1 requires servers to support.
 *
 * <p>Renewal is serialized: concurrent callers holding the rejected token wait for one new token
 * rather than each minting their own. Secrets never appear in {@link #toString()} or messages.
 */
public final class ClientCredentialsTokens implements CatalogTokens {

  /** Renew this long before the reported expiry, so a request does not carry a dying token. */
  static final Duration SKEW = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI tokenUri;
  private final String basicAuth;
  private final String scope;
  private final TokenEndpointTransport transport;
  private final Clock clock;

  private String token;
  private Instant renewAt;
  private int minted;

  ClientCredentialsTokens(
      URI tokenUri,
      String clientId,
      String clientSecret,
      String scope,
      TokenEndpointTransport transport,
      Clock clock) {
    this.tokenUri = tokenUri;
    this.basicAuth =
        Base64.getEncoder()
            .encodeToString(
                (form(clientId) + ":" + form(clientSecret)).getBytes(StandardCharsets.UTF_8));
    this.scope = scope;
    this.transport = transport;
    this.clock = clock;
  }

  /** The token endpoint in use (resolved from configuration). */
  public URI tokenUri() {
    return tokenUri;
  }

  /** How many tokens this source has obtained so far. */
  public synchronized int minted() {
    return minted;
  }

  @Override
  public synchronized Optional<String> current() {
    if (token == null || (renewAt != null && !clock.instant().isBefore(renewAt))) {
      mint();
    }
    return Optional.of(token);
  }

  @Override
  public synchronized boolean refreshAfterRejection(String rejected) {
    if (token != null && !token.equals(rejected)) {
      return true; // another caller already renewed it
    }
    mint();
    return true;
  }

  private void mint() {
    String body = "grant_type=client_credentials" + (scope == null ? "" : "&scope=" + form(scope));
    HttpResponse<String> response = transport.postForm(tokenUri, basicAuth, body);
    int status = response.statusCode();
    if (status == 400 || status == 401 || status == 403) {
      throw new CatalogAccessException(
          Code.AUTHENTICATION_FAILED,
          "the token endpoint refused the client credentials (HTTP " + status + ")");
    }
    // a failing or rate-limiting endpoint, or none at that address: as every provider says it
    Optional<CatalogAccessException> failed =
        CatalogAccessException.ofTokenEndpointStatus(tokenUri, status);
    if (failed.isPresent()) {
      throw failed.get();
    }
    if (status != 200) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, "the token endpoint answered HTTP " + status);
    }
    JsonNode json;
    try {
      json = JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      // an HTML sign-in page, say: named by host and port; neither body nor parser message kept
      throw CatalogAccessException.unreadableTokenAnswer(tokenUri);
    }
    String accessToken = json.path("access_token").asText(null);
    if (accessToken == null || accessToken.isEmpty()) {
      throw new CatalogAccessException(
          Code.UPSTREAM_PROTOCOL_ERROR, "the token response has no access_token");
    }
    token = accessToken;
    long expiresIn = json.path("expires_in").asLong(0);
    renewAt = expiresIn > 0 ? clock.instant().plusSeconds(expiresIn).minus(SKEW) : null;
    minted++;
  }

  private static String form(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "ClientCredentialsTokens[tokenUri=" + tokenUri + ", scope=" + scope + "]";
  }
}
