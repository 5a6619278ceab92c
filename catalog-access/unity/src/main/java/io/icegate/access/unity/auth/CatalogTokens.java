package io.icegate.access.unity.auth;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import io.icegate.access.connection.CatalogAuthentication;
import io.icegate.access.connection.CatalogConnectionConfig;
import io.icegate.access.connection.ResolvedCatalogCredentials;
import io.icegate.access.unity.UnitySettings;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;

/**
 * Where the catalog's bearer token comes from. Catalog tokens only authenticate catalog requests;
 * storage access always goes through vended credentials, so nothing here ever reaches the object
 * store (seed 001: catalog-token refresh kept separate from storage vending).
 */
public sealed interface CatalogTokens permits CatalogTokens.Anonymous, CatalogTokens.Static,
    ClientCredentialsTokens {

  /** The token to send now, or empty for anonymous access. */
  Optional<String> current();

  /**
   * Called after the catalog answered 401 to {@code rejected}: whether a retry with a fresh token
   * is worth it (only OAuth client credentials can mint one).
   */
  boolean refreshAfterRejection(String rejected);

  /** No authentication. */
  record Anonymous() implements CatalogTokens {
    @Override
    public Optional<String> current() {
      return Optional.empty();
    }

    @Override
    public boolean refreshAfterRejection(String rejected) {
      return false;
    }
  }

  /** A bearer token fixed for the client's lifetime; a 401 is final. */
  record Static(String token) implements CatalogTokens {
    @Override
    public Optional<String> current() {
      return Optional.of(token);
    }

    @Override
    public boolean refreshAfterRejection(String rejected) {
      return false;
    }

    @Override
    public String toString() {
      return "Static[****]";
    }
  }

  /**
   * Chooses the token source for a connection.
   *
   * <ul>
   *   <li>{@code NONE}: no credential properties allowed.
   *   <li>{@code BEARER}: exactly {@code token}.
   *   <li>{@code OAUTH2}: {@code client-id} and {@code client-secret}; the token endpoint is the
   *       {@code oauth2-server-uri} authentication property (absolute, or relative to the catalog
   *       URI), else {@code /oidc/v1/token} resolved against the catalog URI; optional {@code
   *       scope}.
   * </ul>
   *
   * @throws CatalogAccessException {@code INVALID_CONFIGURATION} for another scheme, a missing
   *     property or an unknown one
   */
  static CatalogTokens forConnection(
      CatalogConnectionConfig config,
      ResolvedCatalogCredentials credentials,
      UnitySettings settings,
      TokenEndpointTransport transport,
      Clock clock) {
    CatalogAuthentication auth = config.authentication();
    switch (auth.scheme()) {
      case NONE -> {
        onlyKnown(credentials, Set.of());
        return new Anonymous();
      }
      case BEARER -> {
        onlyKnown(credentials, Set.of(ResolvedCatalogCredentials.TOKEN));
        return new Static(required(credentials, ResolvedCatalogCredentials.TOKEN));
      }
      case OAUTH2 -> {
        onlyKnown(
            credentials,
            Set.of(ResolvedCatalogCredentials.CLIENT_ID, ResolvedCatalogCredentials.CLIENT_SECRET));
        for (String name : auth.properties().keySet()) {
          if (!name.equals(CatalogAuthentication.OAUTH2_SERVER_URI)
              && !name.equals(CatalogAuthentication.SCOPE)) {
            throw invalid("unknown OAuth2 authentication property '" + name + "'");
          }
        }
        String configured = auth.properties().get(CatalogAuthentication.OAUTH2_SERVER_URI);
        URI tokenUri;
        try {
          tokenUri =
              config.endpoint().resolve(configured == null ? "/oidc/v1/token" : configured);
        } catch (IllegalArgumentException e) {
          throw invalid("authentication property 'oauth2-server-uri' is not a URI");
        }
        return new ClientCredentialsTokens(
            tokenUri,
            required(credentials, ResolvedCatalogCredentials.CLIENT_ID),
            required(credentials, ResolvedCatalogCredentials.CLIENT_SECRET),
            auth.properties().get(CatalogAuthentication.SCOPE),
            transport,
            clock);
      }
      default ->
          throw invalid(
              "authentication scheme " + auth.scheme() + " is not supported by Unity Catalog");
    }
  }

  private static void onlyKnown(ResolvedCatalogCredentials credentials, Set<String> known) {
    for (String name : credentials.properties().keySet()) {
      if (!known.contains(name)) {
        throw invalid("credential property '" + name + "' is not used by this scheme");
      }
    }
  }

  private static String required(ResolvedCatalogCredentials credentials, String name) {
    String value = credentials.property(name);
    if (value == null || value.isEmpty()) {
      throw invalid("credential property '" + name + "' is missing");
    }
    return value;
  }

  private static CatalogAccessException invalid(String message) {
    return new CatalogAccessException(Code.INVALID_CONFIGURATION, message);
  }

  /** Sends the token request; separate so the policy-checked HTTP path is shared. */
  @FunctionalInterface
  interface TokenEndpointTransport {
    /**
     * POSTs a form to {@code uri} with HTTP Basic client authentication and returns the status and
     * body.
     */
    java.net.http.HttpResponse<String> postForm(URI uri, String basicAuth, String form);
  }

}
