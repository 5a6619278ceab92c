package io.icegate.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.cli.ExitCode;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.gateway.Main;
import io.icegate.gateway.cli.CliUpstreamWorld.Run;
import io.icegate.overlay.store.OverlayStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code overlay reconcile} and {@code operation get} against a real gateway on loopback whose
 * Overlays read a real upstream: Iceberg's own REST catalog code over s3proxy (the catalog-access
 * test fixture; namespaces sales, sales.emea, Marketing, Marketing.BrandQ1; tables sales.orders,
 * sales.emea.customers, Marketing.Campaigns; view sales.order_summary). Commands run in-process
 * through the gateway's picocli main, except Ctrl-C, which needs a process to signal.
 */
class CliReconcileTest {
  private static CliUpstreamWorld world;

  @BeforeAll
  static void start() throws Exception {
    world = CliUpstreamWorld.start("upstream-token");
    List<String> args = new ArrayList<>(List.of("integration", "create", "rec-up",
        "--type", "ICEBERG_REST", "--uri", world.upstream.uri().toString(), "--auth-type", "bearer",
        "--bearer-token-env", "UPSTREAM_SECRET"));
    world.store.s3Settings().forEach((k, v) -> args.addAll(List.of("--property", k + "=" + v)));
    run(args.toArray(String[]::new)).expect(0);
  }

  @AfterAll
  static void stop() throws Exception {
    world.close();
  }

  private static Run run(String... args) {
    return run(false, args);
  }

  /** One in-process run at 100 columns; {@code terminal}: stderr passes for a terminal. */
  private static Run run(boolean terminal, String... args) {
    Map<String, String> env = world.env();
    env.put("COLUMNS", "100");
    return world.run(env, terminal, args);
  }





  /** A new catalog and an Overlay of {@code include} into it. */
  private static String overlay(String name, String include) {
    run("catalog", "create", name, "--warehouse", "file:/tmp/" + name).expect(0);
    return run("overlay", "create", name, "--integration", "rec-up", "--catalog", name,
        "--include", include, "-o", "json").expect(0).json().get("id").asText();
  }

  @Test
  void reconcilePrintsTheReportAndPhaseLinesWithoutControlCharacters() {
    String id = overlay("rec-sales", "sales");

    Run first = run("overlay", "reconcile", "rec-sales").expect(0).plain();
    assertThat(first.out()).containsPattern("(?m)^overlayId:\\s+" + id + "$")
        .containsPattern("(?m)^created:\\s+3$").containsPattern("(?m)^updated:\\s+0$")
        .containsPattern("(?m)^unchanged:\\s+0$").containsPattern("(?m)^retired:\\s+0$")
        .containsPattern("(?m)^namespacesCreated:\\s+2$")
        .containsPattern("(?m)^runGeneration:\\s+1$").containsPattern("(?m)^warnings:\\s+0$");
    assertThat(first.err()).contains("icegate: reconciling overlay rec-sales (" + id + ")")
        .contains("icegate: [done] 3 created, 0 updated, 0 unchanged, 0 retired");
    // one line per phase seen, never the same phase twice
    List<String> phases = first.err().lines().filter(l -> l.startsWith("icegate: [")).toList();
    assertThat(phases).doesNotHaveDuplicates().last().asString().startsWith("icegate: [done]");

    JsonNode again = run("overlay", "reconcile", id, "-o", "json", "--poll-interval", "50ms")
        .expect(0).plain().json();
    assertThat(again.get("overlayId").asText()).isEqualTo(id);
    // an unchanged re-run records no run generation: it reports the last recorded one
    assertThat(again.get("runGeneration").asLong()).isEqualTo(1);
    assertThat(again.get("unchanged").asLong()).isEqualTo(3);
    assertThat(again.get("created").asLong()).isZero();
    assertThat(again.get("warnings").isArray()).isTrue();
  }

  @Test
  void onATerminalTheProgressIsOneLineRedrawnInPlace() {
    overlay("rec-marketing", "Marketing");
    Run r = run(true, "overlay", "reconcile", "rec-marketing", "--poll-interval", "20ms")
        .expect(0);
    assertThat(r.out()).containsPattern("(?m)^created:\\s+1$").doesNotContain("\r");
    String bar = r.err().substring(r.err().indexOf('\r'));
    // every drawing starts with a carriage return; the last one says done and ends the line
    assertThat(bar).startsWith("\r[").doesNotContain("\u001b");
    assertThat(bar.substring(bar.lastIndexOf('\r') + 1))
        .startsWith("[done] 1 created, 0 updated, 0 unchanged, 0 retired").endsWith("\n");
    // redrawn, not scrolled: the only line feed is the one that ends the display
    assertThat(bar.indexOf('\n')).isEqualTo(bar.length() - 1);
    assertThat(bar.chars().filter(c -> c == '\r').count()).isGreaterThan(1);
  }

