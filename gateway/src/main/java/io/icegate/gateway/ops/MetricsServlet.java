package io.icegate.gateway.ops;

import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreStats;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics}: Prometheus text format 0.0.4, route metrics and the store's counters. */
public final class MetricsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient RouteMetrics routes;
  private final transient KvStore store;

  public MetricsServlet(RouteMetrics routes, KvStore store) {
    this.routes = routes;
    this.store = store;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    StringBuilder out = new StringBuilder(4096);
    routes.render(out);
    KvStoreStats stats = store.stats();
    counter(out, "icegate_store_committed_writes_total",
        "Read-write transactions committed with at least one mutation.", stats.committedWrites());
    counter(out, "icegate_store_mutations_total", "Sets and clears committed.", stats.mutations());
    counter(out, "icegate_store_conflicts_total", "Transaction attempts that conflicted.",
        stats.conflicts());
    counter(out, "icegate_store_too_old_total", "Transaction attempts that got too old.",
        stats.tooOld());
    counter(out, "icegate_store_commit_unknown_total", "Commits whose result was unknown.",
        stats.commitUnknown());
    resp.setContentType("text/plain; version=0.0.4; charset=utf-8");
    resp.getOutputStream().write(out.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void counter(StringBuilder out, String name, String help, long value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" counter\n");
    out.append(name).append(' ').append(value).append('\n');
  }
}
