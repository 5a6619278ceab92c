package io.icegate.gateway.iceberg;

import io.icegate.gateway.auth.Authenticator;
import io.icegate.admin.HeaderLines;
import io.icegate.gateway.auth.Principal;
import io.icegate.core.auth.TokenRole;
import io.icegate.gateway.dependency.DependencyUnavailableException;
import io.icegate.gateway.ops.RouteMetrics;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST servlet under {@code /iceberg}: routing, authentication, body limits and
 * serialization; it names the matched route for the request metrics ({@link
 * RouteMetrics#ROUTE_ATTRIBUTE}). Everything else is delegated to {@link IcebergOperations},
 * which never sees a servlet type.
 */
public final class IcebergRestServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRestServlet.class);

  private final transient IcebergOperations operations;
  private final transient Authenticator authenticator;
  /** How much of an oversized body is read and dropped before answering 413, in limits. */
  private static final int SWALLOW_LIMIT_FACTOR = 4;

  private static final byte[] NO_BODY = new byte[0];

  private final long maxBodyBytes;

  /**
   * @param maxBodyBytes largest accepted request body; larger bodies get 413 before any work
   */
  public IcebergRestServlet(
      IcebergOperations operations,
      Authenticator authenticator,
      long maxBodyBytes) {
    this.operations = operations;
    this.authenticator = authenticator;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    String label = RouteMetrics.UNMATCHED;
    IcebergReply reply;
    try {
      String path = req.getRequestURI().substring(req.getContextPath().length());
      path = path.substring(req.getServletPath().length());
      RouteTable.Result result = RouteTable.match(req.getMethod(), path);
      if (result instanceof RouteTable.Result.Found found) {
        label = found.match().route().method() + " " + found.match().route().template();
        req.setAttribute(RouteMetrics.ROUTE_ATTRIBUTE, label);
        reply = serve(found.match(), req);
      } else if (result instanceof RouteTable.Result.WrongMethod wrong) {
        reply = error(ErrorMapping.of(405, ErrorMapping.typeOf(405),
            "method " + req.getMethod() + " is not allowed here; allowed: " + wrong.allowed()));
        reply = withHeader(reply, "Allow", String.join(", ", wrong.allowed()));
      } else {
        reply = error(ErrorMapping.of(404, ErrorMapping.typeOf(404), "no such route: " + path));
      }
    } catch (RuntimeException | StackOverflowError e) {
      // A stack overflow is a request-scoped failure (e.g. a pathological input), not a dead JVM.
      ErrorResponse body = ErrorMapping.toResponse(e);
      // A failed dependency (issuer, upstream, object store) is logged where it happens, once
      // and without a trace.
      java.util.OptionalInt retry = ErrorMapping.retryAfter(e);
      if (body.code() == 503 && retry.isPresent()) {
        // contention: the client is told to retry; one line, no trace
        LOG.warn("request {} answered 503 {}: {}", label, body.type(), body.message());
      } else if (body.code() >= 500 && !(e instanceof DependencyUnavailableException)) {
        // a matched route's label already starts with its method
        LOG.error("request {} failed", label.startsWith(req.getMethod() + " ")
            ? label : req.getMethod() + " " + label, e);
      }
      reply = error(body);
      if (retry.isPresent()) {
        reply = withHeader(reply, io.icegate.core.error.RetryAfter.HEADER,
            Integer.toString(retry.getAsInt()));
      }
    }
    write(reply, resp);
  }

  private IcebergReply serve(RouteTable.Match match, HttpServletRequest req) throws IOException {
    Route route = match.route();
    Principal principal = null;
    if (route.access() != Route.Access.PUBLIC) {
      principal = authenticate(singleHeader(req, "Authorization"));
      TokenRole needed = switch (route.access()) {
        case WRITE -> TokenRole.WRITER;
        default -> TokenRole.READER;
      };
      if (!principal.role().covers(needed)) {
        throw new ForbiddenException("token role %s may not call %s", principal.role(), route);
      }
    }
    long declared = req.getContentLengthLong();
    byte[] body = declared > maxBodyBytes ? null : readBody(req, declared);
    if (body == null) {
      swallowRest(req.getInputStream());
      return error(ErrorMapping.of(413, ErrorMapping.typeOf(413),
          "request body larger than " + maxBodyBytes + " bytes"));
    }
    Map<String, String[]> parameters;
    try {
      parameters = req.getParameterMap();
    } catch (RuntimeException e) {
      // Jetty refuses a malformed query string (a bad percent escape such as %ZZ) with its own
      // unchecked exception: the client's error, not a 500.
      throw new BadRequestException("the query string is not valid");
    }
    Map<String, String> query = new HashMap<>();
    parameters.forEach((k, v) -> {
      // every query parameter of the spec takes one value: taking the first of several would
      // silently answer another request than the client meant (pageSize=10&pageSize=1000)
      if (v.length > 1) {
        throw new BadRequestException("query parameter %s is given %d times; give it once", k,
            v.length);
      }
      query.put(k, v.length > 0 ? v[0] : "");
    });
    if (route == Route.OAUTH_TOKENS && isForm(req)) {
      // Only the OAuth token route is form-encoded (other routes read the body as JSON, whatever
      // the declared type); its fields would be parameters only had the container parsed the
      // body, which we read ourselves above.
      try {
        query.putAll(org.apache.iceberg.rest.RESTUtil.decodeFormData(
            new String(body, java.nio.charset.StandardCharsets.UTF_8)));
      } catch (IllegalArgumentException e) {
        // RESTUtil's message quotes the bad field, which may be the client secret.
        return ConfigRoute.oauthError(400, "invalid_request", "the form body is malformed");
      }
    }
    IcebergRequest request = new IcebergRequest(route, match.variables(), query, body,
        listField(req, "If-None-Match"), singleHeader(req, "Idempotency-Key"), principal,
        req.getHeader("X-Iceberg-Access-Delegation"),
        // RFC 9110 5.3: repeated header lines are one comma-separated list
        String.join(", ", java.util.Collections.list(req.getHeaders("Accept-Encoding"))));
    return operations.handle(request);
  }

  /**
   * A list-valued header field with its lines joined (RFC 9110 5.3: several lines are one
   * comma-separated list), or null when absent.
   */
  private static String listField(HttpServletRequest req, String name) {
    java.util.List<String> lines = java.util.Collections.list(req.getHeaders(name));
    return lines.isEmpty() ? null : String.join(", ", lines);
  }

  /** A header that takes one value, or null; several lines are 400 ({@link HeaderLines}). */
  private static String singleHeader(HttpServletRequest req, String name) {
    return HeaderLines.single(req, name, problem -> new BadRequestException("%s", problem));
  }

  private Principal authenticate(String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new NotAuthorizedException("a bearer token is required");
    }
    Optional<Principal> principal = authenticator.authenticate(header.substring(7).strip());
    return principal.orElseThrow(() -> new NotAuthorizedException("the bearer token is not valid"));
  }

  private static boolean isForm(HttpServletRequest req) {
    String type = req.getContentType();
    return type != null && type.startsWith("application/x-www-form-urlencoded");
  }

  /** The body, or null when it is longer than the limit (a chunked body has no length up front). */
  private byte[] readBody(HttpServletRequest req, long declared) throws IOException {
    if (declared == 0 || (declared < 0 && req.getHeader("Transfer-Encoding") == null)) {
      // RFC 9112 6.3 (the connector speaks HTTP/1.1 only): a request with neither header has no
      // body. Most requests are such GETs; this spares each of them a read buffer.
      return NO_BODY;
    }
    InputStream in = req.getInputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
      if (out.size() > maxBodyBytes) {
        return null;
      }
    }
    return out.toByteArray();
  }

  /**
   * Reads and drops what is left of an oversized body, up to {@link #SWALLOW_LIMIT_FACTOR} times
   * the limit. Answering while the client is still sending makes the closing connection reset
   * under it, and the client loses the 413 (an I/O error instead); beyond the cap, the connection
   * is closed anyway rather than spend more on an abusive body.
   */
  private void swallowRest(InputStream in) throws IOException {
    long budget = SWALLOW_LIMIT_FACTOR * maxBodyBytes;
    byte[] buffer = new byte[65536];
    int n;
    while (budget > 0 && (n = in.read(buffer)) >= 0) {
      budget -= n;
    }
  }

  private static IcebergReply error(ErrorResponse body) {
    return new IcebergReply(body.code(), body, Map.of());
  }

  private static IcebergReply withHeader(IcebergReply reply, String name, String value) {
    Map<String, String> headers = new HashMap<>(reply.headers());
    headers.put(name, value);
    return new IcebergReply(reply.status(), reply.body(), headers);
  }

  private static void write(IcebergReply reply, HttpServletResponse resp) throws IOException {
    resp.setStatus(reply.status());
    // Answers are per token and may carry vended credentials: never stored by a cache.
    resp.setHeader("Cache-Control", "no-store");
    reply.headers().forEach(resp::setHeader);
    if (reply.body() == null) {
      return;
    }
    byte[] bytes = reply.body() instanceof byte[] raw
        ? raw
        : IcebergJson.mapper().writeValueAsBytes(reply.body());
    resp.setContentType("application/json");
    resp.setContentLength(bytes.length);
    resp.getOutputStream().write(bytes);
  }
}
