package io.icegate.access.connection;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Secret material resolved immediately before a client is opened and never persisted by this
 * boundary: tokens, client secrets, AWS keys, renewable-registration references, secret headers.
 *
 * <p>Each provider documents which {@link #properties()} names it accepts for which scheme and
 * fails with {@code INVALID_CONFIGURATION} on a missing or unknown one rather than guessing. Its
 * {@link #toString()} prints names only.
 *
 * @param properties credential properties, e.g. {@link #TOKEN}, {@link #CLIENT_ID}, {@link
 *     #CLIENT_SECRET}, {@link #AWS_ACCESS_KEY_ID}
 * @param headers secret HTTP headers to send on every catalog request
 * @param expiresAt when the material stops working, or {@code null} when unknown or never
 */
public record ResolvedCatalogCredentials(
    Map<String, String> properties, Map<String, String> headers, Instant expiresAt) {

  /** Bearer token ({@code BEARER}, or a pre-issued {@code OAUTH2} token). */
  public static final String TOKEN = "token";

  /** OAuth2 client id. */
  public static final String CLIENT_ID = "client-id";

  /** OAuth2 client secret. */
  public static final String CLIENT_SECRET = "client-secret";

  /** Static AWS key id for catalog signing (catalog scope). */
  public static final String AWS_ACCESS_KEY_ID = "aws.access-key-id";

  /** Static AWS secret key for catalog signing (catalog scope). */
  public static final String AWS_SECRET_ACCESS_KEY = "aws.secret-access-key";

  /** Optional AWS session token for catalog signing (catalog scope). */
  public static final String AWS_SESSION_TOKEN = "aws.session-token";

  public ResolvedCatalogCredentials {
    properties = Map.copyOf(properties == null ? Map.of() : properties);
    headers = Map.copyOf(headers == null ? Map.of() : headers);
  }

  /** No credentials at all (scheme {@code NONE}). */
  public static ResolvedCatalogCredentials none() {
    return new ResolvedCatalogCredentials(Map.of(), Map.of(), null);
  }

  /** The value of a credential property, or {@code null}. */
  public String property(String name) {
    return properties.get(Objects.requireNonNull(name));
  }

  @Override
  public String toString() {
    return "ResolvedCatalogCredentials[properties="
        + Redaction.names(properties)
        + ", headers="
        + Redaction.names(headers)
        + ", expiresAt="
        + expiresAt
        + "]";
  }
}