  /**
   * Issue 21: a reconcile that would retire everything the Overlay holds fails naming the counts;
   * {@code --confirm-retirement} lets it through.
   */
  @Test
  void retiringEverythingNeedsConfirmRetirement() {
    world.upstream.backingCatalog().createNamespace(org.apache.iceberg.catalog.Namespace.of("rec_gone"));
    org.apache.iceberg.catalog.TableIdentifier gone =
        org.apache.iceberg.catalog.TableIdentifier.of("rec_gone", "t");
    world.upstream.backingCatalog().createTable(gone, IcebergRestFixture.ORDERS_SCHEMA);
    overlay("rec-gone", "rec_gone");
    run("overlay", "reconcile", "rec-gone").expect(0);
    world.upstream.backingCatalog().dropTable(gone, false);

    Run refused = run("overlay", "reconcile", "rec-gone").expect(ExitCode.CONFLICT).plain();
    assertThat(refused.err()).contains("409 MASS_RETIREMENT_UNCONFIRMED: ")
        .containsPattern("(?m)^  - all 1 relation\\(s\\) of the overlay would be retired$");

    JsonNode report = run("overlay", "reconcile", "rec-gone", "--confirm-retirement", "-o",
        "json").expect(0).json();
    assertThat(report.get("retired").asInt()).isEqualTo(1);
  }

  @Test
  void aConflictingLocalTableFailsWithTheConflictExitCodeAndEveryConflictListed() {
    String catalog = run("catalog", "create", "rec-conflict", "--warehouse",
        "file:/tmp/rec-conflict", "-o", "json").expect(0).json().get("id").asText();
    String account = run("account", "get", "default", "-o", "json").expect(0).json().get("id")
        .asText();
    // tables created locally at two paths the Overlay selects, as a gateway client would own them
    Repositories repos = OverlayStore.repositories(world.gw.gateway().store(), Clock.systemUTC());
    repos.namespaces(account).create(new Namespace(catalog, List.of("sales"), Map.of()));
    repos.namespaces(account).create(new Namespace(catalog, List.of("sales", "emea"), Map.of()));
    repos.tables(account).create(new Table(catalog, List.of("sales"), "orders",
        "file:/tmp/rec-conflict/orders/metadata.json", Map.of()));
    repos.tables(account).create(new Table(catalog, List.of("sales", "emea"), "customers",
        "file:/tmp/rec-conflict/customers/metadata.json", Map.of()));
    run("overlay", "create", "rec-conflict", "--integration", "rec-up", "--catalog",
        "rec-conflict", "--include", "sales").expect(0);

    Run table = run("overlay", "reconcile", "rec-conflict").expect(ExitCode.CONFLICT).plain();
    assertThat(table.out()).isEmpty();
    assertThat(table.err()).contains("icegate: reconcile of overlay rec-conflict")
        .contains("failed (operation ").contains("409 RECONCILE_CONFLICT: ")
        .containsPattern("(?m)^  - .*sales\\.orders.*$")
        .containsPattern("(?m)^  - .*sales\\.emea\\.customers.*$");

    Run json = run("overlay", "reconcile", "rec-conflict", "-o", "json")
        .expect(ExitCode.CONFLICT).plain();
    JsonNode problem = json.json();
    assertThat(problem.get("code").asText()).isEqualTo("RECONCILE_CONFLICT");
    assertThat(problem.get("status").asInt()).isEqualTo(409);
    assertThat(problem.get("details")).hasSize(2);
  }

