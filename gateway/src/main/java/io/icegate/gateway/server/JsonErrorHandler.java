package io.icegate.gateway.server;

import io.icegate.admin.AdminServlet;
import io.icegate.core.error.ErrorCode;
import io.icegate.gateway.iceberg.ErrorMapping;
import io.icegate.gateway.iceberg.IcebergJson;
import io.icegate.gateway.ops.RouteMetrics;
import io.icegate.gateway.ops.RouteMetricsFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a URI it rejects before any servlet runs, an unmapped path) in the
 * error format of the surface the path addresses, instead of an HTML page: problem+json with a
 * catalogue code under {@code /admin}, an Iceberg {@code ErrorResponse} everywhere else.
 */
final class JsonErrorHandler extends ErrorHandler {
  private final RouteMetrics metrics;

  /** @param metrics where an error answered before any servlet ran is counted */
  JsonErrorHandler(RouteMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message,
      Throwable cause, Callback callback) throws IOException {
    // RouteMetricsFilter never saw a request Jetty refused before dispatching it (a bad percent
    // escape, an encoded dot segment): without this count such refusals would be invisible.
    if (request.getAttribute(RouteMetricsFilter.COUNTED_ATTRIBUTE) == null) {
      metrics.record(RouteMetrics.INVALID, code, System.nanoTime() - request.getBeginNanoTime());
    }
    String text = message == null || message.isEmpty() ? HttpStatus.getMessage(code) : message;
    byte[] body;
    if (isAdmin(request)) {
      ErrorCode problem = switch (code) {
        case 404 -> ErrorCode.ROUTE_NOT_FOUND;
        case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
        case 413 -> ErrorCode.BODY_TOO_LARGE;
        default -> code >= 500 ? ErrorCode.INTERNAL : ErrorCode.MALFORMED_REQUEST;
      };
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, AdminServlet.PROBLEM);
      body = AdminServlet.problemBody(problem, code, text);
    } else {
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
      body = IcebergJson.mapper().writeValueAsBytes(
          ErrorMapping.of(code, ErrorMapping.typeOf(code), text));
    }
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  /**
   * Whether the client addressed {@code /admin} or below it: by the request's path, or by the raw
   * target its connection read when Jetty replaced the URI of a request it refused.
   */
  private static boolean isAdmin(Request request) {
    String path = request.getHttpURI() == null ? null : request.getHttpURI().getPath();
    String target = TargetRecordingConnectionFactory.rawTarget(request);
    return isAdmin(path) || isAdmin(target);
  }

  private static boolean isAdmin(String path) {
    return path != null && (path.equals("/admin") || path.startsWith("/admin/")
        || path.startsWith("/admin?"));
  }
}
