package io.icegate.gateway.console;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The web console (issue 30): static files from the server jar's {@code console/} folder under
 * {@code /console/}. The page talks to the admin API and the Iceberg routes with the token the
 * user signs in with, so this servlet holds no state and needs no token itself.
 *
 * <p>Every answer carries a strict Content-Security-Policy: scripts, styles and requests from this
 * origin only, no inline script or style, no frames around the console ({@code frame-ancestors
 * 'none'}), no plugins, no form posts elsewhere. Together with the page rendering every upstream
 * or user string through {@code textContent}, a table named {@code <img src=x onerror=...>} stays
 * text. Files are served {@code no-cache} (revalidated, so a new server's console is picked up);
 * the authenticated answers the page fetches are {@code no-store} on their own routes.
 */
public final class ConsoleServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** The policy of every console answer. */
  public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; "
      + "style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; "
      + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; object-src 'none'";

  /** Only plain names in the console folder: no traversal, no hidden files. */
  private static final Pattern FILE = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(html|js|css|svg)");

  private static final Map<String, String> TYPES = Map.of(
      "html", "text/html;charset=utf-8",
      "js", "text/javascript;charset=utf-8",
      "css", "text/css;charset=utf-8",
      "svg", "image/svg+xml");

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    secure(resp);
    String path = req.getPathInfo();
    if (path == null) {
      // "/console" alone: relative module URLs need the trailing slash.
      resp.setStatus(301);
      resp.setHeader("Location", "/console/");
      return;
    }
    if (!req.getMethod().equals("GET") && !req.getMethod().equals("HEAD")) {
      resp.setHeader("Allow", "GET, HEAD");
      text(resp, 405, "method not allowed");
      return;
    }
    // the route, not the file: the metric's label stays one value per method
    req.setAttribute(io.icegate.gateway.ops.RouteMetrics.ROUTE_ATTRIBUTE,
        req.getMethod() + " /console/{file}");
    String name = path.equals("/") ? "index.html" : path.substring(1);
    if (!FILE.matcher(name).matches()) {
      text(resp, 404, "no such console file");
      return;
    }
    try (InputStream in = ConsoleServlet.class.getResourceAsStream("/console/" + name)) {
      if (in == null) {
        text(resp, 404, "no such console file");
        return;
      }
      byte[] body = in.readAllBytes();
      resp.setStatus(200);
      resp.setContentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
      resp.setContentLength(body.length);
      if (req.getMethod().equals("GET")) {
        resp.getOutputStream().write(body);
      }
    }
  }

  private static void secure(HttpServletResponse resp) {
    resp.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    resp.setHeader("X-Content-Type-Options", "nosniff");
    resp.setHeader("X-Frame-Options", "DENY");
    resp.setHeader("Referrer-Policy", "no-referrer");
    resp.setHeader("Cache-Control", "no-cache");
  }

  private static void text(HttpServletResponse resp, int status, String message)
      throws IOException {
    resp.setStatus(status);
    resp.setContentType("text/plain;charset=utf-8");
    resp.getOutputStream().write(message.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
