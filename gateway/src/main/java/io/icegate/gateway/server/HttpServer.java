package io.icegate.gateway.server;

import io.icegate.core.assembly.StoreReadiness;
import io.icegate.core.store.KvStore;
import io.icegate.gateway.console.ConsoleServlet;
import io.icegate.gateway.iceberg.IcebergRestServlet;
import io.icegate.gateway.ops.HealthServlet;
import io.icegate.gateway.ops.MetricsServlet;
import io.icegate.gateway.ops.NotFoundServlet;
import io.icegate.gateway.ops.RouteMetrics;
import io.icegate.gateway.ops.RouteMetricsFilter;
import jakarta.servlet.http.HttpServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Jetty 12 (ee10) server hosting the gateway's HTTP surfaces: {@code /iceberg/*}, {@code /admin/*}, the console
 * ({@code /console/}), {@code /healthz}, {@code /readyz} and {@code /metrics}.
 *
 * <p>URI compliance is relaxed as Iceberg clients need it: a namespace path travels as one segment
 * joined with {@code %1F}, and names may contain an encoded slash, which Jetty's default compliance
 * rejects as ambiguous or suspicious (DESIGN.md, Jetty row of the matrix). The servlet matches on
 * the raw path, so decoding ambiguous URIs does not change routing.
 */
public final class HttpServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;

  private HttpServer(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /**
   * Starts the server.
   *
   * @param listening the socket to accept on, bound by {@link ListeningPort#bind} to {@code
   *     settings}' address; the server owns it from now on and closes it when it stops
   * @param store the store whose statistics {@code /metrics} shows
   * @param readiness the probe of {@code /readyz}
   *
   * @throws Exception when a servlet fails to initialize
   */
  public static HttpServer start(
      HttpSettings settings, java.nio.channels.ServerSocketChannel listening, KvStore store,
      StoreReadiness readiness, IcebergRestServlet iceberg,
      jakarta.servlet.http.HttpServlet admin, RouteMetrics metrics)
      throws Exception {
    avoidJmxProbe();
    QueuedThreadPool threads = new QueuedThreadPool(200, 8);
    threads.setName("icegate-http");
    Server server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setUriCompliance(UriCompliance.DEFAULT.with("iceberg-rest",
        UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
        UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
        UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS));
    ServerConnector connector = new ServerConnector(server, new TargetRecordingConnectionFactory(config));
    connector.setHost(settings.bind());
    connector.setPort(settings.port());
    connector.open(listening);
    server.addConnector(connector);

    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.getServletHandler().setDecodeAmbiguousURIs(true);
    // The servlets read every body themselves under maxRequestBytes, but asking for query
    // parameters makes Jetty check a form-encoded body's length against its own 200,000-byte
    // default and throw (a 500), e.g. for `curl -d` without a Content-Type. One limit for both.
    context.setMaxFormContentSize((int) Math.min(settings.maxRequestBytes(), Integer.MAX_VALUE));
    // one count per request of the three surfaces, under the route its servlet matched
    RouteMetricsFilter counting = new RouteMetricsFilter(metrics);
    for (String surface : new String[] {"/iceberg/*", "/admin/*", "/console/*"}) {
      context.addFilter(new FilterHolder(counting), surface,
          java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
    }
    add(context, iceberg, "/iceberg/*");
    add(context, admin, "/admin/*");
    add(context, new ConsoleServlet(), "/console/*");
    add(context, new HealthServlet(null), "/healthz");
    add(context, new HealthServlet(readiness), "/readyz");
    add(context, new MetricsServlet(metrics, store), "/metrics");
    add(context, new NotFoundServlet(), "/");
    server.setHandler(context);
    server.setErrorHandler(new JsonErrorHandler(metrics));
    server.setStopTimeout(5_000);
    server.start();
    return new HttpServer(server, connector);
  }

  /**
   * Jetty sizes the padding of its lock-free queues by the reference size, which it asks the JVM
   * for through JMX unless the property below is set; starting JMX's platform server for that one
   * answer loads ~170 classes and is a visible part of the gateway's start-up. References are 4
   * bytes when the JVM compresses them, which it does by default below a 32 GB heap; a wrong guess
   * only pads more or less than a cache line, it never changes behaviour.
   */
  private static void avoidJmxProbe() {
    String property = "org.eclipse.jetty.util.referencesPerCacheLine";
    if (System.getProperty(property) == null) {
      boolean compressedReferences = Runtime.getRuntime().maxMemory() < (32L << 30);
      System.setProperty(property, compressedReferences ? "16" : "8");
    }
  }

  private static void add(ServletContextHandler context, HttpServlet servlet, String path) {
    context.addServlet(new ServletHolder(servlet), path);
  }

  /** The bound port (the chosen one when started with port 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** Stops accepting requests and waits for running ones (at most 5 s). */
  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping Jetty failed", e);
    }
  }
}
