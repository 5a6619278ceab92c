package io.icegate.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.cli.CliEnvironment;
import io.icegate.gateway.server.StoreLocation;
import io.icegate.gateway.testing.GatewayFixture;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Starting the gateway: the data dir's lock, file permissions, bootstrap paths, the log line. */
class GatewayStartupTest {
  private static final PrintStream QUIET =
      new PrintStream(java.io.OutputStream.nullOutputStream());

  @TempDir Path tmp;

  private static String permissions(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  @Test
  void aSecondServerOnTheSameDataDirIsRefusedAndTheLockIsReleasedOnClose() throws Exception {
    Path dataDir;
    try (GatewayFixture first = GatewayFixture.start()) {
      dataDir = first.dataDir();
      GatewaySettings same = new GatewaySettings(dataDir, null, "127.0.0.1", 0, false, null);
      assertThatThrownBy(() -> Gateway.start(same, QUIET).close())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("already in use")
          .hasMessageContaining(dataDir.toString());

      // `icegate serve` on the same dir: a one-line error and a non-zero exit code.
      StringWriter err = new StringWriter();
      CliEnvironment environment = new CliEnvironment(Map.of(), tmp,
          label -> Optional.empty(), new PrintWriter(new StringWriter(), true),
          new PrintWriter(err, true));
      int code = Main.commandLine(environment)
          .execute("serve", "--port", "0", "--data-dir", dataDir.toString());
      assertThat(code).isNotZero();
      assertThat(err.toString()).startsWith("icegate: ").contains("already in use");
    }
    // The first server is closed: its lock is gone.
    try (Gateway again = Gateway.start(
        new GatewaySettings(dataDir, null, "127.0.0.1", 0, false, null), QUIET)) {
      assertThat(again.port()).isPositive();
    }
  }

  @Test
  void theStoreFileAndANewDataDirAreOwnerOnly() throws Exception {
    try (GatewayFixture gateway = GatewayFixture.start()) {
      for (String name : new String[] {"icegate.db", "icegate.db-wal", "icegate.db-shm"}) {
        Path file = gateway.dataDir().resolve(name);
        if (Files.exists(file)) {
          assertThat(permissions(file)).as(name).isEqualTo("rw-------");
        }
      }
      assertThat(gateway.dataDir().resolve("icegate.db")).exists();
    }
    Path fresh = tmp.resolve("fresh").resolve("data");
    StoreLocation.open(null, fresh).close();
    assertThat(permissions(fresh)).isEqualTo("rwx------");
    assertThat(permissions(fresh.resolve("icegate.db"))).isEqualTo("rw-------");
  }

  @Test
  void theDefaultCatalogOfARelativeDataDirHasAnAbsoluteWarehouse() throws Exception {
    Path relative = Path.of("").toAbsolutePath().relativize(tmp.resolve("rel").toAbsolutePath());
    assertThat(relative.isAbsolute()).isFalse();
    GatewaySettings settings =
        new GatewaySettings(relative, null, "127.0.0.1", 0, false, GatewayFixture.TOKEN);
    try (Gateway gateway = Gateway.start(settings, QUIET)) {
      java.net.http.HttpResponse<String> catalogs = java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
              + gateway.port() + "/admin/v1/accounts")).header("Authorization",
              "Bearer " + GatewayFixture.TOKEN).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
      String account = new ObjectMapper().readTree(catalogs.body()).at("/items/0/id").asText();
      JsonNode list = new ObjectMapper().readTree(java.net.http.HttpClient.newHttpClient().send(
          java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
              + gateway.port() + "/admin/v1/accounts/" + account + "/catalogs"))
              .header("Authorization", "Bearer " + GatewayFixture.TOKEN).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body());
      assertThat(list.at("/items/0/warehouse").asText())
          .isEqualTo("file:" + tmp.resolve("rel").toAbsolutePath().resolve("warehouse"));
    }
  }

  @Test
  void theStartupLogLineShowsTheBoundPortAndTheStoreButNoToken() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(Gateway.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (Gateway gateway = Gateway.start(
        new GatewaySettings(tmp, null, "127.0.0.1", 0, false, GatewayFixture.TOKEN), QUIET)) {
      String line = appender.list.stream().map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("gateway started")).findFirst().orElseThrow();
      assertThat(line).contains("port=" + gateway.port())
          .contains("store=sqlite:" + tmp.resolve("icegate.db"))
          .doesNotContain(GatewayFixture.TOKEN)
          .doesNotContain("port=0");
    } finally {
      logger.detachAppender(appender);
    }
  }

  /** Tryout: a SIGTERM (serve's shutdown hook closes the gateway) left no line saying so. */
  @Test
  void closingLogsOneStoppedLineAfterTheStoreIsClosed() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(Gateway.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      Gateway gateway = Gateway.start(
          new GatewaySettings(tmp, null, "127.0.0.1", 0, false, GatewayFixture.TOKEN), QUIET);
      int port = gateway.port();
      gateway.close();
      gateway.close();
      java.util.List<String> stopped = appender.list.stream()
          .map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("gateway stopped")).toList();
      assertThat(stopped).hasSize(1);
      assertThat(stopped.get(0)).contains("port=" + port).contains("store closed");
      // the store really is closed when the line is written: the data dir may be reopened
      Gateway.start(new GatewaySettings(tmp, null, "127.0.0.1", 0, false, null), QUIET).close();
    } finally {
      logger.detachAppender(appender);
    }
  }

  /**
   * Tryout: a busy port printed a 39-line trace after the store and the bootstrap token were
   * created. The port is bound first: one line naming it, exit 1, nothing created.
   */
  @Test
  void aBusyPortIsOneLineBeforeAnythingIsCreated() throws Exception {
    Path dataDir = tmp.resolve("busy");
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      String port = Integer.toString(taken.getLocalPort());
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CliEnvironment environment = new CliEnvironment(Map.of(), tmp, label -> Optional.empty(),
          new PrintWriter(out, true), new PrintWriter(err, true));
      int code = Main.commandLine(environment)
          .execute("serve", "--port", port, "--data-dir", dataDir.toString());
      assertThat(code).isEqualTo(1);
      assertThat(err.toString()).startsWith("icegate: cannot listen on 127.0.0.1 port " + port)
          .contains("in use").contains("--port").doesNotContain("Exception");
      assertThat(err.toString().strip().lines()).hasSize(1);
      assertThat(dataDir).doesNotExist();
    }
  }
}
