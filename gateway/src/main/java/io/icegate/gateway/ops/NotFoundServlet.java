package io.icegate.gateway.ops;

import io.icegate.gateway.iceberg.ErrorMapping;
import io.icegate.gateway.iceberg.IcebergJson;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Every path outside the gateway's surfaces: 404 with an Iceberg {@code ErrorResponse}. */
public final class NotFoundServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    byte[] body = IcebergJson.mapper().writeValueAsBytes(
        ErrorMapping.of(404, "NotFoundException", "no such path: " + req.getRequestURI()));
    resp.setStatus(404);
    resp.setContentType("application/json");
    resp.getOutputStream().write(body);
  }
}
