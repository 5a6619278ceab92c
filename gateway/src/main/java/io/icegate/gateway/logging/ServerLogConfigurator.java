package io.icegate.gateway.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The server's log configuration, applied in code: INFO to stderr as {@code HH:mm:ss.SSS LEVEL
 * [thread] logger - message}, Jetty, Iceberg and Delta Kernel at WARN (Kernel's warning about a
 * table without a checkpoint at DEBUG: {@link KernelCheckpointWarningFilter}), Hadoop at ERROR.
 * Logback finds it through {@code META-INF/services}. Parsing a {@code logback.xml} instead cost
 * about a tenth of the server's start-up (an XML parser and logback's configuration model, ~600
 * classes).
 *
 * <p>An operator's own configuration still wins: with {@code -Dlogback.configurationFile=...}, or a
 * {@code logback.xml} / {@code logback-test.xml} on the class path (the tests' own), this
 * configurator steps aside and logback reads that file as usual. Request bodies and {@code
 * Authorization} headers are never logged whatever the configuration: no code logs them.
 */
public final class ServerLogConfigurator extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null
        || onClassPath(ContextInitializer.TEST_AUTOCONFIG_FILE)
        || onClassPath(ContextInitializer.AUTOCONFIG_FILE)) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    apply(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Installs the server's appender and levels on {@code context}. */
  static void apply(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();

    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(stderr);
    context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
    context.getLogger("org.apache.iceberg").setLevel(Level.WARN);
    // Delta Kernel reports metrics at INFO on every snapshot load; Hadoop warns about native
    // libraries it does not need.
    context.getLogger("io.delta.kernel").setLevel(Level.WARN);
    context.getLogger("org.apache.hadoop").setLevel(Level.ERROR);
    KernelCheckpointWarningFilter checkpointWarning = new KernelCheckpointWarningFilter();
    checkpointWarning.setContext(context);
    checkpointWarning.start();
    context.addTurboFilter(checkpointWarning);
  }

  private static boolean onClassPath(String resource) {
    ClassLoader loader = ServerLogConfigurator.class.getClassLoader();
    return loader != null && loader.getResource(resource) != null;
  }
}
