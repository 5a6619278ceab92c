package io.icegate.bench.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

/**
 * Load-table throughput and latency at a fixed number of concurrent connections on loopback, for
 * icegate and, in the same run, Iceberg's reference REST server ({@code RESTCatalogServer} from
 * the plain iceberg-open-api jar: Jetty 11 over a {@code JdbcCatalog} on a SQLite file). Each
 * server runs in its own JVM; both hold the same table (same schema, same number of snapshots),
 * created through iceberg-core's {@code RESTCatalog}. Each of the concurrent connections is a
 * keep-alive socket sending load-table back to back, all driven by one selector thread ({@link
 * SelectorLoad}). Also measures cold start:
 * process spawn to the first 200 on the config route.
 *
 * <p>Requests carry the headers iceberg-core 1.10.1's client sends on a load-table, among them
 * {@code Accept-Encoding: gzip, x-gzip, deflate}: both servers compress their answer then (the
 * reference through Jetty's {@code GzipHandler}, per request). With {@code identity} as the last
 * argument the harness leaves that header out and both answer uncompressed JSON. Before measuring,
 * one answer of each server is decoded and checked to be the table's metadata.
 *
 * <p>icegate is started either as users start it, through the {@code ./icegate} script (with the
 * class data sharing archive the script records once per build; an untimed {@code serve --help}
 * first makes sure it exists), or as a bare {@code java -jar} when given the jar.
 *
 * <pre>
 * java -cp bench/target/icegate-bench.jar io.icegate.bench.gateway.LoadTableComparison \
 *     ./icegate|gateway/target/icegate-server.jar \
 *     bench/target/reference/iceberg-open-api-1.10.1.jar \
 *     [seconds=15] [connections=64] [snapshots=30] [client|identity]
 * </pre>
 */
public final class LoadTableComparison {
  private static final String TOKEN = "igt_bench-token";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  /** What iceberg-core 1.10.1's HTTPClient (Apache HttpClient 5.5) adds to every request. */
  private static final Map<String, String> CLIENT_HEADERS = Map.of(
      "Accept", "application/json",
      "Accept-Encoding", "gzip, x-gzip, deflate",
      "X-Client-Version", "Apache Iceberg 1.10.1",
      "User-Agent", "Apache-HttpClient/5.5 (Java/17)");

  private LoadTableComparison() {}

  /** One server under test. */
  private record Target(String name, Process process, String catalogUri, Map<String, String> auth,
      String loadUri, long coldStartMillis, long coldStartCpuMillis) {}

  /** Outcome of a measured run. */
  private record Result(long requests, long errors, double seconds, long[] latenciesNanos) {
    double throughput() {
      return requests / seconds;
    }

    double percentileMillis(double p) {
      if (latenciesNanos.length == 0) {
        return Double.NaN;
      }
      int index = (int) Math.min(latenciesNanos.length - 1,
          Math.ceil(p / 100.0 * latenciesNanos.length) - 1);
      return latenciesNanos[Math.max(0, index)] / 1e6;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: LoadTableComparison ICEGATE_SCRIPT|ICEGATE_JAR ICEBERG_OPEN_API_JAR "
          + "[seconds] [connections] [snapshots] [client|identity]");
      System.exit(2);
    }
    Path icegate = Path.of(args[0]);
    Path referenceJar = Path.of(args[1]);
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    int connections = args.length > 3 ? Integer.parseInt(args[3]) : 64;
    int snapshots = args.length > 4 ? Integer.parseInt(args[4]) : 30;
    boolean identity = args.length > 5 && args[5].equals("identity");
    Map<String, String> clientHeaders = new HashMap<>(CLIENT_HEADERS);
    if (identity) {
      clientHeaders.remove("Accept-Encoding");
    }
    Path work = Files.createTempDirectory("icegate-loadbench");

