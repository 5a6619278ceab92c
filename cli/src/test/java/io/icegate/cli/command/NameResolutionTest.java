package io.icegate.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.icegate.cli.Cli;
import io.icegate.cli.CliEnvironment;
import io.icegate.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Name resolution across pages when a name repeats. The gateway keeps display names unique, so it
 * cannot produce the ambiguous case; a JDK HttpServer on loopback serves fixed admin API pages
 * instead (the only stand-in in the CLI's tests; everything else runs against a real gateway in
 * the gateway module's CliCommandsTest).
 */
class NameResolutionTest {
  private HttpServer server;

  @Command(name = "icegate")
  static final class Root {}

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    Map<String, String> pages = Map.of(
        "/admin/v1/accounts", "{\"items\":[{\"id\":\"acc1\",\"name\":\"default\"}]}",
        "/admin/v1/accounts/acc1/integrations",
        "{\"items\":[{\"id\":\"i1\",\"displayName\":\"twin\"},"
            + "{\"id\":\"i2\",\"displayName\":\"i3\"}],\"nextPageToken\":\"p2\"}",
        "/admin/v1/accounts/acc1/integrations?p2",
        "{\"items\":[{\"id\":\"i3\",\"displayName\":\"twin\"}],\"nextPageToken\":null}");
    server.createContext("/", exchange -> {
      String query = exchange.getRequestURI().getQuery();
      String key = exchange.getRequestURI().getPath()
          + (query != null && query.contains("pageToken=p2") ? "?p2" : "");
      String body = pages.getOrDefault(key, "{\"items\":[{\"id\":\"" + key + "\"}]}");
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("ETag", "\"x/1\"");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private int run(StringWriter out, StringWriter err, String... args) throws Exception {
    CliEnvironment env = new CliEnvironment(Map.of("ICEGATE_ENDPOINT",
        "http://127.0.0.1:" + server.getAddress().getPort(), "ICEGATE_TOKEN", "t"),
        Files.createTempDirectory("cli-home"), label -> Optional.empty(),
        new PrintWriter(out, true), new PrintWriter(err, true));
    return Cli.install(new CommandLine(new Root()), env).execute(args);
  }

  @Test
  void aNameOnTwoPagesIsAmbiguousAndListsBothIds() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "integration", "get", "twin")).isEqualTo(ExitCode.USAGE);
    assertThat(err.toString()).contains("ambiguous").contains("i1").contains("i3")
        .contains("give an id");
  }

  @Test
  void anIdWinsOverAnotherResourcesName() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, "integration", "get", "i3", "-o", "json")).isEqualTo(0);
    // The GET is answered with the requested path as id, so this names the resource fetched.
    assertThat(out.toString()).contains("/admin/v1/accounts/acc1/integrations/i3");
  }
}
