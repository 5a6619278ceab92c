package io.icegate.gateway.testing;

import io.icegate.gateway.Gateway;
import io.icegate.gateway.GatewaySettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A fresh gateway on 127.0.0.1 and a free port, over a new SQLite store in a temporary data dir,
 * with a known bootstrap token. Tests talk to it over real HTTP: iceberg-core's RESTCatalog or raw
 * requests.
 */
public final class GatewayFixture implements AutoCloseable {
  public static final String TOKEN = "igt_test-bootstrap-token";

  private final Path dataDir;
  private final Gateway gateway;
  private final HttpClient http = HttpClient.newHttpClient();

  private GatewayFixture(Path dataDir, Gateway gateway) {
    this.dataDir = dataDir;
    this.gateway = gateway;
  }

  /** Starts a gateway on a new data dir. */
  public static GatewayFixture start() {
    return start(null);
  }

  /** Starts a gateway on a new data dir and {@code store}, or its own SQLite store when null. */
  public static GatewayFixture start(io.icegate.core.store.KvStore store) {
    try {
      // Surefire points java.io.tmpdir at target/tmp, which nobody creates; sqlite-jdbc extracts
      // its native library there.
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
      return start(Files.createTempDirectory("icegate-gw"), store, TOKEN);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("gateway failed to start", e);
    }
  }

  /**
   * Starts a gateway on {@code dataDir} (its {@code master.key}, if there, is the CredentialStore's
   * key) over {@code store}, with {@link #TOKEN} as the bootstrap token.
   */
  public static GatewayFixture startOn(Path dataDir, io.icegate.core.store.KvStore store) {
    return start(dataDir, store, TOKEN);
  }

  /**
   * Starts a gateway on {@code dataDir} over {@code store} with no bootstrap token configured: for
   * a store that already holds {@link #TOKEN} (written by {@link #startOn}). A configured token is
   * recorded in the store at every start; none is, so this start writes nothing.
   */
  public static GatewayFixture reopen(Path dataDir, io.icegate.core.store.KvStore store) {
    return start(dataDir, store, null);
  }

  /** Starts a gateway on a new data dir with {@code adjust} applied to its settings. */
  public static GatewayFixture startWith(
      java.util.function.UnaryOperator<GatewaySettings> adjust) {
    try {
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
      return start(Files.createTempDirectory("icegate-gw"), null, TOKEN, adjust);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("gateway failed to start", e);
    }
  }

  private static GatewayFixture start(Path dir, io.icegate.core.store.KvStore store,
      String bootstrapToken) {
    return start(dir, store, bootstrapToken, s -> s);
  }

  private static GatewayFixture start(Path dir, io.icegate.core.store.KvStore store,
      String bootstrapToken, java.util.function.UnaryOperator<GatewaySettings> adjust) {
    try {
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
      GatewaySettings settings =
          adjust.apply(new GatewaySettings(dir, null, "127.0.0.1", 0, true, bootstrapToken));
      PrintStream quiet = new PrintStream(java.io.OutputStream.nullOutputStream());
      return new GatewayFixture(dir, store == null
          ? Gateway.start(settings, quiet)
          : Gateway.start(settings, store, quiet));
    } catch (Exception e) {
      throw new IllegalStateException("gateway failed to start", e);
    }
  }

  /** The running gateway (its store, for setting up other accounts). */
  public Gateway gateway() {
    return gateway;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** The base URI clients set as {@code uri}: {@code http://127.0.0.1:PORT/iceberg}. */
  public String icebergUri() {
    return "http://127.0.0.1:" + gateway.port() + "/iceberg";
  }

  public String baseUri() {
    return "http://127.0.0.1:" + gateway.port();
  }

  /** A RESTCatalog client of catalog {@code default} with the bootstrap token. */
  public RESTCatalog client() {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, icebergUri());
    props.put(CatalogProperties.WAREHOUSE_LOCATION, "default");
    props.put("token", TOKEN);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("icegate", props);
    return catalog;
  }

  /**
   * Sends a raw request; {@code body} may be null. The bootstrap token is added unless {@code
   * headers} (name, value, name, value...) carry an Authorization of their own, and a body is sent
   * as {@code application/json} unless they carry a Content-Type.
   */
  public HttpResponse<String> send(String method, String path, String body, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUri() + path))
        .method(method, body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    boolean ownAuthorization = false;
    boolean ownContentType = false;
    for (int i = 0; i + 1 < headers.length; i += 2) {
      ownAuthorization |= headers[i].equalsIgnoreCase("Authorization");
      ownContentType |= headers[i].equalsIgnoreCase("Content-Type");
    }
    if (!ownAuthorization) {
      request.header("Authorization", "Bearer " + TOKEN);
    }
    if (body != null && !ownContentType) {
      request.header("Content-Type", "application/json");
    }
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
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

  /**
   * Sends {@code GET path} with the bootstrap token over a plain socket and returns the whole
   * response (status line, headers, body): for paths {@code java.net.URI} refuses, such as a bad
   * percent escape, which only Jetty's own checks should see.
   */
  public String rawGet(String path) {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", gateway.port())) {
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer " + TOKEN + "\r\nConnection: close\r\n\r\n")
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code prefix} of catalog {@code default}, from the config route. */
  public String prefix() {
    String json = send("GET", "/iceberg/v1/config?warehouse=default", null).body();
    int at = json.indexOf("\"prefix\":\"") + "\"prefix\":\"".length();
    return json.substring(at, json.indexOf('"', at));
  }

  /** The id of account {@code default}, which the gateway bootstraps, from the admin API. */
  public String defaultAccountId() {
    try {
      for (com.fasterxml.jackson.databind.JsonNode item : new com.fasterxml.jackson.databind
          .ObjectMapper().readTree(send("GET", "/admin/v1/accounts", null).body()).get("items")) {
        if (item.get("name").asText().equals("default")) {
          return item.get("id").asText();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no account named default");
  }

  @Override
  public void close() {
    gateway.close();
  }
}
