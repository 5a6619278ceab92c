package io.icegate.cli.command;

import io.icegate.cli.http.AdminClient;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code KIND list}: one page (the server's page size unless given), or every page with --all. */
abstract class ListCommand extends AdminCommand {
  @Option(names = "--page-size", paramLabel = "N", description = "Items per page (1..1000).")
  Integer pageSize;

  @Option(names = "--page-token", paramLabel = "TOKEN",
      description = "Continue from the nextPageToken of an earlier page.")
  String pageToken;

  @Option(names = "--all", description = "Follow page tokens to the end and print every item.")
  boolean all;

  abstract ResourceKind kind();

  @Override
  protected void run(Session session) {
    String path = session.collection(kind());
    if (all) {
      List<com.fasterxml.jackson.databind.JsonNode> items = session.client().all(path);
      session.printer().list(kind(), items, AdminClient.pageJson(items, null));
      return;
    }
    AdminClient.Page page = session.client().page(path, pageSize, pageToken);
    session.printer().list(kind(), page.items(),
        AdminClient.pageJson(page.items(), page.nextPageToken()));
    if (page.nextPageToken() != null && session.printer().format()
        == io.icegate.cli.output.OutputFormat.table) {
      session.printer().note("more " + kind().collection() + ": --page-token "
          + page.nextPageToken() + " (or --all)");
    }
  }
}
