package io.icegate.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.cli.CliEnvironment;
import io.icegate.cli.ExitCode;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The admin commands against a real gateway on loopback, run in-process through the gateway's
 * single picocli main with captured stdout/stderr, a private home directory and environment.
 */
class CliCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "cli-planted-secret-4b1d";
  private static GatewayFixture gw;
  private static Path home;

  @BeforeAll
  static void start() throws Exception {
    gw = GatewayFixture.start();
    home = Files.createTempDirectory("icegate-cli-home");
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  /** One in-process run: exit code, stdout, stderr, and the argument vector it was given. */
  record Run(int code, String out, String err, List<String> args) {
    JsonNode json() {
      try {
        return JSON.readTree(out);
      } catch (Exception e) {
        throw new AssertionError("not JSON: " + out + err, e);
      }
    }

    Run expect(int expected) {
      assertThat(code).as("exit code; stdout=%s stderr=%s", out, err).isEqualTo(expected);
      return this;
    }

    void assertNoSecret() {
      assertThat(out).doesNotContain(SECRET);
      assertThat(err).doesNotContain(SECRET);
      assertThat(args).noneMatch(a -> a.contains(SECRET));
    }
  }

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("ICEGATE_ENDPOINT", gw.baseUri());
    env.put("ICEGATE_TOKEN", GatewayFixture.TOKEN);
    return env;
  }

  private static Run run(String... args) {
    return run(env(), Optional.empty(), args);
  }

  private static Run run(Map<String, String> env, Optional<String> typed, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliEnvironment environment = new CliEnvironment(env, home,
        label -> typed.map(String::toCharArray), new PrintWriter(out, true),
        new PrintWriter(err, true));
    int code = Main.commandLine(environment).execute(args);
    return new Run(code, out.toString(), err.toString(), List.of(args));
  }

  private static Map<String, String> envWithSecret() {
    Map<String, String> env = env();
    env.put("UPSTREAM_SECRET", SECRET);
    return env;
  }

  private static Run createIntegration(String name) {
    return run(envWithSecret(), Optional.empty(), "integration", "create", name,
        "--type", "ICEBERG_REST", "--uri", "https://rest.example.com/v1",
        "--property", "warehouse=w", "--auth-type", "bearer",
        "--bearer-token-env", "UPSTREAM_SECRET", "-o", "json");
  }

  @Test
  void catalogLifecycleByName() {
    Run created = run("catalog", "create", "cli-sales", "--warehouse", "file:/tmp/cli-sales",
        "--property", "owner=team-a").expect(0);
    assertThat(created.out()).contains("name:").contains("cli-sales").contains("etag:");
    String id = run("catalog", "get", "cli-sales", "-o", "json").expect(0).json().get("id")
        .asText();
    assertThat(run("catalog", "get", id, "-o", "json").expect(0).json().get("name").asText())
        .isEqualTo("cli-sales");

    Run listed = run("catalog", "list").expect(0);
    assertThat(listed.out().lines().findFirst().orElse(""))
        .startsWith("ID").contains("NAME").contains("WAREHOUSE");
    assertThat(listed.out()).contains("cli-sales").contains("default");

    Run renamed = run("catalog", "update", "cli-sales", "--name", "cli-sales-2").expect(0);
    assertThat(renamed.err()).contains("using the current ETag").contains(id);
    assertThat(renamed.out()).contains("cli-sales-2");

    Run deleted = run("catalog", "delete", "cli-sales-2").expect(0);
    assertThat(deleted.out()).contains("deleted catalog cli-sales-2 (" + id + ")");
    Run gone = run("catalog", "get", "cli-sales-2").expect(ExitCode.NOT_FOUND);
    assertThat(gone.err()).contains("no catalog named 'cli-sales-2'");
    run("catalog", "get", id).expect(ExitCode.NOT_FOUND);
  }

  @Test
  void integrationCreateGetRotateDeleteNeverShowsTheSecret() throws Exception {
    Run created = createIntegration("cli-up").expect(0);
    created.assertNoSecret();
    JsonNode body = created.json();
    assertThat(body.get("credentialsConfigured").asBoolean()).isTrue();
    assertThat(body.at("/authentication/type").asText()).isEqualTo("bearer");
    String id = body.get("id").asText();

    Run got = run("integration", "get", "cli-up").expect(0);
    got.assertNoSecret();
    assertThat(got.out()).contains("credentialGeneration:").contains(id);

    Path secretFile = Files.createTempFile(home, "client-secret", "");
    Files.writeString(secretFile, SECRET + "\n");
    String etag = run("integration", "get", id, "-o", "json").json().get("etag").asText();
    Run rotated = run("integration", "rotate-credentials", "cli-up",
        "--auth-type", "oauth2-client-credentials", "--client-id", "gw",
        "--token-uri", "https://rest.example.com/v1/oauth/tokens",
        "--client-secret-file", secretFile.toString(), "--if-match", etag, "-o", "json")
        .expect(0);
    rotated.assertNoSecret();
    assertThat(rotated.err()).doesNotContain("using the current ETag");
    assertThat(rotated.json().at("/authentication/type").asText())
        .isEqualTo("oauth2-client-credentials");
    assertThat(rotated.json().get("credentialGeneration").asLong())
        .isGreaterThan(body.get("credentialGeneration").asLong());

    Run updated = run("integration", "update", "cli-up", "--uri",
        "https://rest.example.com/v2", "-o", "json").expect(0);
    assertThat(updated.json().get("uri").asText()).isEqualTo("https://rest.example.com/v2");

    run("integration", "delete", "cli-up", "--cascade").expect(0);
    run("integration", "get", id).expect(ExitCode.NOT_FOUND);
  }

  @Test
  void secretFromThePromptAndNoSourceIsAUsageError() {
    Run prompted = run(env(), Optional.of(SECRET), "integration", "create", "cli-prompted",
        "--type", "ICEBERG_REST", "--uri", "https://rest.example.com/v1",
        "--auth-type", "aws-access-keys", "--access-key-id", "AKIDCLI").expect(0);
    prompted.assertNoSecret();
    assertThat(prompted.out()).contains("AKIDCLI").contains("aws-access-keys");

    Run noTerminal = run("integration", "create", "cli-no-secret", "--type", "ICEBERG_REST",
        "--uri", "https://rest.example.com/v1", "--auth-type", "bearer").expect(ExitCode.USAGE);
    assertThat(noTerminal.err()).contains("--bearer-token-file").contains("--bearer-token-env");
    run("integration", "get", "cli-no-secret").expect(ExitCode.NOT_FOUND);

    Run wrongFlag = run("integration", "create", "cli-wrong", "--type", "ICEBERG_REST",
        "--uri", "https://rest.example.com/v1", "--auth-type", "bearer", "--client-id", "x")
        .expect(ExitCode.USAGE);
    assertThat(wrongFlag.err()).contains("--client-id does not apply to --auth-type bearer");
  }

  @Test
  void aRejectedCreateCarryingASecretDoesNotEchoIt() {
    Run rejected = run(envWithSecret(), Optional.empty(), "integration", "create", "cli-bad",
        "--type", "ICEBERG_REST", "--uri", "ftp://rest.example.com/v1", "--auth-type", "bearer",
        "--bearer-token-env", "UPSTREAM_SECRET").expect(ExitCode.FAILED);
    rejected.assertNoSecret();
    assertThat(rejected.err()).contains("400");
  }

  @Test
  void pagination() {
    for (int i = 0; i < 3; i++) {
      run("catalog", "create", "cli-page-" + i, "--warehouse", "file:/tmp/cli-page-" + i)
          .expect(0);
    }
    Run first = run("catalog", "list", "--page-size", "1", "-o", "json").expect(0);
    assertThat(first.json().get("items")).hasSize(1);
    String token = first.json().get("nextPageToken").asText();
    Run second = run("catalog", "list", "--page-size", "1", "--page-token", token, "-o", "json")
        .expect(0);
    assertThat(second.json().get("items").get(0).get("id"))
        .isNotEqualTo(first.json().get("items").get(0).get("id"));
    Run tableFirst = run("catalog", "list", "--page-size", "1").expect(0);
    assertThat(tableFirst.err()).contains("--page-token");
    Run all = run("catalog", "list", "--all", "-o", "json").expect(0);
    List<String> names = new ArrayList<>();
    all.json().get("items").forEach(n -> names.add(n.get("name").asText()));
    assertThat(names).contains("cli-page-0", "cli-page-1", "cli-page-2");
    assertThat(all.json().get("nextPageToken").isNull()).isTrue();
  }

  @Test
  void conflictsPreconditionsAndIdempotency() {
    run("catalog", "create", "cli-dup", "--warehouse", "file:/tmp/cli-dup").expect(0);
    Run dup = run("catalog", "create", "cli-dup", "--warehouse", "file:/tmp/cli-dup")
        .expect(ExitCode.CONFLICT);
    assertThat(dup.err()).contains("409");
    String id = run("catalog", "get", "cli-dup", "-o", "json").json().get("id").asText();
    Run existing = run("catalog", "create", "cli-dup", "--warehouse", "file:/tmp/cli-dup",
        "--on-conflict", "return-existing", "-o", "json").expect(0);
    assertThat(existing.json().get("id").asText()).isEqualTo(id);

    Run stale = run("catalog", "update", "cli-dup", "--name", "cli-dup-2", "--if-match",
        "\"" + id + "/999\"").expect(ExitCode.PRECONDITION_FAILED);
    assertThat(stale.err()).contains("412");
    run("catalog", "delete", "cli-dup", "--if-match", "\"" + id + "/999\"")
        .expect(ExitCode.PRECONDITION_FAILED);
    // --if-match "<etag>" typed in a shell arrives without its quotes: the CLI quotes it again
    String etag = run("catalog", "get", id, "-o", "json").json().get("etag").asText();
    String bare = etag.substring(1, etag.length() - 1);
    Run renamed = run("catalog", "update", "cli-dup", "--name", "cli-dup-2", "--if-match", bare,
        "-o", "json").expect(0);
    assertThat(renamed.json().get("name").asText()).isEqualTo("cli-dup-2");
    run("catalog", "update", "cli-dup-2", "--name", "cli-dup", "--if-match", bare)
        .expect(ExitCode.PRECONDITION_FAILED); // the tag of the version before the rename
    // a value HTTP headers cannot carry is a usage error naming the header, never a trace
    for (String unsendable : new String[] {"\u00e4\u20ac", "a\r\nX-Evil: 1"}) {
      Run refused = run("catalog", "update", "cli-dup-2", "--name", "x", "--if-match", unsendable)
          .expect(ExitCode.USAGE);
      assertThat(refused.err()).contains("If-Match").doesNotContain("Exception")
          .doesNotContain("\tat ").doesNotContain("X-Evil");
    }

    String first = run("catalog", "create", "cli-idem", "--warehouse", "file:/tmp/cli-idem",
        "--idempotency-key", "cli-key-1", "-o", "json").expect(0).json().get("id").asText();
    String replay = run("catalog", "create", "cli-idem", "--warehouse", "file:/tmp/cli-idem",
        "--idempotency-key", "cli-key-1", "-o", "json").expect(0).json().get("id").asText();
    assertThat(replay).isEqualTo(first);
  }

  @Test
  void unknownAndAmbiguousNames() {
    Run unknown = run("integration", "delete", "cli-nothing-here").expect(ExitCode.NOT_FOUND);
    assertThat(unknown.err()).contains("no integration named 'cli-nothing-here'");
    createIntegration("cli-twin").expect(0);
    // Display names are unique on this server (its name index), so a second one is a conflict;
    // ambiguity is covered by cli's NameResolutionTest against a server that repeats a name.
    createIntegration("cli-twin").expect(ExitCode.CONFLICT);
    Run noAccount = run(env(), Optional.empty(), "catalog", "list", "--account", "nobody")
        .expect(ExitCode.NOT_FOUND);
    assertThat(noAccount.err()).contains("no account named 'nobody'");
  }

  @Test
  void usageAuthenticationAndAccounts() {
    run("catalog", "list", "--no-such-flag").expect(ExitCode.USAGE);
    run("integration", "create", "x").expect(ExitCode.USAGE);
    Map<String, String> noToken = env();
    noToken.remove("ICEGATE_TOKEN");
    Run missing = run(noToken, Optional.empty(), "catalog", "list").expect(ExitCode.USAGE);
    assertThat(missing.err()).contains("--token-file").contains("ICEGATE_TOKEN");
    Map<String, String> wrongToken = env();
    wrongToken.put("ICEGATE_TOKEN", "igt_wrong");
    run(wrongToken, Optional.empty(), "catalog", "list").expect(ExitCode.NOT_AUTHORIZED);

    Run accounts = run("account", "list").expect(0);
    assertThat(accounts.out()).contains("default");
    String defaultId = run("account", "get", "default", "-o", "json").json().get("id").asText();
    assertThat(run("catalog", "list", "--account", defaultId, "-o", "json").expect(0).json()
        .get("items")).isNotEmpty();

    Map<String, String> unreachable = env();
    unreachable.put("ICEGATE_ENDPOINT", "http://127.0.0.1:1");
    assertThat(run(unreachable, Optional.empty(), "catalog", "list")
        .expect(ExitCode.FAILED).err()).contains("cannot reach");
  }

  @Test
  void configFileIsUsedBelowFlagsAndEnvironment() throws Exception {
    Path tokenFile = home.resolve("token");
    Files.writeString(tokenFile, GatewayFixture.TOKEN + "\n");
    Path config = home.resolve(".icegate").resolve("config");
    Files.createDirectories(config.getParent());
    Files.writeString(config, "endpoint=" + gw.baseUri() + "\ntoken-file=~/token\n"
        + "account=default\n");
    try {
      Run fromFile = run(new HashMap<>(), Optional.empty(), "catalog", "list").expect(0);
      assertThat(fromFile.out()).contains("default");
      Map<String, String> env = new HashMap<>();
      env.put("ICEGATE_ENDPOINT", "http://127.0.0.1:1");
      run(env, Optional.empty(), "catalog", "list").expect(ExitCode.FAILED);
      run(env, Optional.empty(), "catalog", "list", "--endpoint", gw.baseUri()).expect(0);
      Files.writeString(config, "endpont=x\n");
      assertThat(run(new HashMap<>(), Optional.empty(), "catalog", "list")
          .expect(ExitCode.USAGE).err()).contains("unknown key 'endpont'");
    } finally {
      Files.delete(config);
    }
  }

  @Test
  void helpListsTheAdminCommandsNextToServe() {
    Run help = run("--help").expect(0);
    assertThat(help.out()).contains("serve").contains("catalog").contains("integration")
        .contains("account");
    Run createHelp = run("integration", "create", "--help").expect(0);
    assertThat(createHelp.out()).contains("--client-secret-file").contains("--client-secret-env")
        .doesNotContain("--client-secret ");
  }

  @Test
  void tokenIssueListAndRevoke() {
    JsonNode issued = run("token", "issue", "cli-reader", "--role", "reader",
        "--expires-at", java.time.Instant.now().plusSeconds(3600).toString(), "-o", "json")
        .expect(0).json();
    String secret = issued.get("token").asText();
    assertThat(secret).startsWith("igt_");
    Run listed = run("token", "list").expect(0);
    assertThat(listed.out()).contains("cli-reader").contains(issued.get("id").asText())
        .doesNotContain(secret);
    assertThat(gw.send("GET", "/admin/v1/accounts", null, "Authorization", "Bearer " + secret)
        .statusCode()).isEqualTo(403);
    assertThat(run("token", "revoke", "cli-reader").expect(0).out()).contains("revoked token");
    assertThat(gw.send("GET", "/admin/v1/accounts", null, "Authorization", "Bearer " + secret)
        .statusCode()).isEqualTo(401);
    assertThat(run("token", "list", "-o", "json").expect(0).out()).doesNotContain("cli-reader");
  }
}
