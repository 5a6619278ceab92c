package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.client.CatalogClientFactory;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.CatalogProtocol;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.network.OutboundAddressPolicy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tryout: an address that answers 200 with a page that is not the protocol's (a sign-in page, a
 * proxy, another API) read "catalog session setup failed: Received a success response code of
 * 200, but failed to parse response body into ...": CONNECTION_FAILED, "retry", naming neither
 * the endpoint nor what to check. It is the Integration's address, named as such.
 */
class UnreadableAnswersTest {

  private static final String SECRET = "unreadable-answers-secret-77";

  private HttpServer page;
  private int port;
  private volatile String answer = "<html><body>Sign in</body></html>";
  private volatile String contentType = "text/html";
  private volatile int status = 200;

  @BeforeEach
  void start() throws Exception {
    page = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    page.createContext("/", exchange -> {
      byte[] body = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", contentType);
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    page.start();
    port = page.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    page.stop(0);
  }

  @Test
  void aTokenEndpointAnsweringAPageIsNamedAndNotRetryable() {
    CatalogAuthentication oauth = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2,
        Map.of("scope", "catalog", CatalogAuthentication.OAUTH2_SERVER_URI,
            "http://127.0.0.1:" + port + "/oauth/tokens?tenant=t1"));
    ResolvedCatalogCredentials credentials = new ResolvedCatalogCredentials(
        Map.of("client-id", "client-1", "client-secret", SECRET), Map.of(), null);
    assertThatThrownBy(() -> validate(oauth, credentials))
        .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
          assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
          assertThat(e.retryable()).isFalse();
          assertThat(e.getMessage())
              .contains("the OAuth2 token endpoint at 127.0.0.1:" + port
                  + " answered a body that is not an OAuth2 token response")
              .contains("tokenUri");
          assertThat(e.toString()).doesNotContain("tenant").doesNotContain("Sign in")
              .doesNotContain(SECRET);
        });
  }

  /**
   * Tryout: JSON that is no token response ({@code {}}) read "INVALID_CONFIGURATION: catalog
   * session setup failed: Cannot parse missing string: access_token", naming no endpoint.
   */
  @Test
  void aTokenEndpointAnsweringJsonWithoutATokenIsNamed() {
    answer = "{}";
    contentType = "application/json";
    CatalogAuthentication oauth = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2,
        Map.of("scope", "catalog", CatalogAuthentication.OAUTH2_SERVER_URI,
            "http://127.0.0.1:" + port + "/oauth/tokens"));
    ResolvedCatalogCredentials credentials = new ResolvedCatalogCredentials(
        Map.of("client-id", "client-1", "client-secret", SECRET), Map.of(), null);
    assertThatThrownBy(() -> validate(oauth, credentials))
        .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
          assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
          assertThat(e.getMessage())
              .contains("the OAuth2 token endpoint at 127.0.0.1:" + port
                  + " answered a body that is not an OAuth2 token response")
              .doesNotContain("session setup failed");
          assertThat(e.toString()).doesNotContain(SECRET);
        });
  }

  @Test
  void aCatalogUriAnsweringAPageIsNamedAndNotRetryable() {
    assertThatThrownBy(() -> validate(CatalogAuthentication.none(),
        ResolvedCatalogCredentials.none()))
        .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
          assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR);
          assertThat(e.retryable()).isFalse();
          assertThat(e.getMessage())
              .contains("the catalog at 127.0.0.1:" + port
                  + " answered a body that is not an Iceberg REST ConfigResponse")
              .contains("uri");
          assertThat(e.toString()).doesNotContain("Sign in");
        });
  }

  /**
   * Tryout: a warehouse the upstream does not serve (icegate and Polaris answer its config
   * request 404) and a uri ending in /v1 (404 for v1/v1/config) read "the upstream catalog is
   * unavailable; retry" (a bare RESTException, CONNECTION_FAILED), and the scheduler backed off as
   * for an outage. It is the Integration's configuration, named as such.
   */
  @Test
  void aConfigRequestAnswered404IsTheIntegrationsConfigurationNotAnOutage() {
    status = 404;
    contentType = "application/json";
    answer = "{\"error\":{\"message\":\"Warehouse (catalog) does not exist: nope\","
        + "\"type\":\"NotFoundException\",\"code\":404}}";
    assertThatThrownBy(() -> validate(CatalogAuthentication.none(),
        ResolvedCatalogCredentials.none(), Map.of("warehouse", "nope")))
        .isInstanceOfSatisfying(CatalogAccessException.class, e -> {
          assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION);
          assertThat(e.retryable()).isFalse();
          assertThat(e.getMessage())
              .contains("the catalog's config endpoint at 127.0.0.1:" + port
                  + " answered HTTP 404")
              .contains("uri", "warehouse nope");
        });
    // another status keeps iceberg-core's meaning (a 400 is the upstream refusing the request)
    status = 400;
    answer = "{\"error\":{\"message\":\"bad\",\"type\":\"BadRequestException\",\"code\":400}}";
    assertThatThrownBy(() -> validate(CatalogAuthentication.none(),
        ResolvedCatalogCredentials.none(), Map.of("warehouse", "nope")))
        .isInstanceOfSatisfying(CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.UPSTREAM_PROTOCOL_ERROR));
  }

  private void validate(CatalogAuthentication authentication,
      ResolvedCatalogCredentials credentials) {
    validate(authentication, credentials, Map.of());
  }

  private void validate(CatalogAuthentication authentication,
      ResolvedCatalogCredentials credentials, Map<String, String> properties) {
    CatalogConnectionConfig config = new CatalogConnectionConfig(CatalogProtocol.ICEBERG_REST,
        URI.create("http://127.0.0.1:" + port + "/catalog"), properties, authentication);
    try (CatalogClient client = CatalogClientFactory.load().open(config, credentials,
        OutboundAddressPolicy.defaults())) {
      client.validate();
    }
  }
}
