package io.icegate.cli.command;

import io.icegate.cli.operation.OperationOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code icegate operation get ID}: an asynchronous operation of the account (today: reconciles
 * started with {@code overlay reconcile}), as {@code GET .../operations/{id}} answers it. Operations
 * have no name and no list route, so only the id is accepted.
 */
@Command(name = "operation", mixinStandardHelpOptions = true,
    description = "Show asynchronous operations (reconciles).",
    subcommands = {OperationCommand.Get.class})
public final class OperationCommand {

  @Command(name = "get", mixinStandardHelpOptions = true,
      description = "Show an operation: state, phase and counts so far, then its report or "
          + "problem. Exit 0 whatever the operation's state.")
  static final class Get extends AdminCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Operation id.")
    String id;

    @Override
    protected void run(Session session) {
      OperationOutput.operation(session.printer(),
          session.client().get(session.operation(id)).body());
    }
  }
}
