package io.icegate.access.connection;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to reach an upstream catalog that may be stored: protocol, endpoint, provider
 * properties and the non-secret half of authentication (seed 001 "Connection boundary").
 *
 * <p>Rules, each failing with {@link Code#INVALID_CONFIGURATION} that names the offending key and
 * never its value: the endpoint is an absolute {@code http}/{@code https} URI with a host, no
 * user-info, no fragment and no secret-bearing query parameter; no property is secret-bearing (see
 * {@link SecretBearingNames}) or a credential-provider handle; {@code header.*} properties (extra
 * HTTP headers) follow the same rule on the header name.
 *
 * <p>{@link #toString()} keeps names and redacts every property value and query value.
 *
 * @param protocol which provider serves this connection
 * @param endpoint the catalog's base URI, e.g. {@code https://catalog.example/v1} for Iceberg REST
 *     (Iceberg clients append {@code /v1/...} themselves: pass the URI a client would be given)
 * @param properties provider properties (see each provider's documentation)
 * @param authentication scheme and non-secret settings
 */
public record CatalogConnectionConfig(
    CatalogProtocol protocol,
    URI endpoint,
    Map<String, String> properties,
    CatalogAuthentication authentication) {

  /** Prefix of properties that become HTTP headers on every catalog request. */
  public static final String HEADER_PREFIX = "header.";

  public CatalogConnectionConfig {
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(endpoint, "endpoint");
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    authentication = authentication == null ? CatalogAuthentication.none() : authentication;
    checkEndpoint(endpoint);
    ConfigurationChecks.requireNoSecrets("property", properties.keySet());
    List<String> headers = new ArrayList<>();
    for (String name : properties.keySet()) {
      if (name.toLowerCase(Locale.ROOT).startsWith(HEADER_PREFIX)) {
        headers.add(name.substring(HEADER_PREFIX.length()));
      }
    }
    ConfigurationChecks.requireNoSecrets("header", headers);
  }

  private static void checkEndpoint(URI endpoint) {
    if (!endpoint.isAbsolute() || endpoint.isOpaque()) {
      throw invalid("endpoint must be an absolute http or https URI");
    }
    String scheme = endpoint.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw invalid("endpoint scheme '" + scheme + "' is not supported; use http or https");
    }
    if (endpoint.getHost() == null || endpoint.getHost().isBlank()) {
      throw invalid("endpoint has no host");
    }
    if (endpoint.getRawUserInfo() != null) {
      throw invalid(
          "endpoint carries user-info; supply credentials through ResolvedCatalogCredentials");
    }
    if (endpoint.getRawFragment() != null) {
      throw invalid("endpoint carries a fragment");
    }
    List<String> queryNames = queryNames(endpoint);
    ConfigurationChecks.requireNoSecrets("endpoint query parameter", queryNames);
  }

  private static List<String> queryNames(URI uri) {
    List<String> names = new ArrayList<>();
    String query = uri.getRawQuery();
    if (query == null || query.isEmpty()) {
      return names;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String raw = eq < 0 ? pair : pair.substring(0, eq);
      names.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
    }
    return names;
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }

  /** The endpoint with query values replaced by the redaction marker. */
  private String redactedEndpoint() {
    String query = endpoint.getRawQuery();
    if (query == null) {
      return endpoint.toString();
    }
    StringBuilder redacted = new StringBuilder();
    for (String name : queryNames(endpoint)) {
      redacted
          .append(redacted.length() == 0 ? "" : "&")
          .append(name)
          .append('=')
          .append(Redaction.MARKER);
    }
    String text = endpoint.toString();
    return text.substring(0, text.indexOf('?') + 1) + redacted;
  }

  @Override
  public String toString() {
    return "CatalogConnectionConfig[protocol="
        + protocol
        + ", endpoint="
        + redactedEndpoint()
        + ", properties="
        + Redaction.names(properties)
        + ", authentication="
        + authentication
        + "]";
  }
}
