package io.icegate.access.iceberg;

import io.icegate.access.client.CatalogAccessException;
import io.icegate.access.client.CatalogAccessException.Code;
import java.io.IOException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.RESTException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * Maps what iceberg-core's REST client throws onto {@link CatalogAccessException} codes. Upstream
 * messages are kept (they describe the upstream's view) but request contents never are.
 */
final class UpstreamFailures {

  private UpstreamFailures() {}

  static CatalogAccessException translate(String operation, RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CatalogAccessException access) {
        return access;
      }
    }
    Code code;
    if (e instanceof NotAuthorizedException) {
      code = Code.AUTHENTICATION_FAILED;
    } else if (e instanceof ForbiddenException) {
      code = Code.PERMISSION_DENIED;
    } else if (e instanceof NoSuchNamespaceException
        || e instanceof NoSuchTableException
        || e instanceof NoSuchViewException) {
      code = Code.NOT_FOUND;
    } else if (e instanceof ServiceUnavailableException
        || e instanceof ServiceFailureException
        || hasIoCause(e)) {
      code = Code.CONNECTION_FAILED;
    } else if (e instanceof BadRequestException || e instanceof RESTException) {
      code = Code.UPSTREAM_PROTOCOL_ERROR;
    } else if (e instanceof IllegalArgumentException) {
      code = Code.INVALID_CONFIGURATION;
    } else {
      code = Code.UPSTREAM_PROTOCOL_ERROR;
    }
    return new CatalogAccessException(code, operation + " failed: " + message(e), e);
  }

  /**
   * The exception's message without a printed {@code null}: iceberg-core's OAuth error handler
   * formats {@code "Not authorized: <error>: <error_description>"}, and a token endpoint may leave
   * the description out (RFC 6749 5.2 makes it optional), which read {@code invalid_client: null}.
   * The standard error codes are explained instead.
   */
  static String message(RuntimeException e) {
    String message = e.getMessage();
    if (message == null) {
      return e.getClass().getSimpleName() + " without a message";
    }
    if (!message.endsWith(": null")) {
      return message;
    }
    String head = message.substring(0, message.length() - ": null".length());
    String error = head.substring(head.lastIndexOf(' ') + 1);
    String meaning = switch (error) {
      case "invalid_client" -> "the token endpoint did not accept the client id and secret";
      case "invalid_grant" -> "the token endpoint refused the grant (expired or revoked)";
      case "unauthorized_client" ->
          "the client may not use the client-credentials grant at this token endpoint";
      case "unsupported_grant_type" ->
          "the token endpoint does not support the client-credentials grant";
      case "invalid_scope" -> "the token endpoint refused the requested scope";
      case "invalid_request" -> "the token endpoint found the token request malformed";
      default -> "the upstream gave no description";
    };
    return head + " (" + meaning + ")";
  }

  /**
   * Like {@link #translate}, for failures while a session is set up (config and token requests).
   * A token endpoint's 5xx arrives already named, with its status ({@code TokenEndpointErrors}).
   * iceberg-core's OAuth2 error handler reports any other status it has no OAuth2 error code for
   * (e.g. a 429) as a bare {@link RESTException} ("Unable to process"), losing the status; at setup
   * time that is far more often an unavailable endpoint than a protocol mismatch, so it is reported
   * as retryable {@code CONNECTION_FAILED}. Invalid client credentials still arrive as {@link
   * NotAuthorizedException}.
   */
  static CatalogAccessException translateSetup(RuntimeException e) {
    if (e.getClass() == RESTException.class) {
      return new CatalogAccessException(
          Code.CONNECTION_FAILED, "catalog session setup failed: " + message(e), e);
    }
    return translate("catalog session setup", e);
  }

  private static boolean hasIoCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof java.io.UncheckedIOException) {
        return true;
      }
    }
    return false;
  }
}
