package io.icegate.admin;

import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.durability.ReplayedRejection;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.FailureTrace;
import io.icegate.core.error.IcegateException;
import io.icegate.core.error.RetryAfter;
import io.icegate.core.store.KvStoreException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API under {@code /admin/v1} (DESIGN.md "HTTP surfaces"): routing from {@link
 * AdminRoute}, bearer-token authentication and roles, problem+json errors with the catalogue's
 * stable {@code code}. Operations are delegated to {@link AdminOperations}; no service sees an HTTP
 * type. Request bodies are never logged.
 */
public final class AdminServlet extends HttpServlet {
  private static final Logger LOG = LoggerFactory.getLogger(AdminServlet.class);
  /** The media type of admin errors. */
  public static final String PROBLEM = "application/problem+json";
  /**
   * The request attribute naming the matched route as method and path template (e.g. {@code GET
   * /admin/v1/accounts/{account}}), for the server's request metrics: a template, never the raw
   * path, so the metric's label stays bounded.
   */
  public static final String ROUTE_ATTRIBUTE = "io.icegate.route";

  private final transient AdminOperations operations;
  private final transient Function<String, Optional<TokenGrant>> tokens;
  private final int maxBodyBytes;

  /**
   * @param tokens resolves a bearer token to its grant (by digest)
   * @param maxBodyBytes largest accepted request body
   */
  public AdminServlet(AdminOperations operations, Function<String, Optional<TokenGrant>> tokens,
      int maxBodyBytes) {
    this.operations = operations;
    this.tokens = tokens;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    AdminReply reply;
    try {
      reply = dispatch(req);
    } catch (IcegateException e) {
      reply = problem(e.code(), e.getMessage(), e.details());
      if (e instanceof ReplayedRejection) {
        reply = reply.withHeader("Idempotency-Replayed", "true");
      }
    } catch (KvStoreException e) {
      ErrorCode code = ErrorCode.forStoreFailure(e.kind());
      reply = problem(code, code.format("the request"));
    } catch (RuntimeException e) {
      // where it failed, never its messages: they may quote the request, which carries secrets
      LOG.error("admin request {} {} failed: {}", req.getMethod(), req.getRequestURI(),
          FailureTrace.of(e));
      reply = problem(ErrorCode.INTERNAL, ErrorCode.INTERNAL.format());
    }
    resp.setStatus(reply.status());
    // Answers are per token (and the console runs in a browser): never stored by a cache.
    resp.setHeader("Cache-Control", "no-store");
    reply.headers().forEach(resp::setHeader);
    if (reply.body() != null) {
      resp.setContentType(reply.contentType());
      resp.getOutputStream().write(reply.body());
    }
  }

