package io.icegate.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.cli.http.AdminClient;
import picocli.CommandLine.Parameters;

/** {@code KIND get NAME|ID}: the resource and its ETag. */
abstract class GetCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "NAME|ID", description = "Display name or id.")
  String ref;

  abstract ResourceKind kind();

  @Override
  protected void run(Session session) {
    String id = session.resolve(kind(), ref).get("id").asText();
    AdminClient.Reply reply = session.client().get(session.item(kind(), id));
    session.printer().resource(withEtag(reply));
  }

  /** The body with the ETag header as member {@code etag} (as list items carry it). */
  static ObjectNode withEtag(AdminClient.Reply reply) {
    ObjectNode body = ((ObjectNode) reply.body()).deepCopy();
    reply.etag().ifPresent(etag -> body.put("etag", etag));
    return body;
  }
}
