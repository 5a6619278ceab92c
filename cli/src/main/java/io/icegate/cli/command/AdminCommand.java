package io.icegate.cli.command;

import io.icegate.cli.ExitCode;
import io.icegate.cli.config.GlobalOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * A command that talks to the admin API. Subclasses do their work in {@link #run(Session)}; a
 * {@link io.icegate.cli.CliException} thrown there becomes a line on stderr and its exit code
 * ({@link io.icegate.cli.Cli} installs the handler).
 */
public abstract class AdminCommand implements Callable<Integer> {
  @Mixin
  GlobalOptions options;

  @Override
  public final Integer call() {
    run(Session.open(options));
    return ExitCode.OK;
  }

  protected abstract void run(Session session);
}
