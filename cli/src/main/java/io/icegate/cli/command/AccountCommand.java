package io.icegate.cli.command;

import picocli.CommandLine.Command;

/** {@code icegate account list|get}: listing needs a server-admin token (the bootstrap token). */
@Command(name = "account", mixinStandardHelpOptions = true, description = "Show accounts.",
    subcommands = {AccountCommand.List.class, AccountCommand.Get.class})
public final class AccountCommand {

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List accounts (server-admin token).")
  static final class List extends ListCommand {
    @Override
    ResourceKind kind() {
      return ResourceKind.ACCOUNT;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Show an account.")
  static final class Get extends GetCommand {
    @Override
    ResourceKind kind() {
      return ResourceKind.ACCOUNT;
    }
  }
}
