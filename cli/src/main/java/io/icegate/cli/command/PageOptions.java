package io.icegate.cli.command;

import picocli.CommandLine.Option;

/**
 * The paging options of every list ({@code KIND list} and the discovery lists), one {@code
 * @Mixin}: one page at the server's page size unless given, or every page with {@code --all}.
 */
final class PageOptions {
  @Option(names = "--page-size", paramLabel = "N", description = "Items per page (1..1000).")
  Integer pageSize;

  @Option(names = "--page-token", paramLabel = "TOKEN",
      description = "Continue from the nextPageToken of an earlier page.")
  String pageToken;

  @Option(names = "--all", description = "Follow page tokens to the end and print every item.")
  boolean all;
}
