package io.icegate.access.iceberg.http;

import io.icegate.access.client.CatalogAccessException;
import java.net.URI;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The error handler of a token request, in front of iceberg-core's OAuth2 one: that handler turns
 * a 5xx into a bare {@code RESTException} ("Unable to process: ...") that keeps neither the status
 * nor which endpoint failed, so an admin read "catalog session setup failed" for a token endpoint
 * that was down. A status that alone says what failed (5xx, 429; 404, 405, 410) becomes the
 * failure every provider reports for it ({@link CatalogAccessException#ofTokenEndpointStatus}),
 * naming the token endpoint by host and port; every other answer goes to iceberg-core's handler
 * unchanged (OAuth2 error codes, e.g. {@code invalid_client}, keep their meaning).
 */
final class TokenEndpointErrors extends RefusingErrorHandler {

  private final URI tokenEndpoint;

  TokenEndpointErrors(Consumer<ErrorResponse> delegate, URI tokenEndpoint) {
    super(delegate);
    this.tokenEndpoint = tokenEndpoint;
  }

  @Override
  Optional<CatalogAccessException> refusal(int status) {
    // the body is not quoted: a failing server's page says nothing an admin can act on
    return CatalogAccessException.ofTokenEndpointStatus(tokenEndpoint, status);
  }
}
