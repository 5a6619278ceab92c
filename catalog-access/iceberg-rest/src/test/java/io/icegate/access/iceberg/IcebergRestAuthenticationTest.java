package io.icegate.access.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.icegate.access.aws.AwsCredentialScope;
import io.icegate.access.aws.AwsCredentialsRegistration;
import io.icegate.access.aws.RefreshingAwsCredentialsRegistry;
import io.icegate.access.aws.ResolvedAwsCredentials;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.client.CatalogClient;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.fixture.OAuthTokenFilter;
import io.icegate.access.model.NamespacePath;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

class IcebergRestAuthenticationTest {

  private static final String AWS_KEY_ID = "AKIDCATALOGSIGNER";
  private static final String AWS_SECRET = "catalog-signing-secret-Planted";

  private static UpstreamCatalog upstream;

  @BeforeAll
  static void start() throws Exception {
    upstream = new UpstreamCatalog();
    upstream.fixture.oauth().requireAuthentication(true);
  }

  @AfterAll
  static void stop() throws Exception {
    upstream.close();
  }

  @AfterEach
  void reset() {
    upstream.fixture.oauth().tokenLifetime(Duration.ofHours(1));
    upstream.fixture.oauth().downUntil(Instant.MIN);
  }

  private static CatalogAuthentication oauth() {
    return new CatalogAuthentication(
        CatalogAuthenticationScheme.OAUTH2, Map.of("scope", "catalog"));
  }

  private static ResolvedCatalogCredentials clientCredentials(String secret) {
    return new ResolvedCatalogCredentials(
        Map.of("client-id", OAuthTokenFilter.CLIENT_ID, "client-secret", secret), Map.of(), null);
  }

  private static CatalogAuthentication sigv4() {
    return new CatalogAuthentication(
        CatalogAuthenticationScheme.AWS_SIGV4,
        Map.of("signing-region", "us-east-1", "signing-name", "execute-api"));
  }

