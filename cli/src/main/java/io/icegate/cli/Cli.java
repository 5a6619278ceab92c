package io.icegate.cli;

import io.icegate.cli.command.AccountCommand;
import io.icegate.cli.command.CatalogCommand;
import io.icegate.cli.command.IntegrationCommand;
import io.icegate.cli.command.OperationCommand;
import io.icegate.cli.command.OverlayCommand;
import io.icegate.cli.command.TokenCommand;
import java.lang.reflect.Constructor;
import java.util.List;
import picocli.CommandLine;

/**
 * Installs the admin commands on the gateway's single picocli root ({@code icegate catalog ...},
 * {@code icegate integration ...}, {@code icegate overlay ...}, {@code icegate operation ...},
 * {@code icegate account ...}) and maps their failures to {@link ExitCode}s. A new resource group
 * is one more entry in {@link #GROUPS}.
 */
public final class Cli {
  private Cli() {}

  static final List<Class<?>> GROUPS =
      List.of(CatalogCommand.class, IntegrationCommand.class, OverlayCommand.class,
          OperationCommand.class, AccountCommand.class, TokenCommand.class);

  /**
   * Adds the command groups to {@code root}, with {@code environment} handed to every command, and
   * sets output streams and the error handler on the whole tree. Call after {@code root}'s own
   * subcommands are added, since picocli applies these settings to the tree present now.
   */
  public static CommandLine install(CommandLine root, CliEnvironment environment) {
    CommandLine.IFactory factory = new Factory(environment);
    for (Class<?> group : GROUPS) {
      root.addSubcommand(new CommandLine(group, factory));
    }
    root.setOut(environment.out());
    root.setErr(environment.err());
    UsageErrorHandler.installOn(root);
    root.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      if (e instanceof CliException failure) {
        environment.err().println("icegate: " + failure.getMessage());
        environment.err().flush();
        return failure.exitCode();
      }
      throw e;
    });
    return root;
  }

  /** Gives commands and mixins that take a {@link CliEnvironment} the one in use. */
  private record Factory(CliEnvironment environment) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      for (Constructor<?> constructor : type.getDeclaredConstructors()) {
        if (constructor.getParameterCount() == 1
            && constructor.getParameterTypes()[0] == CliEnvironment.class) {
          constructor.setAccessible(true);
          return type.cast(constructor.newInstance(environment));
        }
      }
      return CommandLine.defaultFactory().create(type);
    }
  }
}
