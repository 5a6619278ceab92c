package io.icegate.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ServerLogConfiguratorTest {

  @Test
  void serverLinesGoToStderrInTheServerFormatWithQuietLibraries() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    ServerLogConfigurator.apply(context);

    assertThat(context.getLogger("io.icegate.gateway.Gateway").getEffectiveLevel())
        .isEqualTo(Level.INFO);
    assertThat(context.getLogger("org.eclipse.jetty.server.Server").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(context.getLogger("org.apache.iceberg.rest.RESTUtil").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(context.getLogger("io.delta.kernel.Table").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(context.getLogger("org.apache.hadoop.util.NativeCodeLoader").getEffectiveLevel())
        .isEqualTo(Level.ERROR);

    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      context.getLogger("io.icegate.gateway.Gateway").info("gateway started: port={}", 8181);
      context.getLogger("org.eclipse.jetty.server.Server").info("not shown");
      context.getLogger("io.icegate.gateway.Gateway")
          .error("failed", new IllegalStateException("boom"));
    } finally {
      System.setErr(original);
      context.stop();
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).split("\\R");
    String thread = Thread.currentThread().getName();
    assertThat(lines[0]).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[\\Q" + thread
        + "\\E\\] io\\.icegate\\.gateway\\.Gateway - gateway started: port=8181");
    assertThat(lines[1]).endsWith("ERROR [" + thread + "] io.icegate.gateway.Gateway - failed");
    assertThat(lines[2]).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(lines[3]).startsWith("\tat ");
    assertThat(String.join("\n", lines)).doesNotContain("not shown");
  }

  @Test
  void kernelsWarningAboutATableWithoutACheckpointIsLoggedAtDebug() {
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    ServerLogConfigurator.apply(context);
    org.slf4j.Logger kernel = context.getLogger(KernelCheckpointWarningFilter.LOGGER);

    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      kernel.warn("Cannot find a complete checkpoint. Listing from version 0.");
      kernel.warn("{}: Checkpoint at version {} appears to have been deleted.", "t", 10);
      context.getLogger("io.delta.kernel").setLevel(Level.DEBUG);
      kernel.warn("Cannot find a complete checkpoint. Listing from version 0.");
    } finally {
      System.setErr(original);
      context.stop();
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).split("\\R");
    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .contains("WARN ")
        .endsWith("t: Checkpoint at version 10 appears to have been deleted.");
    assertThat(lines[1])
        .contains("DEBUG ")
        .endsWith("Cannot find a complete checkpoint. Listing from version 0.");
  }

  @Test
  void aConfigurationFileOnTheClassPathWins() {
    // The test class path has logback-test.xml: logback must go on to read it.
    ServerLogConfigurator configurator = new ServerLogConfigurator();
    LoggerContext context = new LoggerContext();
    configurator.setContext(context);
    assertThat(configurator.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getLogger("ROOT").iteratorForAppenders().hasNext()).isFalse();
  }
}