  @Test
  void anUnauthenticatedClientIsRefused() {
    try (CatalogClient client = upstream.anonymous()) {
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.AUTHENTICATION_FAILED));
    }
  }

  @Test
  void oauth2ClientCredentials() {
    int before = upstream.fixture.oauth().tokenRequests();
    try (CatalogClient client =
        upstream.open(
            upstream.config(oauth()), clientCredentials(OAuthTokenFilter.CLIENT_SECRET))) {
      client.validate();
      assertThat(client.listNamespaces(NamespacePath.of("sales"))).isNotEmpty();
    }
    assertThat(upstream.fixture.oauth().tokenRequests()).isGreaterThan(before);
  }

  @Test
  void oauth2WithAWrongSecretFailsAuthentication() {
    try (CatalogClient client =
        upstream.open(upstream.config(oauth()), clientCredentials("wrong-secret"))) {
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.AUTHENTICATION_FAILED))
          .satisfies(e -> assertThat(e.toString()).doesNotContain("wrong-secret"))
          // the fixture's token endpoint sends no error_description: never "invalid_client: null"
          .satisfies(e -> assertThat(e.getMessage()).contains("invalid_client")
              .contains("did not accept the client id and secret").doesNotContain("null"));
    }
  }

  /** tryout: an unreachable token endpoint was reported as "cannot reach the catalog". */
  @Test
  void anUnreachableTokenEndpointIsNamedAsSuchByHostAndPort() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    CatalogAuthentication elsewhere = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2,
        Map.of("scope", "catalog", CatalogAuthentication.OAUTH2_SERVER_URI,
            "http://127.0.0.1:" + closed + "/oauth/tokens?tenant=t1"));
    assertThatThrownBy(() -> {
      try (CatalogClient client = upstream.open(upstream.config(elsewhere),
          clientCredentials(OAuthTokenFilter.CLIENT_SECRET))) {
        client.validate();
      }
    }).isInstanceOfSatisfying(CatalogAccessException.class, e -> {
      assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
      assertThat(e.getMessage())
          .contains("cannot reach the OAuth2 token endpoint at 127.0.0.1:" + closed + " (")
          .doesNotContain("tenant").doesNotContain(OAuthTokenFilter.CLIENT_SECRET);
    });
  }

  /**
   * tryout: a token endpoint answering 5xx read "catalog session setup failed: Unable to process",
   * naming neither the token endpoint nor the status.
   */
  @ParameterizedTest
  @ValueSource(ints = {503, 500, 429})
  void aTokenEndpointAnswering5xxIsNamedWithItsStatus(int status) throws Exception {
    assertTokenEndpointFailure(status, e -> {
      assertThat(e.code()).isEqualTo(Code.CONNECTION_FAILED);
      assertThat(e.retryable()).isTrue();
      assertThat(e.getMessage()).contains("failed (HTTP " + status + ")");
    });
  }

  /**
   * Tryout: a token endpoint address with nothing behind it (a wrong oauth2-server-uri) read
   * "catalog session setup failed", retryable, as if the upstream were down: it is the admin's
   * configuration, named as such.
   */
  @ParameterizedTest
  @ValueSource(ints = {404, 405})
  void aTokenEndpointAddressServingNothingIsTheConfigurations(int status) throws Exception {
    assertTokenEndpointFailure(status, e -> {
      assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION);
      assertThat(e.retryable()).isFalse();
      assertThat(e.getMessage()).contains("answered HTTP " + status).contains("tokenUri")
          .contains("oauth2-server-uri");
    });
  }

  /** A token endpoint answering {@code status}: the failure names it by host and port only. */
  private void assertTokenEndpointFailure(int status, Consumer<CatalogAccessException> check)
      throws Exception {
    HttpServer failing = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    failing.createContext("/", exchange -> {
      byte[] body = "{\"error\":\"temporarily_unavailable\"}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    failing.start();
    int port = failing.getAddress().getPort();
    CatalogAuthentication elsewhere = new CatalogAuthentication(CatalogAuthenticationScheme.OAUTH2,
        Map.of("scope", "catalog", CatalogAuthentication.OAUTH2_SERVER_URI,
            "http://127.0.0.1:" + port + "/oauth/tokens?tenant=t1"));
    try {
      assertThatThrownBy(() -> {
        try (CatalogClient client = upstream.open(upstream.config(elsewhere),
            clientCredentials(OAuthTokenFilter.CLIENT_SECRET))) {
          client.validate();
        }
      }).isInstanceOfSatisfying(CatalogAccessException.class, e -> {
        check.accept(e);
        assertThat(e.getMessage())
            .contains("the OAuth2 token endpoint at 127.0.0.1:" + port + " ")
            .doesNotContain("session setup failed");
        assertThat(e.toString()).doesNotContain("tenant").doesNotContain("/oauth")
            .doesNotContain(OAuthTokenFilter.CLIENT_SECRET);
      });
    } finally {
      failing.stop(0);
    }
  }

  @Test
  void bearerToken() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(upstream.fixture.uri() + "/v1/oauth/tokens"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "grant_type=client_credentials&client_id="
                                + OAuthTokenFilter.CLIENT_ID
                                + "&client_secret="
                                + OAuthTokenFilter.CLIENT_SECRET))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    String token = new ObjectMapper().readTree(response.body()).get("access_token").asText();
    // a static token: sent as it is, with no OAuth2 client around it (iceberg-core's OAuth2Manager
    // warned on every session about an oauth2-server-uri a bearer Integration does not take)
    ch.qos.logback.classic.Logger iceberg =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.apache.iceberg");
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logs =
        new ch.qos.logback.core.read.ListAppender<>();
    logs.start();
    iceberg.addAppender(logs);
    int tokenRequests = upstream.fixture.oauth().tokenRequests();
    try {
      for (int round = 0; round < 2; round++) {
        try (CatalogClient client =
            upstream.open(
                upstream.config(
                    new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of())),
                new ResolvedCatalogCredentials(Map.of("token", token), Map.of(), null))) {
          client.validate();
          assertThat(client.listNamespaces(NamespacePath.of("sales"))).isNotEmpty();
        }
      }
    } finally {
      iceberg.detachAppender(logs);
    }
    assertThat(logs.list)
        .filteredOn(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN))
        .extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
        .noneMatch(m -> m.contains("OAuth2") || m.contains("oauth2-server-uri"));
    assertThat(upstream.fixture.oauth().tokenRequests()).isEqualTo(tokenRequests);
    // a wrong token is still refused, and iceberg-core's warnings are not switched off
    try (CatalogClient client =
        upstream.open(
            upstream.config(
                new CatalogAuthentication(CatalogAuthenticationScheme.BEARER, Map.of())),
            new ResolvedCatalogCredentials(Map.of("token", "not-a-token"), Map.of(), null))) {
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.AUTHENTICATION_FAILED));
    }
    assertThat(iceberg.isWarnEnabled()).isTrue();
    assertThat(org.slf4j.LoggerFactory.getLogger(
        org.apache.iceberg.rest.auth.OAuth2Manager.class).isWarnEnabled()).isTrue();
  }

  @Test
  void sigv4StaticKeysAreVerifiedByRecomputingTheSignature() {
    upstream
        .fixture
        .sigv4()
        .expect(AwsBasicCredentials.create(AWS_KEY_ID, AWS_SECRET), "us-east-1", "execute-api");
    int before = upstream.fixture.sigv4().verifiedRequests();
    try (CatalogClient client =
        upstream.open(
            upstream.config(sigv4()),
            new ResolvedCatalogCredentials(
                Map.of("aws.access-key-id", AWS_KEY_ID, "aws.secret-access-key", AWS_SECRET),
                Map.of(),
                null))) {
      client.validate();
      assertThat(client.listNamespaces(NamespacePath.of("sales"))).isNotEmpty();
    }
    assertThat(upstream.fixture.sigv4().verifiedRequests()).isGreaterThan(before);
  }

  @Test
  void sigv4WithAWrongSecretIsRejectedByTheVerifier() {
    upstream
        .fixture
        .sigv4()
        .expect(AwsBasicCredentials.create(AWS_KEY_ID, AWS_SECRET), "us-east-1", "execute-api");
    try (CatalogClient client =
        upstream.open(
            upstream.config(sigv4()),
            new ResolvedCatalogCredentials(
                Map.of("aws.access-key-id", AWS_KEY_ID, "aws.secret-access-key", "not-the-secret"),
                Map.of(),
                null))) {
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.code()).isEqualTo(Code.PERMISSION_DENIED));
    }
  }

  @Test
  void sigv4ThroughACatalogScopedRenewableRegistration() {
    upstream
        .fixture
        .sigv4()
        .expect(
            AwsSessionCredentials.create(AWS_KEY_ID, AWS_SECRET, "session-2"),
            "us-east-1",
            "execute-api");
    try (AwsCredentialsRegistration registration =
            RefreshingAwsCredentialsRegistry.register(
                new ResolvedAwsCredentials(
                    AWS_KEY_ID, AWS_SECRET, "session-1", Instant.now().minusSeconds(1)),
                () ->
                    new ResolvedAwsCredentials(
                        AWS_KEY_ID, AWS_SECRET, "session-2", Instant.now().plusSeconds(3600)));
        CatalogClient client =
            upstream.open(
                upstream.config(sigv4()),
                new ResolvedCatalogCredentials(
                    RefreshingAwsCredentialsRegistry.propertiesFor(
                        registration, AwsCredentialScope.CATALOG),
                    Map.of(),
                    null))) {
      // the initial credentials are expired: signing succeeds only with the refreshed session
      client.validate();
    }
  }

  @Test
  void aStorageScopedRegistrationIsRefused() {
    assertThatThrownBy(
            () ->
                upstream.open(
                    upstream.config(sigv4()),
                    new ResolvedCatalogCredentials(
                        Map.of("aws.storage.registration", "x"), Map.of(), null)))
        .isInstanceOfSatisfying(
            CatalogAccessException.class,
            e -> assertThat(e.code()).isEqualTo(Code.INVALID_CONFIGURATION));
  }

  @Test
  void tokenEndpointDownForFiveSecondsThenBackRecovers() throws Exception {
    upstream.fixture.oauth().tokenLifetime(Duration.ofSeconds(2));
    try (CatalogClient client =
        upstream.open(
            upstream.config(oauth()), clientCredentials(OAuthTokenFilter.CLIENT_SECRET))) {
      client.validate();
      Instant back = Instant.now().plusSeconds(5);
      upstream.fixture.oauth().downUntil(back);
      Thread.sleep(2500); // the token expires while the endpoint is down
      assertThatThrownBy(client::validate)
          .isInstanceOfSatisfying(
              CatalogAccessException.class,
              e -> assertThat(e.retryable()).as(e.toString()).isTrue());
      while (Instant.now().isBefore(back.plusMillis(200))) {
        Thread.sleep(200);
      }
      upstream.fixture.oauth().tokenLifetime(Duration.ofHours(1));
      client.validate();
      assertThat(client.listNamespaces(NamespacePath.root())).contains(NamespacePath.of("sales"));
    }
  }
}