  @Test
  void noWaitPrintsTheOperationIdAndOperationGetFollowsIt() throws Exception {
    String overlayId = overlay("rec-nowait", "sales.emea");
    Run started = run("overlay", "reconcile", "rec-nowait", "--no-wait").expect(0).plain();
    String operationId = started.out().strip();
    assertThat(operationId).isNotEmpty().doesNotContain("\n");
    assertThat(started.err()).contains("follow it with: icegate operation get " + operationId);

    JsonNode operation = run("operation", "get", operationId, "-o", "json").expect(0).json();
    for (int i = 0; i < 200 && operation.get("state").asText().equals("RUNNING"); i++) {
      Thread.sleep(50);
      operation = run("operation", "get", operationId, "-o", "json").expect(0).json();
    }
    assertThat(operation.get("state").asText()).as(operation.toString()).isEqualTo("SUCCEEDED");
    assertThat(operation.get("overlayId").asText()).isEqualTo(overlayId);
    assertThat(operation.at("/report/created").asLong()).isEqualTo(1);

    Run table = run("operation", "get", operationId).expect(0).plain();
    assertThat(table.out()).containsPattern("(?m)^id:\\s+" + operationId + "$")
        .containsPattern("(?m)^state:\\s+SUCCEEDED$")
        .containsPattern("(?m)^progress:\\s+\\[done\\] 1 created, 0 updated, 0 unchanged, "
            + "0 retired$")
        .containsPattern("(?m)^startedAt:\\s+\\d{4}-\\d\\d-\\d\\dT.*Z$")
        .contains("report:");

    JsonNode json = run("overlay", "reconcile", "rec-nowait", "--no-wait", "-o", "json")
        .expect(0).json();
    assertThat(json.get("state").asText()).isIn("RUNNING", "SUCCEEDED");
    assertThat(json.get("id").asText()).isNotEqualTo(operationId);

    run("operation", "get", "no-such-operation").expect(ExitCode.NOT_FOUND);
  }

  @Test
  void badArgumentsAreUsageErrors() {
    run("overlay", "reconcile", "no-such-overlay").expect(ExitCode.NOT_FOUND);
    assertThat(run("overlay", "reconcile", "x", "--poll-interval", "0s")
        .expect(ExitCode.USAGE).err()).contains("--poll-interval: must be positive");
    assertThat(run("overlay", "reconcile", "x", "--poll-interval", "soon")
        .expect(ExitCode.USAGE).err()).contains("must be a duration such as 30s");
    // one clear line like every other duration error, never picocli's usage dump
    for (String bad : List.of("P1M", "P-1DT48H")) {
      String err = run("overlay", "reconcile", "x", "--poll-interval", bad)
          .expect(ExitCode.USAGE).err();
      assertThat(err).as(bad).startsWith("icegate: --poll-interval: ").doesNotContain("Usage");
      assertThat(err.strip().lines()).as(bad).hasSize(1);
    }
  }

