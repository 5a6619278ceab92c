package io.icegate.access.unity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.model.NamespacePath;
import io.icegate.access.unity.fixture.UnityCatalogFixture;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Bearer and OAuth client-credentials authentication, including refresh mid-discovery. */
class UnityAuthenticationTest {

  UnityEnvironment env;

  @BeforeEach
  void setUp() throws Exception {
    env = new UnityEnvironment();
    IntStream.range(0, 101).forEach(i -> env.unity.addSchema("main", "s" + i));
  }

  @AfterEach
  void tearDown() throws Exception {
    env.close();
  }

  static ResolvedCatalogCredentials clientCredentials(String secret) {
    return new ResolvedCatalogCredentials(
        Map.of(
            ResolvedCatalogCredentials.CLIENT_ID, UnityCatalogFixture.CLIENT_ID,
            ResolvedCatalogCredentials.CLIENT_SECRET, secret),
        Map.of(),
        null);
  }

  static Code code(Throwable e) {
    return ((CatalogAccessException) e).code();
  }

  @Test
  void bearerTokenIsSentAndAWrongOneFailsAuthentication() {
    env.unity.requireBearer("good-token");
    CatalogAuthentication bearer = new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of());
    try (CatalogClient client =
        env.open(Map.of(), bearer, new ResolvedCatalogCredentials(Map.of("token", "good-token"), Map.of(), null))) {
      client.validate();
      assertThat(client.listNamespaces(NamespacePath.root())).containsExactly(NamespacePath.of("main"));
    }
    try (CatalogClient client =
        env.open(Map.of(), bearer, new ResolvedCatalogCredentials(Map.of("token", "bad"), Map.of(), null))) {
      assertThatThrownBy(client::validate).extracting(UnityAuthenticationTest::code).isEqualTo(Code.AUTHENTICATION_FAILED);
    }
    assertThatThrownBy(() -> env.open(Map.of(), bearer, ResolvedCatalogCredentials.none()))
        .extracting(UnityAuthenticationTest::code)
        .isEqualTo(Code.INVALID_CONFIGURATION);
  }

  @Test
  void oauthWithoutTokenUriUsesOidcTokenOnTheCatalogHost() {
    env.unity.requireOAuth();
    CatalogAuthentication oauth = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2, Map.of());
    try (CatalogClient client = env.open(Map.of(), oauth, clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      client.validate();
    }
    assertThat(env.unity.requests()).contains("POST /oidc/v1/token");
    assertThat(env.unity.tokenScopes()).containsExactly("");
  }

  @Test
  void oauthServerUriAndScopeAreHonoured() {
    env.unity.requireOAuth();
    CatalogAuthentication oauth =
        new CatalogAuthentication(
            CatalogAuthenticationScheme.OAUTH2,
            Map.of(CatalogAuthentication.OAUTH2_SERVER_URI, env.unity.uri() + "/oidc/v1/token", CatalogAuthentication.SCOPE, "all-apis"));
    try (CatalogClient client = env.open(Map.of(), oauth, clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      client.validate();
    }
    assertThat(env.unity.tokenScopes()).containsExactly("all-apis");
  }

  @Test
  void wrongClientSecretFailsAuthentication() {
    env.unity.requireOAuth();
    CatalogAuthentication oauth = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2, Map.of());
    try (CatalogClient client = env.open(Map.of(), oauth, clientCredentials("wrong"))) {
      assertThatThrownBy(client::validate).extracting(UnityAuthenticationTest::code).isEqualTo(Code.AUTHENTICATION_FAILED);
    }
  }

  /**
   * tryout: a token endpoint answering 5xx read "the token endpoint failed (HTTP 503)", without
   * saying which endpoint; an unreachable one read "cannot reach the Unity catalog".
   */
  @ParameterizedTest
  @ValueSource(ints = {503, 500})
  void aTokenEndpointAnswering5xxIsNamedByHostAndPortWithItsStatus(int status) throws Exception {
    HttpServer failing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    failing.createContext("/", exchange -> {
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    failing.start();
    int port = failing.getAddress().getPort();
    try (CatalogClient client = env.open(Map.of(), tokenEndpoint(port),
        clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      assertThatThrownBy(client::validate).isInstanceOfSatisfying(CatalogAccessException.class,
          e -> {
            assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
            assertThat(e.getMessage()).contains("the OAuth2 token endpoint at 127.0.0.1:" + port
                + " failed (HTTP " + status + ")");
            assertThat(e.toString()).doesNotContain("tenant").doesNotContain("/oidc")
                .doesNotContain(UnityCatalogFixture.CLIENT_SECRET);
          });
    } finally {
      failing.stop(0);
    }
  }

  /**
   * tryout: a token endpoint answering 404 read "UPSTREAM_PROTOCOL_ERROR: the token endpoint
   * answered HTTP 404", a 429 was not retryable, and an HTML page read "answered something other
   * than JSON", none naming the endpoint; the Iceberg REST provider says each apart.
   */
  @ParameterizedTest
  @CsvSource({"404,INVALID_CONFIGURATION,answered HTTP 404: nothing serves it there",
      "429,CONNECTION_FAILED,failed (HTTP 429)",
      "200,UPSTREAM_PROTOCOL_ERROR,answered a body that is not an OAuth2 token response"})
  void aTokenEndpointServingNothingRateLimitingOrAPageIsNamed(int status, Code code,
      String says) throws Exception {
    HttpServer answering = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    answering.createContext("/", exchange -> {
      byte[] page = "<html>Sign in</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, page.length);
      exchange.getResponseBody().write(page);
      exchange.close();
    });
    answering.start();
    int port = answering.getAddress().getPort();
    try (CatalogClient client = env.open(Map.of(), tokenEndpoint(port),
        clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      assertThatThrownBy(client::validate).isInstanceOfSatisfying(CatalogAccessException.class,
          e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.retryable()).isEqualTo(code == Code.CONNECTION_FAILED);
            assertThat(e.getMessage())
                .contains("the OAuth2 token endpoint at 127.0.0.1:" + port + " " + says);
            assertThat(e.toString()).doesNotContain("tenant").doesNotContain("Sign in")
                .doesNotContain(UnityCatalogFixture.CLIENT_SECRET);
          });
    } finally {
      answering.stop(0);
    }
  }

  @Test
  void anUnreachableTokenEndpointIsNamedAsSuch() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    try (CatalogClient client = env.open(Map.of(), tokenEndpoint(closed),
        clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      assertThatThrownBy(client::validate).isInstanceOfSatisfying(CatalogAccessException.class,
          e -> {
            assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
            assertThat(e.getMessage())
                .contains("cannot reach the OAuth2 token endpoint at 127.0.0.1:" + closed + " (")
                .doesNotContain("tenant");
          });
    }
  }

  private static CatalogAuthentication tokenEndpoint(int port) {
    return new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2,
        Map.of(CatalogAuthentication.OAUTH2_SERVER_URI,
            "http://127.0.0.1:" + port + "/oidc/v1/token?tenant=t1"));
  }

  @Test
  void anExpiredCatalogTokenIsRefreshedMidDiscovery() {
    env.unity.requireOAuth();
    env.unity.expireTokensAfter(1); // each token serves one request, then 401 (expired upstream)
    CatalogAuthentication oauth = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2, Map.of());
    try (CatalogClient client =
        env.open(Map.of("catalog", "main"), oauth, clientCredentials(UnityCatalogFixture.CLIENT_SECRET))) {
      List<NamespacePath> schemas = client.listNamespaces(NamespacePath.root());
      assertThat(schemas).hasSize(101);
    }
    List<String> requests = env.unity.requests();
    // page 1 with token 1; page 2 rejected (401), new token, page 2 again
    assertThat(requests.stream().filter(r -> r.equals("POST /oidc/v1/token")).count()).isEqualTo(2);
    assertThat(requests.stream().filter(r -> r.contains("page_token=")).count()).isEqualTo(2);
  }

  @Test
  void unsupportedSchemesAndUnknownCredentialsAreRefused() {
    assertThatThrownBy(
            () ->
                env.open(
                    Map.of(),
                    new CatalogAuthentication(CatalogAuthenticationScheme.AWS_SIGV4, Map.of()),
                    ResolvedCatalogCredentials.none()))
        .extracting(UnityAuthenticationTest::code)
        .isEqualTo(Code.INVALID_CONFIGURATION);
    assertThatThrownBy(
            () ->
                env.open(
                    Map.of(),
                    new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of()),
                    new ResolvedCatalogCredentials(Map.of("token", "t", "client-id", "x"), Map.of(), null)))
        .extracting(UnityAuthenticationTest::code)
        .isEqualTo(Code.INVALID_CONFIGURATION);
  }
}
