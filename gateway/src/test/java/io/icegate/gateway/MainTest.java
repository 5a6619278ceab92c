package io.icegate.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.icegate.cli.CliEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
  @TempDir Path home;

  /** What {@code args} print and return on {@code commandLine}'s tree. */
  private String run(java.util.function.Function<CliEnvironment, CommandLine> tree,
      String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliEnvironment environment = new CliEnvironment(Map.of(), home, label -> Optional.empty(),
        new PrintWriter(out, true), new PrintWriter(err, true));
    int code = tree.apply(environment).execute(args);
    return code + "\n" + out + "\n" + err;
  }

  @Test
  void serveParsesAndHelpsAsInTheWholeTree() {
    for (String[] args : new String[][] {
        {"serve", "--help"}, {"serve", "--no-such-flag"}, {"serve", "--port", "x"}}) {
      assertThat(run(Main::serveCommandLine, args))
          .as(String.join(" ", args))
          .isEqualTo(run(Main::commandLine, args));
    }
  }

  /**
   * A bad flag or argument is the error, picocli's suggestions and one line pointing to the
   * command's --help, exit 2 (tryout: the whole usage text followed the error).
   */
  @Test
  void usageErrorsPointToHelpInsteadOfPrintingTheUsage() {
    String unknown = run(Main::commandLine, "catalog", "list", "--no-such-flag");
    assertThat(unknown).startsWith("2\n")
        .contains("icegate: Unknown option: '--no-such-flag'")
        .endsWith("\nRun 'icegate catalog list --help' for its usage.\n")
        .doesNotContain("Usage:").doesNotContain("--output");
    String missing = run(Main::commandLine, "integration", "create", "x");
    assertThat(missing).startsWith("2\n").contains("icegate: Missing required option")
        .contains("Run 'icegate integration create --help' for its usage.")
        .doesNotContain("Usage:");
    assertThat(missing.strip().lines()).hasSize(4); // code, empty stdout, the error, the pointer
    String serve = run(Main::serveCommandLine, "serve", "--no-such-flag");
    assertThat(serve).startsWith("2\n").contains("icegate: Unknown option: '--no-such-flag'")
        .contains("Run 'icegate serve --help' for its usage.")
        .doesNotContain("Usage:");
  }

  /** tryout: {@code --property '=v'} created a property named "". */
  @Test
  void aPropertyWithoutANameIsAUsageError() {
    for (String[] args : new String[][] {
        {"catalog", "create", "c", "--warehouse", "file:/tmp/c", "--property", "=v"},
        {"catalog", "update", "c", "--property", "a=1", "--property", " =v"},
        {"integration", "create", "i", "--type", "ICEBERG_REST", "--uri", "http://h/v1",
            "--auth-type", "none", "--property", "=v"},
        {"integration", "update", "i", "--property", "="}}) {
      assertThat(run(Main::commandLine, args)).as(String.join(" ", args)).startsWith("2\n")
          .contains("--property", "a property needs a name before '='")
          .doesNotContain("Exception");
    }
  }

  @Test
  void versionIsTheBuildsOnEveryLevel() {
    String expected = "0\nicegate " + BuildVersion.version() + "\n";
    assertThat(BuildVersion.version()).matches("[0-9]+\\.[0-9]+\\.[0-9]+.*");
    assertThat(run(Main::commandLine, "--version")).isEqualTo(expected + "\n");
    assertThat(run(Main::serveCommandLine, "serve", "--version")).isEqualTo(expected + "\n");
    assertThat(run(Main::commandLine, "integration", "list", "--version")).isEqualTo(expected + "\n");
  }

  /** A malformed endpoint is one usage line before any request or token lookup, never a trace. */
  @Test
  void malformedEndpointsAreOneUsageLine() {
    Map<String, String> problems = Map.of(
        "127.0.0.1:8181", "'127.0.0.1:8181' has no http:// or https:// scheme",
        "localhost:8181", "'localhost:8181' has no http:// or https:// scheme",
        "http://", "'http://' is not a URL",
        "ftp://x", "'ftp://x' has scheme ftp, not http or https",
        "http://host name:8181", "contains white space",
        " http://127.0.0.1:8181", "contains white space",
        "http://u:pw@127.0.0.1:8181", "carries user info",
        "http://127.0.0.1:8181?x=1", "has a query or fragment",
        "http://127.0.0.1:99999", "has port 99999 (at most 65535)");
    problems.forEach((endpoint, problem) -> {
      String[] lines = run(Main::commandLine, "catalog", "list", "--endpoint", endpoint)
          .split("\n");
      assertThat(lines[0]).as(endpoint).isEqualTo("2");
      String err = String.join("\n", java.util.Arrays.copyOfRange(lines, 2, lines.length));
      assertThat(err).as(endpoint)
          .startsWith("icegate: --endpoint ").contains(problem)
          .contains("write the gateway's base URL as http://HOST:PORT")
          .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("pw");
      assertThat(err.strip().lines()).as(endpoint).hasSize(1);
    });
  }
}