  /**
   * Ctrl-C while waiting: a separate JVM runs the CLI (stderr a pipe) with a poll interval far
   * longer than the test, so it is certainly still waiting when SIGINT arrives. It must exit 130,
   * leave the operation to the server and print how to follow it.
   */
  @Test
  void ctrlCWhileWaitingLeavesTheOperationRunningAndSaysHowToFollowIt() throws Exception {
    Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process, and so in the "
        + "CLI it starts (a shell without job control starts background jobs so): no Ctrl-C to "
        + "simulate");
    overlay("rec-interrupted", "Marketing");
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "overlay", "reconcile", "rec-interrupted", "--poll-interval", "1h");
    builder.environment().putAll(world.env());
    builder.environment().put("HOME", world.home.toString());
    builder.environment().remove("TERM");
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process cli = builder.start();
    try (BufferedReader err = new BufferedReader(
        new InputStreamReader(cli.getErrorStream(), StandardCharsets.UTF_8))) {
      String operationId = null;
      StringBuilder seen = new StringBuilder();
      for (String line = err.readLine(); line != null; line = err.readLine()) {
        seen.append(line).append('\n');
        if (line.contains(": operation ")) {
          operationId = line.substring(line.lastIndexOf(' ') + 1);
        }
        if (operationId != null && line.startsWith("icegate: [")) {
          break;
        }
      }
      assertThat(operationId).as(seen.toString()).isNotNull();

      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(cli.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String rest = err.lines().collect(java.util.stream.Collectors.joining("\n"));
      assertThat(cli.exitValue()).as(seen + rest).isEqualTo(ExitCode.INTERRUPTED);
      assertThat(rest).contains("stopped waiting; the operation keeps running on the server. "
          + "Follow it with: icegate operation get " + operationId).doesNotContain("\r");

      JsonNode operation = run("operation", "get", operationId, "-o", "json").expect(0).json();
      for (int i = 0; i < 200 && operation.get("state").asText().equals("RUNNING"); i++) {
        Thread.sleep(50);
        operation = run("operation", "get", operationId, "-o", "json").expect(0).json();
      }
      assertThat(operation.get("state").asText()).isEqualTo("SUCCEEDED");
    } finally {
      cli.destroyForcibly();
    }
  }

  /**
   * A reconcile that lasts a few seconds (every upstream request delayed by a loopback proxy), so
   * requests overlap it: while a synchronous run holds the Overlay the CLI exits 4 saying so; while
   * an asynchronous one runs the CLI joins its operation and waits for its report.
   */
  @Test
  void aRunningReconcileIsJoinedOrReportedAsInProgress() throws Exception {
    try (SlowProxy slow = SlowProxy.start(world.upstream.uri(), Duration.ofMillis(400))) {
      List<String> args = new ArrayList<>(List.of("integration", "create", "rec-slow-up",
          "--type", "ICEBERG_REST", "--uri", slow.uri(), "--auth-type", "bearer",
          "--bearer-token-env", "UPSTREAM_SECRET"));
      run(args.toArray(String[]::new)).expect(0);
      run("catalog", "create", "rec-slow", "--warehouse", "file:/tmp/rec-slow").expect(0);
      String overlayId = run("overlay", "create", "rec-slow", "--integration", "rec-slow-up",
          "--catalog", "rec-slow", "--include", "sales", "--include", "Marketing", "-o", "json")
          .expect(0).json().get("id").asText();
      String account = run("account", "get", "default", "-o", "json").expect(0).json().get("id")
          .asText();
      String reconcile = "/admin/v1/accounts/" + account + "/overlays/" + overlayId
          + "/reconcile";

      CompletableFuture<Integer> synchronous = CompletableFuture.supplyAsync(
          () -> world.gw.send("POST", reconcile, null).statusCode());
      Thread.sleep(1_000);
      assertThat(synchronous).isNotDone();
      Run refused = run("overlay", "reconcile", "rec-slow").expect(ExitCode.CONFLICT).plain();
      assertThat(refused.err()).contains("overlay rec-slow (" + overlayId + ") is being "
          + "reconciled by a synchronous request").contains("RECONCILE_IN_PROGRESS");
      assertThat(synchronous.get(60, TimeUnit.SECONDS)).isEqualTo(200);

      String first = run("overlay", "reconcile", "rec-slow", "--no-wait").expect(0).out().strip();
      Thread.sleep(2_500);
      Run joined = run("overlay", "reconcile", "rec-slow", "--poll-interval", "100ms")
          .expect(0).plain();
      assertThat(joined.err()).contains("icegate: joined the reconcile of overlay rec-slow ("
          + overlayId + ") running since ").contains(": operation " + first);
      // unchanged, so it records no run generation and reports the synchronous run's
      assertThat(joined.out()).containsPattern("(?m)^unchanged:\\s+4$")
          .containsPattern("(?m)^runGeneration:\\s+1$");
    }
  }

  /**
   * An HTTP proxy on 127.0.0.1 that holds every request for {@code delay} before forwarding it to
   * {@code target}, and answers with the target's status, content type and body.
   */
  private record SlowProxy(HttpServer server, ExecutorService threads) implements AutoCloseable {
    static SlowProxy start(URI target, Duration delay) throws Exception {
      HttpClient client = HttpClient.newHttpClient();
      HttpServer server = HttpServer.create(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      ExecutorService threads = Executors.newCachedThreadPool();
      server.setExecutor(threads);
      server.createContext("/", exchange -> {
        try (exchange) {
          Thread.sleep(delay.toMillis());
          byte[] body = exchange.getRequestBody().readAllBytes();
          HttpRequest.Builder forward = HttpRequest.newBuilder(
              URI.create(target + exchange.getRequestURI().toString()))
              .method(exchange.getRequestMethod(), body.length == 0
                  ? HttpRequest.BodyPublishers.noBody()
                  : HttpRequest.BodyPublishers.ofByteArray(body));
          for (String name : List.of("Authorization", "Content-Type", "Accept")) {
            String value = exchange.getRequestHeaders().getFirst(name);
            if (value != null) {
              forward.header(name, value);
            }
          }
          HttpResponse<byte[]> answer = client.send(forward.build(),
              HttpResponse.BodyHandlers.ofByteArray());
          answer.headers().firstValue("Content-Type")
              .ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
          byte[] out = answer.body();
          boolean empty = out.length == 0 || exchange.getRequestMethod().equals("HEAD");
          exchange.sendResponseHeaders(answer.statusCode(), empty ? -1 : out.length);
          if (!empty) {
            exchange.getResponseBody().write(out);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      server.start();
      return new SlowProxy(server, threads);
    }

    String uri() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
      threads.shutdownNow();
    }
  }

  /** Whether SIGINT (2) is in this process's ignored-signal mask ({@code /proc/self/status}). */
  private static boolean sigintIgnored() throws java.io.IOException {
    Path status = Path.of("/proc/self/status");
    if (!java.nio.file.Files.exists(status)) {
      return false;
    }
    for (String line : java.nio.file.Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
      }
    }
    return false;
  }
}
