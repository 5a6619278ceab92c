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
}
