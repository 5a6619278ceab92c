package io.icegate.gateway;

import io.icegate.cli.Cli;
import io.icegate.cli.CliEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The single entry point of the runnable jar: {@code icegate serve} and the admin commands of the
 * {@code cli} module ({@code icegate catalog|integration|account ...}, docs/cli.md).
 */
@Command(
    name = "icegate",
    mixinStandardHelpOptions = true,
    description = "Apache Iceberg REST catalog gateway.",
    subcommands = {ServeCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    int code = commandLine(CliEnvironment.system()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The whole command tree, reading from and writing to {@code environment}. */
  public static CommandLine commandLine(CliEnvironment environment) {
    return Cli.install(new CommandLine(new Main()), environment);
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
