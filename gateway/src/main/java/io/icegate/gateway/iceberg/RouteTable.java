package io.icegate.gateway.iceberg;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Matches a raw (still percent-encoded) request path against {@link Route} templates. Matching on
 * raw segments keeps an encoded slash or the {@code %1F} namespace separator inside one segment;
 * the caller decodes each variable with iceberg-core's {@code RESTUtil}.
 */
public final class RouteTable {

  /** A matched route and its raw path variables ({@code prefix}, {@code namespace}, ...). */
  public record Match(Route route, Map<String, String> variables) {}

  /** The outcome of matching: a route, a path that exists under other methods, or nothing. */
  public sealed interface Result {
    record Found(Match match) implements Result {}

    record WrongMethod(Set<String> allowed) implements Result {}

    record NotFound() implements Result {}
  }

  private RouteTable() {}

  /**
   * Matches {@code method} and {@code rawPath} (relative to {@code /iceberg}, starting with a
   * slash, not decoded).
   */
  public static Result match(String method, String rawPath) {
    String[] parts = rawPath.startsWith("/") ? rawPath.substring(1).split("/", -1) : new String[0];
    Set<String> allowed = new java.util.TreeSet<>();
    for (Route route : EnumSet.allOf(Route.class)) {
      Map<String, String> vars = bind(route.segments(), parts);
      if (vars == null) {
        continue;
      }
      if (route.method().equals(method)) {
        return new Result.Found(new Match(route, vars));
      }
      allowed.add(route.method());
    }
    return allowed.isEmpty() ? new Result.NotFound() : new Result.WrongMethod(allowed);
  }

  private static Map<String, String> bind(List<String> template, String[] parts) {
    if (template.size() != parts.length) {
      return null;
    }
    Map<String, String> vars = new HashMap<>();
    for (int i = 0; i < parts.length; i++) {
      String t = template.get(i);
      if (t.startsWith("{")) {
        if (parts[i].isEmpty()) {
          return null;
        }
        vars.put(t.substring(1, t.length() - 1), parts[i]);
      } else if (!t.equals(parts[i])) {
        return null;
      }
    }
    return vars;
  }
}
