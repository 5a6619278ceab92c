package io.icegate.admin.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.admin.AdminApi;
import io.icegate.core.auth.TokenGrant;
import io.icegate.core.auth.TokenRole;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.overlay.assembly.ServiceSettings;
import io.icegate.overlay.assembly.Services;
import io.icegate.overlay.reconcile.ReconcileSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * The admin servlet, built by {@link AdminApi} over {@link Services} exactly as the gateway builds
 * it, on a real Jetty at 127.0.0.1 and a free port, over the in-memory store (FoundationDB-style
 * conflicts). Tests talk to it over real HTTP; {@link #services} reaches the domain for setup that
 * has no admin route (managed tables, which only reconciliation writes).
 */
public final class AdminServer implements AutoCloseable {
  /** The server admin's bearer token. */
  public static final String ADMIN = "igt_admin-api-test-admin";
  /** Largest request body, as the gateway's default. */
  private static final long MAX_BODY_BYTES = 8L * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  public final Services services;
  private final Server jetty;
  private final ServerConnector connector;
  private final HttpClient http = HttpClient.newHttpClient();

  private AdminServer(Services services, Server jetty, ServerConnector connector) {
    this.services = services;
    this.jetty = jetty;
    this.connector = connector;
  }

  /** Starts the server; tokens are recorded with {@link #grant}. */
  public static AdminServer start() {
    Services services = new Services(new EngineKvStore(InMemoryEngine.create()),
        Clock.systemUTC(),
        ServiceSettings.embedded(MasterKey.of(new byte[32]), ReconcileSettings.DEFAULT));
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    CleanupStep noTokenCache = (tx, account, maxKeys) -> 0; // tokens are resolved uncached here
    context.addServlet(new ServletHolder(
        AdminApi.servlet(services, noTokenCache, MAX_BODY_BYTES)), "/admin/*");
    jetty.setHandler(context);
    try {
      jetty.start();
    } catch (Exception e) {
      services.store().close();
      throw new IllegalStateException("admin server failed to start", e);
    }
    return new AdminServer(services, jetty, connector);
  }

  /** Records {@code token} with {@code role} in {@code account} ({@code serverAdmin} or not). */
  public void grant(String token, String account, TokenRole role, boolean serverAdmin) {
    services.store().run(tx -> {
      services.core().tokens().put(tx, token, new TokenGrant(account, role, serverAdmin, "test"));
      return null;
    });
  }

  /**
   * Sends {@code method path} with {@code body} (JSON, or none when null) and header pairs; as
   * {@link #ADMIN} unless an {@code Authorization} pair is given.
   */
  public HttpResponse<String> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + connector.getLocalPort() + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    boolean authorized = false;
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
      authorized |= headers[i].equalsIgnoreCase("Authorization");
    }
    if (!authorized) {
      request.header("Authorization", "Bearer " + ADMIN);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The response's JSON body. */
  public static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      jetty.stop();
    } finally {
      services.store().close();
    }
  }
}
