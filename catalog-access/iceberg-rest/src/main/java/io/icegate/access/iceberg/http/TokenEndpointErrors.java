package io.icegate.access.iceberg.http;

import io.icegate.access.client.CatalogAccessException;
import java.net.URI;
import java.util.function.Consumer;
import org.apache.iceberg.rest.ErrorHandler;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The error handler of a token request, in front of iceberg-core's OAuth2 one: that handler turns
 * a 5xx into a bare {@code RESTException} ("Unable to process: ...") that keeps neither the status
 * nor which endpoint failed, so an admin read "catalog session setup failed" for a token endpoint
 * that was down. A 5xx or a 429 becomes {@link CatalogAccessException#serverError} (retryable)
 * naming the token endpoint by host and port; a 404, 405 or 410 (nothing serves tokens there) an
 * {@code INVALID_CONFIGURATION} naming it; every other answer goes to iceberg-core's handler
 * unchanged (OAuth2 error codes, e.g. {@code invalid_client}, keep their meaning).
 *
 * <p>An {@link ErrorHandler} rather than a plain consumer: iceberg-core parses the error body only
 * through an {@code ErrorHandler}'s own {@link #parseResponse}, which is passed on.
 */
final class TokenEndpointErrors extends ErrorHandler {

  private final Consumer<ErrorResponse> delegate;
  private final URI tokenEndpoint;

  TokenEndpointErrors(Consumer<ErrorResponse> delegate, URI tokenEndpoint) {
    this.delegate = delegate;
    this.tokenEndpoint = tokenEndpoint;
  }

  @Override
  public ErrorResponse parseResponse(int code, String json) {
    if (delegate instanceof ErrorHandler handler) {
      return handler.parseResponse(code, json);
    }
    return ErrorResponse.builder().responseCode(code).withMessage(json).build();
  }

  @Override
  public void accept(ErrorResponse error) {
    Integer status = error.code();
    if (status != null && (status >= 500 && status <= 599 || status == 429)) {
      // the body is not quoted: a failing server's page says nothing an admin can act on
      throw CatalogAccessException.serverError("the OAuth2 token endpoint", tokenEndpoint, status);
    }
    if (status != null && (status == 404 || status == 405 || status == 410)) {
      // no token endpoint at that address: the Integration's configuration, not a passing failure
      throw CatalogAccessException.notServedAt("the OAuth2 token endpoint", tokenEndpoint, status,
          "check the Integration's tokenUri (oauth2-server-uri), or its uri when that is not set");
    }
    delegate.accept(error);
  }
}
