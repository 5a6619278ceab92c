package io.icegate.sparkit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A Trino server (coordinator only, one node) running as a child process from the unpacked {@code
 * trino-server} tarball, on a JDK of version 24 or later (Trino 476 refuses older ones; the test
 * JVM is Java 17). It is started with {@code java -cp lib/*} and {@code io.trino.server.TrinoServer}
 * directly, as Trino's launcher does, without the launcher's Python script: its own {@code etc}
 * (config and catalog files) and data dir under the work dir, bound to 127.0.0.1 on a free port,
 * a 1 GB heap. Queries go through Trino's JDBC driver in the test JVM.
 *
 * <p>The server directory is the system property {@code trino.server.dir} (spark-it's build
 * unpacks {@code lib/}, {@code plugin/iceberg/} and the plugins its jars link to there); the JDK is {@code trino.java.home} or
 * environment variable {@code TRINO_JAVA_HOME}, else the newest JDK >= 24 under {@code
 * /usr/lib/jvm}. Output goes to {@code trino.log} in the work dir.
 */
public final class TrinoProcess implements AutoCloseable {
  /** Trino 476's minimum Java version. */
  public static final int MIN_JAVA = 24;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern JAVA_VERSION =
      Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

  private final Process process;
  private final Path log;
  private final int port;
  private final Thread reaper;

  private TrinoProcess(Process process, Path log, int port, Thread reaper) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.reaper = reaper;
  }

  /**
   * The JDK Trino runs on. Where none is found the calling test is skipped, except under CI
   * ({@code CI=true}, as {@code .ci/run} sets it), where the Trino test is mandatory and fails.
   *
   * @throws IllegalStateException when {@code trino.java.home} or {@code TRINO_JAVA_HOME} names a
   *     directory that is not a JDK >= 24 (a wrong setting is an error, not a skip)
   */
  public static Path requireJava() {
    Optional<Path> java = findJava();
    if (java.isEmpty()) {
      String message = "the Trino test needs a JDK >= " + MIN_JAVA + " (Trino 476): set "
          + "-Dtrino.java.home or TRINO_JAVA_HOME, or install one under /usr/lib/jvm";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message + "; under CI (CI=true) this test is mandatory");
      }
      Assumptions.abort(message);
    }
    return java.get();
  }

  private static Optional<Path> findJava() {
    for (String configured : new String[] {System.getProperty("trino.java.home"),
        System.getenv("TRINO_JAVA_HOME")}) {
      // surefire passes an unset Maven property as its own expression
      if (configured != null && !configured.isBlank() && !configured.startsWith("${")) {
        Path home = Path.of(configured);
        if (javaVersion(home) < MIN_JAVA) {
          throw new IllegalStateException(home + " is not a JDK >= " + MIN_JAVA);
        }
        return Optional.of(home);
      }
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> homes = Files.list(jvms)) {
      return homes.filter(home -> !Files.isSymbolicLink(home))
          .filter(home -> javaVersion(home) >= MIN_JAVA)
          .max(Comparator.comparingInt(TrinoProcess::javaVersion));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The feature release a JDK's {@code release} file names, 0 when it is not a JDK. */
  private static int javaVersion(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/java"))) {
      return 0;
    }
    try {
      Matcher m = JAVA_VERSION.matcher(Files.readString(release));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Starts Trino with one catalog per entry of {@code catalogs} (catalog name to its properties)
   * and waits until it answers a query.
   *
   * @throws IllegalStateException when the server directory is missing, or Trino exits or does not
   *     answer within 240 s (the message carries the log's last lines)
   */
  public static TrinoProcess start(Path workDir, Path javaHome,
      Map<String, Map<String, String>> catalogs) throws IOException, InterruptedException {
    Path server = Path.of(System.getProperty("trino.server.dir", "target/trino-server"))
        .toAbsolutePath();
    if (!Files.isDirectory(server.resolve("lib")) || !Files.isDirectory(server.resolve("plugin"))) {
      throw new IllegalStateException("no Trino server under " + server
          + ": spark-it's build unpacks it (run its tests through Maven)");
    }
    int port = freePort();
    Path etc = Files.createDirectories(workDir.resolve("trino/etc/catalog")).getParent();
    Path config = etc.resolve("config.properties");
    Files.write(config, List.of(
        "coordinator=true",
        "node-scheduler.include-coordinator=true",
        "node.environment=spark_it",
        "node.id=" + UUID.randomUUID(),
        "node.bind-ip=127.0.0.1",
        "node.internal-address=127.0.0.1",
        "http-server.http.port=" + port,
        "discovery.uri=http://127.0.0.1:" + port,
        "plugin.dir=" + icebergPlugin(server, workDir.resolve("trino/plugin")),
        "catalog.config-dir=" + etc.resolve("catalog"),
        "query.max-memory=256MB",
        "query.max-memory-per-node=256MB"));
    for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
      List<String> lines = new ArrayList<>();
      catalog.getValue().forEach((key, value) -> lines.add(key + "=" + value));
      Files.write(etc.resolve("catalog/" + catalog.getKey() + ".properties"), lines);
    }

    Path log = workDir.resolve("trino.log");
    // Trino's own jvm.config recommendations, with a small heap.
    ProcessBuilder builder = new ProcessBuilder(javaHome.resolve("bin/java").toString(),
        "-Xmx1G", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", "-XX:-OmitStackTraceInFastThrow",
        "-XX:ReservedCodeCacheSize=256M", "-Djdk.attach.allowAttachSelf=true",
        "-Djdk.nio.maxCachedBufferSize=2000000", "-Dfile.encoding=UTF-8",
        "-XX:+EnableDynamicAgentLoading", "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-Djava.io.tmpdir=" + workDir,
        "-Dconfig=" + config, "-cp", server.resolve("lib") + "/*", "io.trino.server.TrinoServer")
        // the launcher's data dir: the working directory
        .directory(Files.createDirectories(workDir.resolve("trino/data")).toFile())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // The tests' object store is s3proxy, which lacks the AWS SDK's default CRC checksums.
    builder.environment().put("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required");
    builder.environment().put("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required");
    Process process = builder.start();
    Thread reaper = new Thread(process::destroyForcibly, "icegate-trino-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);
    TrinoProcess trino = new TrinoProcess(process, log, port, reaper);
    try {
      trino.awaitReady();
      return trino;
    } catch (RuntimeException | InterruptedException e) {
      trino.close();
      throw e;
    }
  }

  /**
   * A plugin dir holding only the Iceberg plugin, as links to the unpacked jars. In the tarball
   * most of its jars are hard links to jars of the same name in {@code lib/} or in other plugins'
   * directories, which maven-dependency-plugin unpacks as empty files: each of those is linked to
   * its unpacked namesake instead.
   *
   * @throws IllegalStateException when an empty jar has no unpacked namesake
   */
  private static Path icebergPlugin(Path server, Path pluginDir) throws IOException {
    Path target = Files.createDirectories(pluginDir.resolve("iceberg"));
    Map<Path, Path> unpacked = new HashMap<>();
    for (Path dir : List.of(server.resolve("lib"), server.resolve("plugin"))) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.filter(file -> Files.isRegularFile(file) && size(file) > 0)
            .forEach(file -> unpacked.putIfAbsent(file.getFileName(), file));
      }
    }
    // top-level jars only: the plugin's hdfs/ part serves only the legacy Hadoop file systems
    try (Stream<Path> jars = Files.list(server.resolve("plugin/iceberg"))) {
      for (Path jar : jars.filter(Files::isRegularFile).toList()) {
        Path source = size(jar) > 0 ? jar : unpacked.get(jar.getFileName());
        if (source == null) {
          throw new IllegalStateException(jar + " is empty (a hard link in the tarball) and no"
              + " unpacked jar of that name exists: unpack the plugin it links to");
        }
        Files.createSymbolicLink(target.resolve(jar.getFileName()), source);
      }
    }
    return pluginDir;
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Waits until the coordinator has started and a query runs (its node is registered). */
  private void awaitReady() throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest info = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/info"))
        .timeout(Duration.ofSeconds(5)).build();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      requireAlive();
      try {
        String body = http.send(info, HttpResponse.BodyHandlers.ofString()).body();
        if (body.replace(" ", "").contains("\"starting\":false")) {
          try (Connection connection = connect(); Statement statement =
              connection.createStatement()) {
            statement.executeQuery("SELECT 1").close();
            return;
          }
        }
      } catch (IOException | SQLException e) {
        last = e; // not listening yet, or no active node yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("Trino did not start within " + START_TIMEOUT.toSeconds()
        + " s (last: " + last + "): " + LogTail.of(log));
  }

  /** A JDBC connection as user {@code spark-it}, session time zone UTC. */
  public Connection connect() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", "spark-it");
    properties.setProperty("timezone", "UTC");
    return DriverManager.getConnection("jdbc:trino://127.0.0.1:" + port, properties);
  }

  /**
   * Fails fast, naming the exit code and the log, when the child is gone.
   *
   * @throws IllegalStateException when the process has exited
   */
  public void requireAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("the Trino process exited with code "
          + process.exitValue() + "; see " + log + ": " + LogTail.of(log));
    }
  }

  /** Stops Trino with SIGTERM, forcibly after 20 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(reaper);
  }
}
