package io.icegate.gateway.ops;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request counts and latency per route and status, rendered in the Prometheus text format by
 * {@link MetricsServlet}, recorded by {@link RouteMetricsFilter} for the Iceberg routes, the admin
 * API and the console. Latency is a cumulative histogram with fixed bucket bounds, so recording is
 * a few lock-free increments.
 */
public final class RouteMetrics {
  /**
   * The request attribute in which a servlet names the route it matched (method and path
   * template, e.g. {@code GET /admin/v1/accounts/{account}}); the admin servlet's own constant,
   * since admin-api cannot see this module.
   */
  public static final String ROUTE_ATTRIBUTE = io.icegate.admin.AdminServlet.ROUTE_ATTRIBUTE;
  /** The route label of a request no route matched (404, 405, a refused method). */
  public static final String UNMATCHED = "unmatched";
  /**
   * The route label of a request Jetty refused before any servlet saw it (a URI it does not
   * accept: an encoded dot segment, a bad percent escape), so no route could be matched.
   */
  public static final String INVALID = "invalid";

  /** Histogram upper bounds, in seconds. */
  static final double[] BOUNDS = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};

  private final Map<String, Series> byRoute = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> byRouteAndStatus = new ConcurrentHashMap<>();
  private final List<Consumer<StringBuilder>> sections = new CopyOnWriteArrayList<>();

  /** Adds a section rendered after the route metrics (another part of the server's metrics). */
  public void addSection(Consumer<StringBuilder> section) {
    sections.add(section);
  }

  /**
   * Records one request of {@code route} (a method and template such as {@code GET /v1/config},
   * never a raw path: every distinct value is a series of its own).
   */
  public void record(String route, int status, long elapsedNanos) {
    byRoute.computeIfAbsent(route, r -> new Series()).add(elapsedNanos);
    byRouteAndStatus.computeIfAbsent(route + '\u0000' + status, k -> new LongAdder()).increment();
  }

  void render(StringBuilder out) {
    out.append("# HELP icegate_http_requests_total HTTP requests by route and status.\n");
    out.append("# TYPE icegate_http_requests_total counter\n");
    byRouteAndStatus.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> {
          String[] parts = e.getKey().split("\u0000");
          out.append("icegate_http_requests_total{route=\"").append(escape(parts[0]))
              .append("\",status=\"").append(parts[1]).append("\"} ")
              .append(e.getValue().sum()).append('\n');
        });
    out.append("# HELP icegate_http_request_duration_seconds HTTP request latency by route.\n");
    out.append("# TYPE icegate_http_request_duration_seconds histogram\n");
    byRoute.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> e.getValue().render(escape(e.getKey()), out));
    for (Consumer<StringBuilder> section : sections) {
      section.accept(out);
    }
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static final class Series {
    private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
    private final LongAdder count = new LongAdder();
    private final LongAdder nanos = new LongAdder();

    Series() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }

    void add(long elapsedNanos) {
      double seconds = elapsedNanos / 1e9;
      for (int i = 0; i < BOUNDS.length; i++) {
        if (seconds <= BOUNDS[i]) {
          buckets[i].increment();
          break;
        }
      }
      count.increment();
      nanos.add(elapsedNanos);
    }

    void render(String route, StringBuilder out) {
      long cumulative = 0;
      String name = "icegate_http_request_duration_seconds";
      for (int i = 0; i < BOUNDS.length; i++) {
        cumulative += buckets[i].sum();
        out.append(name).append("_bucket{route=\"").append(route).append("\",le=\"")
            .append(BOUNDS[i]).append("\"} ").append(cumulative).append('\n');
      }
      long total = count.sum();
      out.append(name).append("_bucket{route=\"").append(route).append("\",le=\"+Inf\"} ")
          .append(total).append('\n');
      out.append(name).append("_sum{route=\"").append(route).append("\"} ")
          .append(nanos.sum() / 1e9).append('\n');
      out.append(name).append("_count{route=\"").append(route).append("\"} ")
          .append(total).append('\n');
    }
  }
}