    List<Target> targets = new ArrayList<>();
    try {
      targets.add(startIcegate(icegate, work.resolve("icegate")));
      targets.add(startReference(referenceJar, work.resolve("reference")));
      for (Target target : targets) {
        populate(target, snapshots);
      }
      System.out.printf("load-table, %d connections, %d s measured after 5 s warm-up, "
          + "table with %d snapshots, %s%n", connections, seconds, snapshots,
          identity ? "no Accept-Encoding" : "iceberg-core's request headers (gzip accepted)");
      for (Target target : targets) {
        System.out.printf("%-10s answer on the wire: %s%n", target.name(),
            checkAnswer(target, clientHeaders));
      }
      System.out.printf("%-10s %10s %10s %9s %9s %9s %7s %12s %12s %12s %12s %12s%n", "server",
          "requests", "req/s", "p50 ms", "p99 ms", "max ms", "errors", "cpu us/req",
          "cold start", "start cpu", "load us/req", "alloc KB/req");
      for (Target target : targets) {
        run(target, connections, 5, clientHeaders);
        long cpuBefore = cpuNanos(target.process());
        long generatorBefore = generatorCpuNanos();
        long allocatedBefore = ServerAllocation.bytes(target.process());
        Result r = run(target, connections, seconds, clientHeaders);
        long cpu = cpuNanos(target.process()) - cpuBefore;
        long generatorCpu = generatorCpuNanos() - generatorBefore;
        long allocatedAfter = ServerAllocation.bytes(target.process());
        double allocatedKbPerRequest = allocatedBefore < 0 || allocatedAfter < 0
            || r.requests() == 0 ? Double.NaN
            : (allocatedAfter - allocatedBefore) / 1024.0 / r.requests();
        System.out.printf("%-10s %10d %10.0f %9.2f %9.2f %9.2f %7d %12.0f %9d ms %9d ms %12.0f"
            + " %12.2f%n",
            target.name(), r.requests(), r.throughput(), r.percentileMillis(50),
            r.percentileMillis(99), r.percentileMillis(100), r.errors(),
            r.requests() == 0 ? Double.NaN : cpu / 1e3 / r.requests(),
            target.coldStartMillis(), target.coldStartCpuMillis(),
            r.requests() == 0 ? Double.NaN : generatorCpu / 1e3 / r.requests(),
            allocatedKbPerRequest);
      }
    } finally {
      for (Target target : targets) {
        target.process().destroy();
        target.process().waitFor();
      }
    }
  }

  private static Target startIcegate(Path launcher, Path dataDir) throws Exception {
    List<String> command = new ArrayList<>();
    if (launcher.toString().endsWith(".jar")) {
      command.addAll(List.of(javaBin(), "-jar", launcher.toString()));
    } else {
      // Untimed: builds the jar and records the class archive if either is missing.
      Process prepare = new ProcessBuilder(launcher.toString(), "serve", "--help")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      if (prepare.waitFor() != 0) {
        throw new IllegalStateException(launcher + " serve --help failed");
      }
      command.add(launcher.toString());
    }
    command.addAll(List.of("serve", "--port", "0", "--data-dir", dataDir.toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("ICEGATE_BOOTSTRAP_TOKEN", TOKEN);
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    long start = System.nanoTime();
    Process process = builder.start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith("icegate listening on http://")) {
            port.complete(Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
          }
        }
      } catch (IOException e) {
        port.completeExceptionally(e);
      }
    });
    reader.setDaemon(true);
    reader.start();
    Map<String, String> auth = Map.of("Authorization", "Bearer " + TOKEN);
    int p = port.get(START_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    String base = "http://127.0.0.1:" + p + "/iceberg";
    awaitOk(base + "/v1/config?warehouse=default", auth);
    long cold = (System.nanoTime() - start) / 1_000_000;
    long coldCpu = cpuNanos(process) / 1_000_000;
    String prefix = prefixOf(get(base + "/v1/config?warehouse=default", auth).body());
    return new Target("icegate", process, base, auth,
        base + "/v1/" + prefix + "/namespaces/bench/tables/t", cold, coldCpu);
  }

  private static Target startReference(Path jar, Path dir) throws Exception {
    Files.createDirectories(dir.resolve("warehouse"));
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    ProcessBuilder builder = new ProcessBuilder(javaBin(), "-jar", jar.toString());
    builder.environment().put("CATALOG_REST_PORT", String.valueOf(port));
    builder.environment().put("CATALOG_URI", "jdbc:sqlite:file:" + dir.resolve("catalog.db"));
    builder.environment().put("CATALOG_WAREHOUSE", "file:" + dir.resolve("warehouse"));
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    long start = System.nanoTime();
    Process process = builder.start();
    String base = "http://127.0.0.1:" + port;
    awaitOk(base + "/v1/config", Map.of());
    long cold = (System.nanoTime() - start) / 1_000_000;
    long coldCpu = cpuNanos(process) / 1_000_000;
    return new Target("reference", process, base, Map.of(),
        base + "/v1/namespaces/bench/tables/t", cold, coldCpu);
  }

  private static void populate(Target target, int snapshots) throws IOException {
    Map<String, String> props = new HashMap<>();
    props.put("uri", target.catalogUri());
    // The client writes manifests itself; icegate's local FileIO spares the harness Hadoop.
    props.put("io-impl", "io.icegate.gateway.fileio.LocalFileIO");
    if (target.name().equals("icegate")) {
      props.put("warehouse", "default");
      props.put("token", TOKEN);
    }
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      fields.add(Types.NestedField.optional(i, "c" + i, Types.StringType.get()));
    }
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize(target.name(), props);
      catalog.createNamespace(Namespace.of("bench"));
      Table table = catalog.createTable(TableIdentifier.of("bench", "t"), new Schema(fields),
          PartitionSpec.unpartitioned());
      for (int i = 0; i < snapshots; i++) {
        table.newFastAppend().appendFile(DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath(table.location() + "/data/f" + i + ".parquet")
            .withFileSizeInBytes(1024).withRecordCount(10).build()).commit();
      }
    }
  }

  /**
   * Loads the table once with {@code headers}, decodes the answer as a client would and checks it
   * is the table's metadata; returns its size and coding on the wire.
   */
  private static String checkAnswer(Target target, Map<String, String> headers) throws Exception {
    Map<String, String> all = new HashMap<>(headers);
    all.putAll(target.auth());
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.loadUri())).GET();
    all.forEach(request::header);
    HttpResponse<byte[]> answer = HttpClient.newHttpClient()
        .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    String coding = answer.headers().firstValue("Content-Encoding").orElse("identity");
    byte[] body = answer.body();
    if (coding.equals("gzip")) {
      try (java.util.zip.GZIPInputStream in =
          new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
        body = in.readAllBytes();
      }
    } else if (!coding.equals("identity")) {
      throw new IllegalStateException(target.name() + " answered in a coding not expected here: "
          + coding);
    }
    String json = new String(body, StandardCharsets.UTF_8);
    if (answer.statusCode() != 200 || !json.contains("\"metadata-location\"")) {
      throw new IllegalStateException(target.name() + " did not answer the table's metadata: "
          + answer.statusCode());
    }
    return String.format("%,d bytes %s (%,d bytes of JSON)", answer.body().length, coding,
        body.length);
  }

  private static Result run(Target target, int connections, int seconds,
      Map<String, String> headers) throws Exception {
    Map<String, String> requestHeaders = new HashMap<>(headers);
    requestHeaders.putAll(target.auth());
    SelectorLoad.Outcome outcome = SelectorLoad.run(URI.create(target.loadUri()), requestHeaders,
        connections, seconds);
    return new Result(outcome.requests(), outcome.errors(), outcome.seconds(),
        outcome.latenciesNanos());
  }

  private static void awaitOk(String uri, Map<String, String> headers) throws Exception {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (get(uri, headers).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(5);
    }
    throw new IllegalStateException("no 200 from " + uri + " within " + START_TIMEOUT);
  }

  private static HttpResponse<String> get(String uri, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).GET();
    headers.forEach(request::header);
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String prefixOf(String configJson) {
    int at = configJson.indexOf("\"prefix\":\"") + "\"prefix\":\"".length();
    return configJson.substring(at, configJson.indexOf('"', at));
  }

  /**
   * CPU time (user + system, all threads) the server process has used so far: on a machine shared
   * with other work this varies far less than wall-clock figures, so it is the figure to compare
   * runs by.
   */
  private static long cpuNanos(Process process) {
    return process.toHandle().info().totalCpuDuration()
        .map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time for the server process"));
  }

  /** CPU time this process (the load generator) has used so far. */
  private static long generatorCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
