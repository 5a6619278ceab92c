package io.icegate.gateway;

import io.icegate.cli.Cli;
import io.icegate.cli.CliEnvironment;
import io.icegate.cli.UsageErrorHandler;
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
    CliEnvironment environment = CliEnvironment.system();
    // `serve` needs none of the admin commands, and building their picocli models (reflection over
    // a few hundred annotated members) is a noticeable part of the server's start-up.
    CommandLine commandLine = args.length > 0 && args[0].equals("serve")
        ? serveCommandLine(environment)
        : commandLine(environment);
    int code = commandLine.execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The whole command tree, reading from and writing to {@code environment}. */
  public static CommandLine commandLine(CliEnvironment environment) {
    return BuildVersion.installOn(Cli.install(new CommandLine(new Main()), environment));
  }

  /**
   * The command tree without the admin commands: what {@code icegate serve ...} parses with. Its
   * own help and errors read exactly as in the whole tree.
   */
  static CommandLine serveCommandLine(CliEnvironment environment) {
    CommandLine root = new CommandLine(new Main());
    root.setOut(environment.out());
    root.setErr(environment.err());
    UsageErrorHandler.installOn(root);
    return BuildVersion.installOn(root);
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
