package io.icegate.access.iceberg;

import io.icegate.access.aws.AwsCredentialScope;
import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.iceberg.aws.RegisteredAwsCredentialsProvider;
import io.icegate.access.iceberg.vending.CapturingFileIO;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Translates a connection config plus resolved credentials into the properties of an iceberg-core
 * {@code RESTSessionCatalog}, refusing anything it does not understand instead of passing it on.
 *
 * <p>Connection properties accepted (everything else fails with {@code INVALID_CONFIGURATION}):
 * {@value #WAREHOUSE}, {@value #PAGE_SIZE}, {@value #CONNECT_TIMEOUT}, {@value #SOCKET_TIMEOUT},
 * {@value #MAX_PAGES} (icegate's bound on one listing, default 1000), {@code header.*}, and the
 * storage settings {@value #S3_ENDPOINT}, {@value #S3_PATH_STYLE}, {@value #REGION}.
 *
 * <p>Credentials by scheme: {@code NONE} takes none; {@code BEARER} takes {@code token}; {@code
 * OAUTH2} takes {@code client-id} + {@code client-secret} (client-credentials grant) or {@code
 * token}; {@code AWS_SIGV4} takes {@code aws.access-key-id} + {@code aws.secret-access-key} (+
 * optional {@code aws.session-token}) or a catalog-scoped registration ({@code
 * aws.catalog.registration}). A storage-scoped registration is refused: Integration storage access
 * uses only vended credentials. Credential headers become request headers.
 */
final class SessionProperties {

  static final String WAREHOUSE = "warehouse";
  static final String PAGE_SIZE = "rest-page-size";
  static final String CONNECT_TIMEOUT = "rest.client.connection-timeout-ms";
  static final String SOCKET_TIMEOUT = "rest.client.socket-timeout-ms";
  static final String MAX_PAGES = "icegate.list.max-pages";
  static final String S3_ENDPOINT = "s3.endpoint";
  static final String S3_PATH_STYLE = "s3.path-style-access";
  static final String REGION = "client.region";

  static final Set<String> CONNECTION_PROPERTIES =
      Set.of(
          WAREHOUSE,
          PAGE_SIZE,
          CONNECT_TIMEOUT,
          SOCKET_TIMEOUT,
          MAX_PAGES,
          S3_ENDPOINT,
          S3_PATH_STYLE,
          REGION);
  static final Set<String> STORAGE_SETTINGS = Set.of(S3_ENDPOINT, S3_PATH_STYLE, REGION);

  /** Properties whose value must be a positive whole number. */
  private static final Set<String> POSITIVE_NUMBERS =
      Set.of(PAGE_SIZE, CONNECT_TIMEOUT, SOCKET_TIMEOUT, MAX_PAGES);

  /**
   * Timeouts when the Integration sets none: without them iceberg-core's HTTP client waits minutes
   * on an upstream that accepts connections but stops answering (a tryout held a reconcile for
   * 180 s), and a scheduled round with it.
   */
  static final String DEFAULT_CONNECT_TIMEOUT_MS = "10000";

  static final String DEFAULT_SOCKET_TIMEOUT_MS = "60000";

  private SessionProperties() {}

  /**
   * Checks names and values without credentials or network, as the admin API does when an
   * Integration is written (so a property refused at connection time is refused there, naming it).
   */
  static void check(Map<String, String> properties) {
    for (Map.Entry<String, String> entry : properties.entrySet()) {
      String name = entry.getKey();
      if (!CONNECTION_PROPERTIES.contains(name)
          && !name.startsWith(CatalogConnectionConfig.HEADER_PREFIX)) {
        throw invalid(
            "connection property '" + name + "' is not supported by the Iceberg REST provider");
      }
      if (POSITIVE_NUMBERS.contains(name) && !positive(entry.getValue())) {
        throw invalid("connection property '" + name + "' must be a positive whole number");
      }
      if (name.equals(S3_PATH_STYLE)
          && !entry.getValue().equals("true") && !entry.getValue().equals("false")) {
        throw invalid("connection property '" + name + "' must be true or false");
      }
    }
  }

  /** The catalog properties for {@code RESTSessionCatalog.initialize}. */
  static Map<String, String> of(
      CatalogConnectionConfig config, ResolvedCatalogCredentials credentials) {
    check(config.properties());
    Map<String, String> properties = new HashMap<>();
    properties.put(CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_MS);
    properties.put(SOCKET_TIMEOUT, DEFAULT_SOCKET_TIMEOUT_MS);
    for (Map.Entry<String, String> entry : config.properties().entrySet()) {
      String name = entry.getKey();
      if (!name.equals(MAX_PAGES) && !STORAGE_SETTINGS.contains(name)) {
        properties.put(name, entry.getValue());
      }
    }
    properties.put("uri", config.endpoint().toString());
    // our FileIO: keeps vended credentials, never reads storage (see CapturingFileIO)
    properties.put("io-impl", CapturingFileIO.class.getName());
    properties.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    credentials.headers().forEach((name, value) -> properties.put("header." + name, value));
    authentication(config.authentication(), credentials, properties);
    return properties;
  }

  /** Storage settings for the storage-access check. */
  static Map<String, String> storageSettings(CatalogConnectionConfig config) {
    Map<String, String> settings = new HashMap<>();
    STORAGE_SETTINGS.forEach(
        name -> {
          String value = config.properties().get(name);
          if (value != null) {
            settings.put(name, value);
          }
        });
    return settings;
  }

  static int maxPages(CatalogConnectionConfig config) {
    String value = config.properties().get(MAX_PAGES);
    if (value == null) {
      return 1000;
    }
    if (!positive(value)) {
      throw invalid(MAX_PAGES + " must be a positive whole number");
    }
    return Integer.parseInt(value);
  }

  private static boolean positive(String value) {
    try {
      return Integer.parseInt(value) > 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static void authentication(
      CatalogAuthentication authentication,
      ResolvedCatalogCredentials credentials,
      Map<String, String> properties) {
    Map<String, String> given = credentials.properties();
    Map<String, String> settings = authentication.properties();
    switch (authentication.scheme()) {
      case NONE -> {
        allowOnly(given, Set.of());
        allowOnly(settings, Set.of());
        properties.put("rest.auth.type", "none");
      }
      case BEARER -> {
        allowOnly(given, Set.of(ResolvedCatalogCredentials.TOKEN));
        allowOnly(settings, Set.of());
        // a fixed header, not iceberg-core's OAuth2 client (see StaticBearerAuthManager)
        properties.put("rest.auth.type", StaticBearerAuthManager.class.getName());
        properties.put(
            StaticBearerAuthManager.TOKEN, required(given, ResolvedCatalogCredentials.TOKEN));
      }
      case OAUTH2 -> {
        allowOnly(
            given,
            Set.of(
                ResolvedCatalogCredentials.TOKEN,
                ResolvedCatalogCredentials.CLIENT_ID,
                ResolvedCatalogCredentials.CLIENT_SECRET));
        allowOnly(
            settings, Set.of(CatalogAuthentication.OAUTH2_SERVER_URI, CatalogAuthentication.SCOPE));
        properties.put("rest.auth.type", "oauth2");
        if (given.containsKey(ResolvedCatalogCredentials.TOKEN)) {
          if (given.size() > 1) {
            throw invalid("OAUTH2 takes either a token or client-id and client-secret, not both");
          }
          properties.put("token", required(given, ResolvedCatalogCredentials.TOKEN));
        } else {
          properties.put(
              "credential",
              required(given, ResolvedCatalogCredentials.CLIENT_ID)
                  + ":"
                  + required(given, ResolvedCatalogCredentials.CLIENT_SECRET));
        }
        if (settings.containsKey(CatalogAuthentication.OAUTH2_SERVER_URI)) {
          properties.put(
              "oauth2-server-uri", settings.get(CatalogAuthentication.OAUTH2_SERVER_URI));
        }
        if (settings.containsKey(CatalogAuthentication.SCOPE)) {
          properties.put("scope", settings.get(CatalogAuthentication.SCOPE));
        }
        // a fresh client-credentials grant on refresh works with any OAuth2 server;
        // token exchange needs server support the catalog may lack
        properties.put("token-exchange-enabled", "false");
      }
      case AWS_SIGV4 -> sigv4(given, settings, properties);
      default ->
          throw invalid("authentication scheme " + authentication.scheme() + " is not supported");
    }
  }

  private static void sigv4(
      Map<String, String> given, Map<String, String> settings, Map<String, String> properties) {
    if (given.containsKey(AwsCredentialScope.STORAGE.property())) {
      throw invalid(
          "a storage-scoped AWS registration is not accepted: Integration storage access uses only"
              + " credentials the catalog vends");
    }
    allowOnly(
        given,
        Set.of(
            ResolvedCatalogCredentials.AWS_ACCESS_KEY_ID,
            ResolvedCatalogCredentials.AWS_SECRET_ACCESS_KEY,
            ResolvedCatalogCredentials.AWS_SESSION_TOKEN,
            AwsCredentialScope.CATALOG.property()));
    allowOnly(
        settings, Set.of(CatalogAuthentication.SIGNING_REGION, CatalogAuthentication.SIGNING_NAME));
    properties.put("rest.auth.type", "sigv4");
    properties.put("rest.sigv4.delegate-auth-type", "none");
    properties.put("rest.signing-region", required(settings, CatalogAuthentication.SIGNING_REGION));
    properties.put(
        "rest.signing-name",
        settings.getOrDefault(CatalogAuthentication.SIGNING_NAME, "execute-api"));
    String registration = given.get(AwsCredentialScope.CATALOG.property());
    if (registration != null) {
      if (given.size() > 1) {
        throw invalid("AWS_SIGV4 takes either static keys or a catalog registration, not both");
      }
      // Iceberg's SigV4 signer falls back to client.credentials-provider when no rest.* keys are
      // set; pointing it at the catalog-scoped registration keeps ambient credentials out.
      properties.put(
          "client.credentials-provider", RegisteredAwsCredentialsProvider.class.getName());
      properties.put(
          "client.credentials-provider." + RegisteredAwsCredentialsProvider.REGISTRATION,
          registration);
      return;
    }
    properties.put(
        "rest.access-key-id", required(given, ResolvedCatalogCredentials.AWS_ACCESS_KEY_ID));
    properties.put(
        "rest.secret-access-key",
        required(given, ResolvedCatalogCredentials.AWS_SECRET_ACCESS_KEY));
    if (given.containsKey(ResolvedCatalogCredentials.AWS_SESSION_TOKEN)) {
      properties.put("rest.session-token", given.get(ResolvedCatalogCredentials.AWS_SESSION_TOKEN));
    }
  }

  private static void allowOnly(Map<String, String> given, Set<String> allowed) {
    Set<String> unknown = new HashSet<>(given.keySet());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      throw invalid(
          "unsupported credential or authentication properties for this scheme: "
              + new java.util.TreeSet<>(unknown));
    }
  }

  private static String required(Map<String, String> given, String name) {
    String value = given.get(name);
    if (value == null || value.isEmpty()) {
      throw invalid("missing credential or authentication property '" + name + "'");
    }
    return value;
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }
}
