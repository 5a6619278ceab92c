package io.icegate.access.connection;

/**
 * How a client authenticates to the catalog API. Storage access is a separate boundary (vended
 * credentials), never one of these.
 */
public enum CatalogAuthenticationScheme {
  /** No authentication; for tests and public catalogs. */
  NONE,
  /** A static bearer token, credential property {@code token}. */
  BEARER,
  /**
   * OAuth2 client-credentials grant: credential properties {@code client-id} and {@code
   * client-secret}; authentication properties {@code oauth2-server-uri} and {@code scope}.
   */
  OAUTH2,
  /**
   * AWS Signature V4 request signing: authentication properties {@code signing-region} and {@code
   * signing-name}; keys as {@code aws.*} credential properties or a catalog-scoped renewable
   * registration.
   */
  AWS_SIGV4
}
