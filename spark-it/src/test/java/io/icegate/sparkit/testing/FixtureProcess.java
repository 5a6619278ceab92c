package io.icegate.sparkit.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;

/**
 * One of catalog-access/iceberg-rest's test fixtures running as a child JVM from its {@code main}:
 * the upstream Iceberg REST catalog ({@code IcebergRestFixture}: s3proxy, Iceberg's reference REST
 * servlet over an in-memory JDBC catalog, seeded) or the object store alone ({@code
 * ObjectStoreFixture}: s3proxy). They run Jetty 12 (Servlet 6), which cannot share a JVM with
 * Spark (Servlet 5; DESIGN.md matrix).
 *
 * <p>The classpath is that module's build output, never this JVM's: {@code target/test-classes},
 * {@code target/classes} and the dependency list {@code target/fixture.classpath} that its build
 * writes with maven-dependency-plugin, under the directory named by the system property {@code
 * icegate.fixtures.dir} (set by surefire). A fixture prints its address on the first stdout line,
 * then {@code key=value} settings, and serves until its stdin closes (lines written to its stdin
 * before that are commands, see {@link #command}); its stderr (logs) goes to
 * {@code NAME.log} in the work dir, its stdout to {@code NAME.out}.
 */
public final class FixtureProcess implements AutoCloseable {
  private static final String PACKAGE = "io.icegate.access.iceberg.fixture.";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final String address;
  private final Map<String, String> settings;
  private final Path log;
  private final Thread reaper;
  private final BlockingQueue<String> answers;

  private FixtureProcess(Process process, String address, Map<String, String> settings, Path log,
      Thread reaper, BlockingQueue<String> answers) {
    this.process = process;
    this.address = address;
    this.settings = settings;
    this.log = log;
    this.reaper = reaper;
    this.answers = answers;
  }

  /**
   * Starts the seeded upstream catalog (namespaces {@code sales}, {@code sales.emea}, {@code
   * Marketing}, {@code Marketing.BrandQ1}; tables {@code sales.orders}, {@code
   * sales.emea.customers}, {@code Marketing.Campaigns}; view {@code sales.order_summary}).
   *
   * @param options the fixture's arguments: {@code --require-oauth}, {@code --vend-credentials}
   * @throws IllegalStateException when the fixture's build output is missing, or it exits or does
   *     not print its settings within 90 s (the message carries the log's last lines)
   */
  public static FixtureProcess startUpstreamCatalog(Path workDir, String... options)
      throws IOException {
    return start(workDir, "upstream", "IcebergRestFixture", "warehouse", options);
  }

  /**
   * Starts s3proxy alone with {@code buckets} created.
   *
   * @throws IllegalStateException as {@link #startUpstreamCatalog}
   */
  public static FixtureProcess startObjectStore(Path workDir, String... buckets)
      throws IOException {
    return start(workDir, "object-store", "ObjectStoreFixture", "region", buckets);
  }

  /**
   * Starts s3proxy alone, accepting only the identity {@code accessKeyId} / {@code
   * secretAccessKey}, with {@code buckets} created; its output goes to {@code NAME.out} and
   * {@code NAME.log}. Two stores with different identities show that one credential does not
   * quietly cover both.
   *
   * @throws IllegalStateException as {@link #startUpstreamCatalog}
   */
  public static FixtureProcess startObjectStoreWithIdentity(Path workDir, String name,
      String accessKeyId, String secretAccessKey, String... buckets) throws IOException {
    List<String> args = new ArrayList<>(List.of("--access-key-id=" + accessKeyId,
        "--secret-access-key=" + secretAccessKey));
    args.addAll(List.of(buckets));
    return start(workDir, name, "ObjectStoreFixture", "region", args.toArray(new String[0]));
  }

