package io.icegate.gateway.ops;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Counts and times every request of the surfaces it is mapped on (the Iceberg routes, the admin
 * API, the console) in {@link RouteMetrics}, under the route the serving servlet matched: it names
 * it in the request attribute {@link RouteMetrics#ROUTE_ATTRIBUTE} as a method and path template
 * (never the raw path, so the label's values are bounded by the route tables). A request no route
 * matched is counted as {@link RouteMetrics#UNMATCHED}; one Jetty refused before this filter ran
 * is counted by the server's error handler as {@link RouteMetrics#INVALID}.
 */
public final class RouteMetricsFilter implements Filter {
  /**
   * Set on every request this filter counts, so that the server's error handler, which counts the
   * requests Jetty refused before any filter ran ({@link RouteMetrics#INVALID}), does not count an
   * error of a request that got this far a second time.
   */
  public static final String COUNTED_ATTRIBUTE = "io.icegate.route.counted";

  private final RouteMetrics metrics;

  public RouteMetricsFilter(RouteMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    long start = System.nanoTime();
    request.setAttribute(COUNTED_ATTRIBUTE, Boolean.TRUE);
    int status = 500; // what the container answers when the servlet throws
    try {
      chain.doFilter(request, response);
      status = ((HttpServletResponse) response).getStatus();
    } finally {
      Object route = request.getAttribute(RouteMetrics.ROUTE_ATTRIBUTE);
      metrics.record(route instanceof String label ? label : RouteMetrics.UNMATCHED, status,
          System.nanoTime() - start);
    }
  }
}
