package io.icegate.access.unity;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.storage.s3.VendedS3Client;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Unity provider's connection properties (seed 001 "Unity Catalog slice"), parsed once when a
 * client opens. Unknown properties fail with {@code INVALID_CONFIGURATION} rather than being
 * ignored, so a misspelt {@code catalog} never silently widens discovery to every catalog.
 *
 * <ul>
 *   <li>{@code catalog}: optional; its schemas become root namespaces. Absent: catalogs are root
 *       namespaces and schemas sit below them.
 *   <li>{@code http.connect.ms} (default 10000), {@code http.read.ms} (default 30000): catalog and
 *       token request timeouts in milliseconds.
 *   <li>{@code unity.temporary-table-vend-path}: where credentials are vended; relative to the API
 *       base ({@code temporary-table-credentials}, the default) or an absolute path on the endpoint
 *       host.
 *   <li>{@code s3.region}, {@code s3.endpoint}, {@code s3.path-style-access}: how the vended
 *       credentials reach the object store.
 *   <li>{@code header.<name>}: an extra non-secret header on every catalog request.
 * </ul>
 *
 * @param apiBase the API root ending in {@code /api/2.1/unity-catalog/}
 * @param catalog the configured catalog, or {@code null}
 * @param connectTimeout connect timeout for catalog and token requests
 * @param readTimeout response timeout for catalog and token requests
 * @param vendUri the temporary-table-credentials endpoint
 * @param s3Settings store settings by {@link VendedS3Client} names
 * @param headers extra headers from {@code header.*}
 */
public record UnitySettings(
    URI apiBase,
    String catalog,
    Duration connectTimeout,
    Duration readTimeout,
    URI vendUri,
    Map<String, String> s3Settings,
    Map<String, String> headers) {

  public static final String CATALOG = "catalog";
  public static final String HTTP_CONNECT_MS = "http.connect.ms";
  public static final String HTTP_READ_MS = "http.read.ms";
  public static final String VEND_PATH = "unity.temporary-table-vend-path";
  public static final String S3_REGION = "s3.region";
  public static final String S3_ENDPOINT = "s3.endpoint";
  public static final String S3_PATH_STYLE_ACCESS = "s3.path-style-access";

  static final String API_PATH = "/api/2.1/unity-catalog";
  static final String DEFAULT_VEND_PATH = "temporary-table-credentials";

  private static final Set<String> KNOWN =
      Set.of(
          CATALOG,
          HTTP_CONNECT_MS,
          HTTP_READ_MS,
          VEND_PATH,
          S3_REGION,
          S3_ENDPOINT,
          S3_PATH_STYLE_ACCESS);

  /**
   * @throws CatalogAccessException {@code INVALID_CONFIGURATION} naming an unknown property or a
   *     value that does not parse
   */
  public static UnitySettings from(CatalogConnectionConfig config) {
    Map<String, String> props = config.properties();
    Map<String, String> headers = new HashMap<>();
    for (Map.Entry<String, String> e : props.entrySet()) {
      String name = e.getKey();
      if (name.toLowerCase(Locale.ROOT).startsWith(CatalogConnectionConfig.HEADER_PREFIX)) {
        headers.put(name.substring(CatalogConnectionConfig.HEADER_PREFIX.length()), e.getValue());
      } else if (!KNOWN.contains(name)) {
        throw invalid("unknown Unity connection property '" + name + "'");
      }
    }
    URI apiBase = apiBase(config.endpoint());
    String catalog = props.get(CATALOG);
    if (catalog != null && catalog.isBlank()) {
      throw invalid("property 'catalog' is empty");
    }
    String vendPath = props.getOrDefault(VEND_PATH, DEFAULT_VEND_PATH);
    URI vendUri;
    try {
      vendUri = apiBase.resolve(vendPath);
    } catch (IllegalArgumentException e) {
      throw invalid("property '" + VEND_PATH + "' is not a URI path");
    }
    if (!vendUri.getHost().equals(apiBase.getHost()) || vendUri.getPort() != apiBase.getPort()) {
      throw invalid("property '" + VEND_PATH + "' must stay on the catalog host");
    }
    Map<String, String> s3 = new HashMap<>();
    copy(props, S3_REGION, s3, VendedS3Client.REGION);
    copy(props, S3_ENDPOINT, s3, VendedS3Client.ENDPOINT);
    copy(props, S3_PATH_STYLE_ACCESS, s3, VendedS3Client.PATH_STYLE_ACCESS);
    if (s3.containsKey(VendedS3Client.ENDPOINT)) {
      try {
        URI endpoint = URI.create(s3.get(VendedS3Client.ENDPOINT));
        if (!endpoint.isAbsolute() || endpoint.getHost() == null) {
          throw invalid("property 's3.endpoint' must be an absolute URI");
        }
      } catch (IllegalArgumentException e) {
        throw invalid("property 's3.endpoint' is not a URI");
      }
    }
    return new UnitySettings(
        apiBase,
        catalog,
        millis(props, HTTP_CONNECT_MS, 10_000),
        millis(props, HTTP_READ_MS, 30_000),
        vendUri,
        Map.copyOf(s3),
        Map.copyOf(headers));
  }

  /**
   * Accepts the server root ({@code https://host}) or the API root itself; an endpoint that
   * already ends in the API path is not extended twice.
   */
  private static URI apiBase(URI endpoint) {
    String text = endpoint.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    if (!text.endsWith(API_PATH)) {
      text = text + API_PATH;
    }
    return URI.create(text + "/");
  }

  private static void copy(Map<String, String> from, String key, Map<String, String> to, String as) {
    String value = from.get(key);
    if (value != null) {
      to.put(as, value);
    }
  }

  private static Duration millis(Map<String, String> props, String key, long fallback) {
    String value = props.get(key);
    if (value == null) {
      return Duration.ofMillis(fallback);
    }
    try {
      long ms = Long.parseLong(value.trim());
      if (ms <= 0) {
        throw invalid("property '" + key + "' must be a positive number of milliseconds");
      }
      return Duration.ofMillis(ms);
    } catch (NumberFormatException e) {
      throw invalid("property '" + key + "' is not a number of milliseconds");
    }
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }
}