  private AdminReply dispatch(HttpServletRequest req) throws IOException {
    String raw = req.getRequestURI();
    List<String> path = new ArrayList<>();
    for (String segment : raw.substring(1).split("/", -1)) {
      path.add(java.net.URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8));
    }
    List<String> allowed = new ArrayList<>();
    for (AdminRoute route : AdminRoute.values()) {
      Optional<Map<String, String>> vars = route.match(path);
      if (vars.isEmpty()) {
        continue;
      }
      if (!route.method().equals(req.getMethod())) {
        allowed.add(route.method());
        continue;
      }
      req.setAttribute(ROUTE_ATTRIBUTE, route.method() + " " + route.template());
      TokenGrant caller = authorize(route, req, vars.get());
      byte[] body = readBody(req);
      Map<String, String> query = queryParameters(req);
      AdminCall call = new AdminCall(route, vars.get(), query, body,
          ifMatch(req), singleHeader(req, "Idempotency-Key"), caller,
          req.getHeader("Prefer"));
      return operations.handle(call);
    }
    if (!allowed.isEmpty()) {
      AdminReply reply = problem(ErrorCode.METHOD_NOT_ALLOWED,
          ErrorCode.METHOD_NOT_ALLOWED.format(req.getMethod()));
      return reply.withHeader("Allow", String.join(", ", allowed));
    }
    // the raw (still encoded) path, bounded: it is the client's own text, echoed so that a typo
    // shows; the route table is the OpenAPI document
    String target = raw.length() > 200 ? raw.substring(0, 200) + "..." : raw;
    return problem(ErrorCode.ROUTE_NOT_FOUND, ErrorCode.ROUTE_NOT_FOUND.format(
        req.getMethod() + " " + target + " (the routes are listed in /admin/v1/openapi.yaml)"));
  }

  /**
   * The {@code If-Match} field, its lines joined (RFC 9110 5.3: several lines of a list field are
   * one comma-separated list), or null when absent.
   */
  private static String ifMatch(HttpServletRequest req) {
    List<String> lines = java.util.Collections.list(req.getHeaders("If-Match"));
    return lines.isEmpty() ? null : String.join(", ", lines);
  }

  /**
   * The query parameters, first value of each. The container refuses a malformed query string (a
   * bad percent escape such as {@code %ZZ}) with its own unchecked exception: the client's error,
   * so 400 {@code MALFORMED_REQUEST}, not a 500.
   */
  private static Map<String, String> queryParameters(HttpServletRequest req) {
    Map<String, String[]> parameters;
    try {
      parameters = req.getParameterMap();
    } catch (RuntimeException e) {
      throw new IcegateException(ErrorCode.MALFORMED_REQUEST, null, "the query string is not valid");
    }
    Map<String, String> query = new LinkedHashMap<>();
    parameters.forEach((k, v) -> {
      // every parameter of the admin API takes one value: taking the first of several would
      // silently answer a request other than the one the client meant (pageSize=10&pageSize=1000)
      if (v.length > 1) {
        throw IcegateException.invalidArgument("query parameter " + k + " is given " + v.length
            + " times; give it once");
      }
      query.put(k, v.length > 0 ? v[0] : "");
    });
    return query;
  }

  /** A header that takes one value, or null; several lines are 400 ({@link HeaderLines}). */
  private static String singleHeader(HttpServletRequest req, String name) {
    return HeaderLines.single(req, name,
        problem -> new IcegateException(ErrorCode.MALFORMED_REQUEST, null, problem));
  }

  /** Authentication and roles; a token of another account sees 404, as if nothing were there. */
  private TokenGrant authorize(AdminRoute route, HttpServletRequest req, Map<String, String> vars) {
    if (route.access() == AdminRoute.Access.PUBLIC) {
      return null;
    }
    String header = singleHeader(req, "Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new IcegateException(ErrorCode.UNAUTHENTICATED, null);
    }
    TokenGrant grant = tokens.apply(header.substring(7).strip())
        .orElseThrow(() -> new IcegateException(ErrorCode.UNAUTHENTICATED, null));
    String account = vars.get("account");
    if (account != null && !grant.serverAdmin() && !grant.accountId().equals(account)) {
      throw new IcegateException(ErrorCode.NOT_FOUND, io.icegate.core.model.ResourceKind.ACCOUNT,
          "account", account);
    }
    boolean permitted = switch (route.access()) {
      case SERVER_ADMIN -> grant.serverAdmin();
      case ADMIN -> grant.serverAdmin() || grant.role().covers(TokenRole.ADMIN);
      default -> true;
    };
    if (!permitted) {
      throw new IcegateException(ErrorCode.PERMISSION_DENIED, null,
          grant.role().name().toLowerCase(java.util.Locale.ROOT), "call " + route.method() + " "
              + route.template());
    }
    return grant;
  }

  private byte[] readBody(HttpServletRequest req) throws IOException {
    if (req.getContentLengthLong() > maxBodyBytes) {
      throw new IcegateException(ErrorCode.BODY_TOO_LARGE, null, maxBodyBytes);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    InputStream in = req.getInputStream();
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      out.write(buffer, 0, n);
      if (out.size() > maxBodyBytes) {
        throw new IcegateException(ErrorCode.BODY_TOO_LARGE, null, maxBodyBytes);
      }
    }
    return out.toByteArray();
  }

  /** A problem+json reply (RFC 9457) with the catalogue code. */
  static AdminReply problem(ErrorCode code, String detail) {
    return problem(code, detail, List.of());
  }

  /**
   * A problem+json reply with itemized {@code details} (listed when not empty), with the hints
   * its status calls for: {@code Retry-After} when the cause passes by itself, and the scheme a
   * 401 asks for (RFC 9110, section 11.6.1).
   */
  static AdminReply problem(ErrorCode code, String detail, List<String> details) {
    AdminReply reply = new AdminReply(code.httpStatus(), PROBLEM,
        problemBody(code, code.httpStatus(), detail, details), Map.of());
    OptionalInt retry = RetryAfter.seconds(code);
    if (retry.isPresent()) {
      reply = reply.withHeader(RetryAfter.HEADER, Integer.toString(retry.getAsInt()));
    }
    return code.httpStatus() == 401 ? reply.withHeader("WWW-Authenticate", "Bearer") : reply;
  }

  /**
   * The problem+json body (RFC 9457, media type {@link #PROBLEM}) of every admin error, for the
   * server's own rejections too (a URI Jetty refuses before this servlet runs), whose HTTP
   * {@code status} may differ from {@code code}'s.
   */
  public static byte[] problemBody(ErrorCode code, int status, String detail) {
    return problemBody(code, status, detail, List.of());
  }

  private static byte[] problemBody(ErrorCode code, int status, String detail,
      List<String> details) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "urn:icegate:problem:" + code.name().toLowerCase(java.util.Locale.ROOT));
    body.put("title", code.name());
    body.put("status", status);
    body.put("code", code.name());
    body.put("detail", detail);
    if (!details.isEmpty()) {
      body.put("details", details);
    }
    return AdminJson.write(body);
  }
}
