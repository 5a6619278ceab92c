package io.icegate.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a bad flag or argument as the error, picocli's "did you mean" suggestions when it has
 * some, and one line naming the command's {@code --help}; exit code {@link ExitCode#USAGE}.
 * picocli's default printed the whole usage text after the error, which buried the one line that
 * says what was wrong (most commands have a page of options).
 */
public final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {
  @Override
  public int handleParseException(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("icegate: " + e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for its usage.");
    err.flush();
    return ExitCode.USAGE;
  }

  /** Sets this handler on {@code root} and every subcommand present now. */
  public static CommandLine installOn(CommandLine root) {
    return root.setParameterExceptionHandler(new UsageErrorHandler());
  }
}
