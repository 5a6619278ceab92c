package io.icegate.cli.command;

import io.icegate.cli.http.AdminClient;
import java.util.List;
import picocli.CommandLine.Mixin;

/** {@code KIND list}: one page (the server's page size unless given), or every page with --all. */
abstract class ListCommand extends AdminCommand {
  @Mixin
  PageOptions paging;

  abstract ResourceKind kind();

  @Override
  protected void run(Session session) {
    String path = session.collection(kind());
    if (paging.all) {
      List<com.fasterxml.jackson.databind.JsonNode> items = session.client().all(path);
      session.printer().list(kind(), items, AdminClient.pageJson(items, null));
      return;
    }
    AdminClient.Page page = session.client().page(path, paging.pageSize, paging.pageToken);
    session.printer().list(kind(), page.items(),
        AdminClient.pageJson(page.items(), page.nextPageToken()));
    if (page.nextPageToken() != null && session.printer().format()
        == io.icegate.cli.output.OutputFormat.table) {
      session.printer().note("more " + kind().collection() + ": --page-token "
          + page.nextPageToken() + " (or --all)");
    }
  }
}
