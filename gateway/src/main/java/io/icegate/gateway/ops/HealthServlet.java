package io.icegate.gateway.ops;

import io.icegate.core.assembly.StoreReadiness;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /healthz} (liveness: the process serves HTTP) and {@code /readyz} (readiness: core's
 * {@link StoreReadiness} reads the store). Both answer {@code ok} or {@code unavailable} in plain
 * text.
 */
public final class HealthServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(HealthServlet.class);

  private final transient StoreReadiness readiness;

  /** @param readiness the store probe, or null for the liveness check */
  public HealthServlet(StoreReadiness readiness) {
    this.readiness = readiness;
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    boolean ok = true;
    if (readiness != null) {
      try {
        readiness.check();
      } catch (RuntimeException e) {
        LOG.warn("readiness probe: store unreachable: {}", e.toString());
        ok = false;
      }
    }
    resp.setStatus(ok ? 200 : 503);
    resp.setContentType("text/plain; charset=utf-8");
    resp.getWriter().write(ok ? "ok\n" : "unavailable\n");
  }
}
