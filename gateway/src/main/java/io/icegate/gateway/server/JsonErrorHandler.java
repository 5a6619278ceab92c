package io.icegate.gateway.server;

import io.icegate.gateway.iceberg.ErrorMapping;
import io.icegate.gateway.iceberg.IcebergJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself (a URI it rejects before any servlet runs, an unmapped path) as an
 * Iceberg {@code ErrorResponse} instead of an HTML page, so every client of the gateway parses
 * one error format.
 */
final class JsonErrorHandler extends ErrorHandler {

  @Override
  protected void generateResponse(Request request, Response response, int code, String message,
      Throwable cause, Callback callback) throws IOException {
    String type = code == 404 ? "NotFoundException"
        : code >= 500 ? "InternalServerError" : "BadRequestException";
    String text = message == null || message.isEmpty() ? HttpStatus.getMessage(code) : message;
    ErrorResponse body = ErrorMapping.of(code, type, text);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(IcebergJson.mapper().writeValueAsBytes(body)), callback);
  }
}
