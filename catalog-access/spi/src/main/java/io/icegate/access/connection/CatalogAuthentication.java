package io.icegate.access.connection;

import io.icegate.access.client.CatalogAccessException.Code;
import java.util.Map;
import java.util.Objects;

/**
 * The persistable half of catalog authentication: the scheme and its non-secret settings (token
 * endpoint, scope, signing region and name). The secret half travels separately in {@link
 * ResolvedCatalogCredentials}.
 *
 * @param scheme how the client authenticates
 * @param properties non-secret settings; a secret-bearing name or credential-provider handle fails
 *     with {@link Code#INVALID_CONFIGURATION} naming the key (never its value)
 */
public record CatalogAuthentication(
    CatalogAuthenticationScheme scheme, Map<String, String> properties) {

  /**
   * Token endpoint for {@link CatalogAuthenticationScheme#OAUTH2} (absolute, or relative to the
   * catalog URI).
   */
  public static final String OAUTH2_SERVER_URI = "oauth2-server-uri";

  /** OAuth2 scope requested with the client-credentials grant. */
  public static final String SCOPE = "scope";

  /** SigV4 signing region, e.g. {@code us-east-1}. */
  public static final String SIGNING_REGION = "signing-region";

  /** SigV4 signing name (service), e.g. {@code execute-api} or {@code glue}. */
  public static final String SIGNING_NAME = "signing-name";

  public CatalogAuthentication {
    Objects.requireNonNull(scheme, "scheme");
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    ConfigurationChecks.requireNoSecrets("authentication property", properties.keySet());
  }

  /** No authentication (tests, public catalogs). */
  public static CatalogAuthentication none() {
    return new CatalogAuthentication(CatalogAuthenticationScheme.NONE, Map.of());
  }

  @Override
  public String toString() {
    return "CatalogAuthentication[" + scheme + " " + Redaction.names(properties) + "]";
  }
}
