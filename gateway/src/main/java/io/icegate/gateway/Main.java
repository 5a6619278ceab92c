package io.icegate.gateway;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The single entry point of the runnable jar: {@code icegate <subcommand>}. */
@Command(
    name = "icegate",
    mixinStandardHelpOptions = true,
    description = "Apache Iceberg REST catalog gateway.",
    subcommands = {ServeCommand.class})
public final class Main implements Runnable {

  public static void main(String[] args) {
    int code = new CommandLine(new Main()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }
}
