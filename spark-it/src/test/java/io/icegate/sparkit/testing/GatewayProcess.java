package io.icegate.sparkit.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged gateway ({@code gateway/target/icegate-server.jar}) running as a child JVM, started
 * the way {@code ./icegate serve} starts it: {@code java -jar icegate-server.jar serve --port 0
 * --data-dir DIR} with {@code ICEGATE_BOOTSTRAP_TOKEN} in its environment. The port is read from
 * the startup line {@code icegate listening on http://127.0.0.1:PORT}.
 *
 * <p>It is a separate JVM because Spark pins Servlet 5 while the gateway runs Jetty 12 on Servlet
 * 6 (DESIGN.md matrix). The child's stdout and stderr go to {@code gateway.log} beside the data
 * dir, never to the test's output; with the token supplied, the gateway does not print it.
 */
public final class GatewayProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("icegate listening on (http://127\\.0\\.0\\.1:(\\d+))");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private final Process process;
  private final Path dataDir;
  private final Path log;
  private final String baseUri;
  private final Thread reaper;

  private GatewayProcess(Process process, Path dataDir, Path log, String baseUri, Thread reaper) {
    this.process = process;
    this.dataDir = dataDir;
    this.log = log;
    this.baseUri = baseUri;
    this.reaper = reaper;
  }

  /**
   * Starts the server jar named by the system property {@code icegate.server.jar} (set by this
   * module's surefire configuration) on a fresh data dir under {@code workDir}.
   *
   * @param workDir an existing directory; {@code data/} and {@code gateway.log} are created in it
   * @param token the bootstrap admin token the gateway records on first start
   * @throws IllegalStateException when the jar is missing, or the process exits or does not print
   *     its listening line within 90 s (the message carries the log's last lines)
   */
  public static GatewayProcess start(Path workDir, String token) throws IOException {
    Path jar = Path.of(
        System.getProperty("icegate.server.jar", "../gateway/target/icegate-server.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("no gateway jar at " + jar.toAbsolutePath()
          + ": build with -am so the gateway module packages it first");
    }
    Path dataDir = workDir.resolve("data");
    Path log = workDir.resolve("gateway.log");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Xmx512m", "-jar",
        jar.toAbsolutePath().toString(), "serve", "--port", "0", "--data-dir", dataDir.toString())
        .redirectErrorStream(true);
    builder.environment().put("ICEGATE_BOOTSTRAP_TOKEN", token);
    // The tests' object store is s3proxy, which lacks the AWS SDK's default CRC checksum
    // trailers; the SDK reads these variables (real S3 needs neither).
    builder.environment().put("AWS_REQUEST_CHECKSUM_CALCULATION", "when_required");
    builder.environment().put("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required");
    Process process = builder.start();
    // A test JVM that dies without closing us must not leave a server behind.
    Thread reaper = new Thread(process::destroyForcibly, "icegate-gateway-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);

    CompletableFuture<String> listening = new CompletableFuture<>();
    Thread pump = new Thread(() -> pump(process, log, listening), "icegate-gateway-output");
    pump.setDaemon(true);
    pump.start();
    try {
      String baseUri = listening.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      return new GatewayProcess(process, dataDir, log, baseUri, reaper);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      Runtime.getRuntime().removeShutdownHook(reaper);
      throw new IllegalStateException("gateway did not start: " + LogTail.of(log), e);
    }
  }

  /** Copies the child's output to the log and completes {@code listening} with its base URI. */
  private static void pump(Process process, Path log, CompletableFuture<String> listening) {
    try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        out.write(line);
        out.write('\n');
        out.flush();
        Matcher m = LISTENING.matcher(line);
        if (m.find()) {
          listening.complete(m.group(1));
        }
      }
      int exit = process.waitFor();
      // 137/143: killed by SIGKILL/SIGTERM from outside; the gateway itself logs nothing then.
      out.write("[spark-it] gateway process exited with code " + exit + "\n");
      listening.completeExceptionally(new IllegalStateException("gateway exited with " + exit));
    } catch (IOException | InterruptedException e) {
      listening.completeExceptionally(e);
    }
  }

  /**
   * Fails fast, naming the exit code and the log, when the child is gone, so a dead gateway does
   * not surface as a confusing connection error inside Spark.
   *
   * @throws IllegalStateException when the process has exited
   */
  public void requireAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("the gateway process exited with code "
          + process.exitValue() + "; see " + log);
    }
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String baseUri() {
    return baseUri;
  }

  /** What clients set as the catalog {@code uri}: {@code http://127.0.0.1:PORT/iceberg}. */
  public String icebergUri() {
    return baseUri + "/iceberg";
  }

  /** The default Catalog's warehouse directory, {@code DATA_DIR/warehouse}. */
  public Path warehouse() {
    return dataDir.resolve("warehouse");
  }

  public Path log() {
    return log;
  }

  /** Stops the child as Ctrl-C would (its shutdown hook closes the store), forcibly after 20 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(reaper);
  }
}
