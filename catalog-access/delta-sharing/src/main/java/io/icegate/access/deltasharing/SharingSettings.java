package io.icegate.access.deltasharing;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogAuthenticationScheme;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.storage.VendedStorageCredentials;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the Delta Sharing provider reads from a connection, refusing anything it does not
 * understand.
 *
 * <p>Authentication: {@code BEARER} only, with exactly the credential property {@code token} (the
 * recipient token of the provider's profile file); the protocol defines no other scheme (seed 000
 * "Delta Sharing accepts only bearer authentication"). Anything else fails with {@code
 * INVALID_CONFIGURATION}.
 *
 * <p>Connection properties: {@value #STRICT_ACCESS_MODES} ({@code true} refuses a table that states
 * no access modes without asking; default {@code false}), {@value #MAX_RESULTS} (the {@code
 * maxResults} sent on listings; default: the server's choice), {@value #MAX_PAGES} (icegate's bound
 * on one listing, default 1000), {@value #TIMEOUT_MS} (connect and request timeout, default 30000),
 * {@code header.*}, and the storage settings used to read with vended credentials: {@value
 * VendedStorageCredentials#S3_ENDPOINT}, {@value VendedStorageCredentials#S3_PATH_STYLE_ACCESS},
 * {@value VendedStorageCredentials#S3_REGION}.
 *
 * @param token the recipient's bearer token
 * @param strictAccessModes whether an absent {@code accessModes} means url only (the protocol's
 *     reading) instead of "ask"
 * @param maxResults page size to request, or {@code null}
 * @param maxPages bound on the pages of one listing
 * @param timeout connect and request timeout
 * @param headers extra request headers
 * @param storageSettings endpoint, region and path style for storage reads
 */
record SharingSettings(
    String token,
    boolean strictAccessModes,
    Integer maxResults,
    int maxPages,
    Duration timeout,
    Map<String, String> headers,
    Map<String, String> storageSettings) {

  static final String STRICT_ACCESS_MODES = "delta.sharing.strict-access-modes";
  static final String MAX_RESULTS = "delta.sharing.max-results";
  static final String MAX_PAGES = "icegate.list.max-pages";
  static final String TIMEOUT_MS = "delta.sharing.timeout-ms";

  static final Set<String> STORAGE_SETTINGS =
      Set.of(
          VendedStorageCredentials.S3_ENDPOINT,
          VendedStorageCredentials.S3_PATH_STYLE_ACCESS,
          VendedStorageCredentials.S3_REGION);

  /** Not printed: it holds the token. */
  @Override
  public String toString() {
    return "SharingSettings[strictAccessModes="
        + strictAccessModes
        + ", maxResults="
        + maxResults
        + "]";
  }

  static SharingSettings of(
      CatalogConnectionConfig config, ResolvedCatalogCredentials credentials) {
    CatalogAuthenticationScheme scheme = config.authentication().scheme();
    if (scheme != CatalogAuthenticationScheme.BEARER) {
      throw invalid(
          "Delta Sharing accepts only BEARER authentication (the recipient token), not " + scheme);
    }
    if (!config.authentication().properties().isEmpty()) {
      throw invalid("BEARER authentication of Delta Sharing takes no authentication properties");
    }
    if (!credentials.properties().keySet().equals(Set.of(ResolvedCatalogCredentials.TOKEN))) {
      throw invalid(
          "Delta Sharing takes exactly the credential property '"
              + ResolvedCatalogCredentials.TOKEN
              + "', got "
              + new java.util.TreeSet<>(credentials.properties().keySet()));
    }
    String token = credentials.property(ResolvedCatalogCredentials.TOKEN);
    if (token == null || token.isBlank()) {
      throw invalid("the recipient token is empty");
    }
    Map<String, String> headers = new HashMap<>(credentials.headers());
    Map<String, String> storage = new HashMap<>();
    Map<String, String> properties = config.properties();
    for (Map.Entry<String, String> entry : properties.entrySet()) {
      String name = entry.getKey();
      if (name.startsWith(CatalogConnectionConfig.HEADER_PREFIX)) {
        headers.put(
            name.substring(CatalogConnectionConfig.HEADER_PREFIX.length()), entry.getValue());
      } else if (STORAGE_SETTINGS.contains(name)) {
        storage.put(name, entry.getValue());
      } else if (!Set.of(STRICT_ACCESS_MODES, MAX_RESULTS, MAX_PAGES, TIMEOUT_MS).contains(name)) {
        throw invalid(
            "connection property '" + name + "' is not supported by the Delta Sharing provider");
      }
    }
    Values values = Values.of(properties);
    return new SharingSettings(
        token,
        values.strictAccessModes(),
        values.maxResults(),
        values.maxPages(),
        values.timeout(),
        Map.copyOf(headers),
        Map.copyOf(storage));
  }

  /**
   * The typed connection properties, parsed without credentials: what {@link
   * DeltaSharingProvider#checkProperties} checks when an Integration is written.
   */
  record Values(boolean strictAccessModes, Integer maxResults, int maxPages, Duration timeout) {

    static Values of(Map<String, String> properties) {
      String strict = properties.getOrDefault(STRICT_ACCESS_MODES, "false");
      if (!strict.equals("true") && !strict.equals("false")) {
        throw invalid(STRICT_ACCESS_MODES + " must be true or false");
      }
      String maxResults = properties.get(MAX_RESULTS);
      return new Values(
          Boolean.parseBoolean(strict),
          maxResults == null ? null : positive(MAX_RESULTS, maxResults),
          positive(MAX_PAGES, properties.getOrDefault(MAX_PAGES, "1000")),
          Duration.ofMillis(positive(TIMEOUT_MS, properties.getOrDefault(TIMEOUT_MS, "30000"))));
    }
  }

  private static int positive(String name, String value) {
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed < 1) {
        throw invalid(name + " must be positive");
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw invalid(name + " is not a number");
    }
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }
}
