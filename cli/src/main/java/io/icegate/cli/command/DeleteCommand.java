package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.cli.http.AdminClient;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code KIND delete NAME|ID}: deletes under If-Match (given, or the current ETag read first). */
abstract class DeleteCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "NAME|ID", description = "Display name or id.")
  String ref;

  @Option(names = "--if-match", paramLabel = "ETAG",
      description = "Delete only this version (else the current ETag is read first).")
  String ifMatch;

  abstract ResourceKind kind();

  /** Query string of the delete, with its leading {@code ?}, or empty. */
  String query() {
    return "";
  }

  @Override
  protected void run(Session session) {
    JsonNode resource = session.resolve(kind(), ref);
    String id = resource.get("id").asText();
    String etag = session.ifMatch(kind(), resource, ifMatch);
    session.client().send("DELETE", session.item(kind(), id) + query(), null,
        Map.of("If-Match", etag));
    ObjectNode json = AdminClient.JSON.createObjectNode().put("deleted", id)
        .put("kind", kind().noun());
    session.printer().done("deleted " + kind().noun() + " "
        + resource.path(kind().nameMember()).asText() + " (" + id + ")", json);
  }
}