  private static FixtureProcess start(Path workDir, String name, String mainClass, String lastKey,
      String... args) throws IOException {
    Path log = workDir.resolve(name + ".log");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx384m",
        // s3proxy keeps its blobs under a temporary directory: inside the work dir, not /tmp.
        "-Djava.io.tmpdir=" + workDir, "-cp", classpath(), PACKAGE + mainClass));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    Thread reaper = new Thread(process::destroyForcibly, "icegate-" + name + "-reaper");
    Runtime.getRuntime().addShutdownHook(reaper);

    CompletableFuture<Map<String, String>> ready = new CompletableFuture<>();
    BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    Path out = workDir.resolve(name + ".out");
    Thread pump = new Thread(() -> pump(process, out, lastKey, ready, answers),
        "icegate-" + name + "-out");
    pump.setDaemon(true);
    pump.start();
    try {
      Map<String, String> settings = new LinkedHashMap<>(
          ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      String address = settings.remove("");
      return new FixtureProcess(process, address, Map.copyOf(settings), log, reaper, answers);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      Runtime.getRuntime().removeShutdownHook(reaper);
      throw new IllegalStateException(mainClass + " did not start: " + LogTail.of(log), e);
    }
  }

  private static String classpath() throws IOException {
    Path dir = Path.of(System.getProperty("icegate.fixtures.dir",
        "../catalog-access/iceberg-rest/target")).toAbsolutePath();
    Path dependencies = dir.resolve("fixture.classpath");
    if (!Files.isRegularFile(dependencies) || !Files.isDirectory(dir.resolve("test-classes"))) {
      throw new IllegalStateException("no fixture build output under " + dir
          + ": build catalog-access/iceberg-rest first (-am, or package -DskipTests)");
    }
    return String.join(File.pathSeparator, dir.resolve("test-classes").toString(),
        dir.resolve("classes").toString(), Files.readString(dependencies).trim());
  }

  /**
   * Copies stdout to {@code out} and completes {@code ready} with the settings once the line for
   * {@code lastKey} arrived; the first line (the address) is kept under the empty key. Later lines
   * (answers to {@link #command}) go to {@code answers}.
   */
  private static void pump(Process process, Path out, String lastKey,
      CompletableFuture<Map<String, String>> ready, BlockingQueue<String> answers) {
    Map<String, String> settings = new LinkedHashMap<>();
    try (BufferedReader in = new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer copy = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        copy.write(line);
        copy.write('\n');
        copy.flush();
        if (ready.isDone()) {
          answers.add(line.trim());
          continue;
        }
        int eq = line.indexOf('=');
        if (settings.isEmpty()) {
          settings.put("", line.trim());
        } else if (eq > 0) {
          settings.put(line.substring(0, eq), line.substring(eq + 1));
          if (line.substring(0, eq).equals(lastKey)) {
            ready.complete(settings);
          }
        }
      }
      int exit = process.waitFor();
      ready.completeExceptionally(new IllegalStateException("fixture exited with " + exit));
    } catch (IOException | InterruptedException e) {
      ready.completeExceptionally(e);
    }
  }

  /**
   * The first line the fixture printed: the upstream catalog's URI ({@code http://127.0.0.1:PORT},
   * clients append {@code /v1/...}) or the object store's endpoint.
   */
  public String address() {
    return address;
  }

  /**
   * The {@code key=value} lines. Upstream catalog: {@code s3.endpoint}, {@code
   * s3.path-style-access}, {@code client.region}, {@code s3.access-key-id}, {@code
   * s3.secret-access-key}, {@code warehouse}. Object store: {@code access-key-id}, {@code
   * secret-access-key}, {@code region}.
   */
  public Map<String, String> settings() {
    return settings;
  }

  /**
   * One of {@link #settings()}.
   *
   * @throws IllegalStateException when the fixture did not print {@code key}
   */
  public String setting(String key) {
    String value = settings.get(key);
    if (value == null) {
      throw new IllegalStateException("the fixture printed no " + key + "; see " + log);
    }
    return value;
  }

  /**
   * Sends {@code command} to the fixture's stdin and waits until it answers {@code ok COMMAND},
   * i.e. the command applies to every later request. The upstream catalog knows {@code
   * vend-wrong-keys} ({@code IcebergRestFixture#main}).
   *
   * @throws IllegalStateException when the fixture answers anything else, or nothing within 30 s
   */
  public void command(String command) throws IOException, InterruptedException {
    process.getOutputStream().write((command + "\n").getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().flush();
    String answer = answers.poll(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (!("ok " + command).equals(answer)) {
      throw new IllegalStateException("the fixture answered " + answer + " to " + command
          + "; see " + log);
    }
  }

  /**
   * Fails fast, naming the exit code and the log, when the child is gone.
   *
   * @throws IllegalStateException when the process has exited
   */
  public void requireAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("the fixture process exited with code "
          + process.exitValue() + "; see " + log);
    }
  }

  /** Closes the fixture's stdin, which stops it; forcibly after 20 s. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      process.getOutputStream().close();
    } finally {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
      Runtime.getRuntime().removeShutdownHook(reaper);
    }
  }
}
