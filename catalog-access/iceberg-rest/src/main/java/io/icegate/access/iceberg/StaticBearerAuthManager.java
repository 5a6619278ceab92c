package io.icegate.access.iceberg;

import java.util.Map;
import org.apache.iceberg.rest.HTTPHeaders;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.auth.AuthManager;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.auth.DefaultAuthSession;

/**
 * The iceberg-core {@link AuthManager} of a {@code BEARER} Integration: the token as a fixed
 * {@code Authorization: Bearer} header on every request, nothing else. iceberg-core's own {@code
 * OAuth2Manager} would take a {@code token} too, but it is an OAuth2 client: it warns on every
 * session that no {@code oauth2-server-uri} is set (a property a bearer Integration does not
 * take), and it would try to refresh a JWT-shaped token at the upstream's token endpoint when it
 * expires, which a plain bearer upstream does not have. Shaped as iceberg-core's {@code
 * BasicAuthManager}; loaded by {@code rest.auth.type} = this class's name ({@link
 * SessionProperties}), which iceberg-core's {@code AuthManagers} instantiates with the catalog's
 * name.
 */
public final class StaticBearerAuthManager implements AuthManager {
  /** The session property holding the token (the same name iceberg-core's OAuth2 uses). */
  static final String TOKEN = "token";

  /** @param name the catalog's name (unused: the constructor iceberg-core looks for) */
  public StaticBearerAuthManager(String name) {}

  @Override
  public AuthSession catalogSession(RESTClient sharedClient, Map<String, String> properties) {
    String token = properties.get(TOKEN);
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("a bearer session needs a token");
    }
    return DefaultAuthSession.of(HTTPHeaders.of(Map.of("Authorization", "Bearer " + token)));
  }

  @Override
  public void close() {
    // no resources: no refresh thread, no token cache
  }
}
