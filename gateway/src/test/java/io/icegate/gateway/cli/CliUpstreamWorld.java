package io.icegate.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.access.iceberg.fixture.IcebergRestFixture;
import io.icegate.access.iceberg.fixture.ObjectStoreFixture;
import io.icegate.cli.CliEnvironment;
import io.icegate.gateway.Main;
import io.icegate.gateway.testing.GatewayFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the CLI tests that read an upstream share: a gateway on loopback, a real upstream
 * (Iceberg's own REST catalog code over s3proxy, the catalog-access test fixture, seeded), a CLI
 * home, and commands run in-process through the gateway's picocli main with the gateway's
 * endpoint and token and the upstream's secret in the environment ({@code UPSTREAM_SECRET}).
 * Every answer is checked never to carry that secret.
 */
final class CliUpstreamWorld implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final ObjectStoreFixture store;
  final IcebergRestFixture upstream;
  final GatewayFixture gw;
  final Path home;
  private final String upstreamSecret;

  private CliUpstreamWorld(ObjectStoreFixture store, IcebergRestFixture upstream,
      GatewayFixture gw, Path home, String upstreamSecret) {
    this.store = store;
    this.upstream = upstream;
    this.gw = gw;
    this.home = home;
    this.upstreamSecret = upstreamSecret;
  }

  static CliUpstreamWorld start(String upstreamSecret) throws Exception {
    ObjectStoreFixture store = ObjectStoreFixture.startS3Proxy();
    IcebergRestFixture upstream = IcebergRestFixture.start(store).seed();
    return new CliUpstreamWorld(store, upstream, GatewayFixture.start(),
        Files.createTempDirectory("icegate-cli-home"), upstreamSecret);
  }

  /** The environment a command runs with (a fresh, modifiable map). */
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("ICEGATE_ENDPOINT", gw.baseUri());
    env.put("ICEGATE_TOKEN", GatewayFixture.TOKEN);
    env.put("UPSTREAM_SECRET", upstreamSecret);
    return env;
  }

  Run run(String... args) {
    return run(env(), false, args);
  }

  /** One in-process run; {@code terminal} says whether stderr passes for a terminal. */
  Run run(Map<String, String> env, boolean terminal, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliEnvironment environment = new CliEnvironment(env, home, label -> Optional.empty(),
        new PrintWriter(out, true), new PrintWriter(err, true), terminal);
    int code = Main.commandLine(environment).execute(args);
    return new Run(code, out.toString(), err.toString(), upstreamSecret);
  }

  /**
   * {@code integration create NAME} of type ICEBERG_REST at {@code uri}, bearer-authenticated with
   * the upstream's secret, with the object store's client settings as properties; its id.
   */
  String createIntegration(String name, String uri) {
    List<String> args = new ArrayList<>(List.of("integration", "create", name,
        "--type", "ICEBERG_REST", "--uri", uri, "--auth-type", "bearer",
        "--bearer-token-env", "UPSTREAM_SECRET", "-o", "json"));
    store.s3Settings().forEach((k, v) -> args.addAll(List.of("--property", k + "=" + v)));
    return run(args.toArray(String[]::new)).expect(0).json().get("id").asText();
  }

  @Override
  public void close() throws Exception {
    gw.close();
    upstream.close();
    store.close();
  }

  /** A command's exit code and streams. */
  record Run(int code, String out, String err, String secret) {
    JsonNode json() {
      try {
        return JSON.readTree(out);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + out + err, e);
      }
    }

    /** The exit code is {@code expected}, and neither stream carries the upstream's secret. */
    Run expect(int expected) {
      assertThat(code).as("exit code; stdout=%s stderr=%s", out, err).isEqualTo(expected);
      assertThat(out + err).doesNotContain(secret);
      return this;
    }

    /** Neither stream carries a carriage return or an escape sequence. */
    Run plain() {
      assertThat(out + err).doesNotContain("\r").doesNotContain("\u001b");
      return this;
    }
  }
}
