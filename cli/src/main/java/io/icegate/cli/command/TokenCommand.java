package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.admin.model.AdminRequests;
import io.icegate.cli.http.AdminClient;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code icegate token list|issue|revoke}: the account's API tokens. The secret of an issued token
 * is printed once; listings never show one.
 */
@Command(name = "token", mixinStandardHelpOptions = true, description = "Manage API tokens.",
    subcommands = {TokenCommand.List.class, TokenCommand.Issue.class, TokenCommand.Revoke.class})
public final class TokenCommand {
  private static final ResourceKind KIND = ResourceKind.TOKEN;

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List the account's tokens (never their secrets).")
  static final class List extends ListCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "issue", mixinStandardHelpOptions = true,
      description = "Issue a token; its secret is printed once.")
  static final class Issue extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--role", paramLabel = "ROLE", description = "admin, writer or reader.")
    String role;

    @Option(names = "--expires-at", paramLabel = "INSTANT",
        description = "ISO-8601 instant from which the token is refused, e.g. 2027-01-01T00:00:00Z.")
    String expiresAt;

    @Option(names = "--server-admin",
        description = "A token acting in every account (server-admin token only).")
    boolean serverAdmin;

    @Override
    protected void run(Session session) {
      AdminRequests.IssueToken body = new AdminRequests.IssueToken(name,
          role == null && !serverAdmin ? "reader" : role, expiresAt, serverAdmin ? true : null);
      AdminClient.Reply reply = session.client().send("POST", session.collection(KIND), body,
          Map.of());
      session.printer().resource(reply.body());
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true,
      description = "Revoke a token: refused at once on the admin API, within 2 s on the Iceberg "
          + "API of every gateway sharing the store.")
  static final class Revoke extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID", description = "Token name or id.")
    String ref;

    @Override
    protected void run(Session session) {
      JsonNode token = session.resolve(KIND, ref);
      String id = token.get("id").asText();
      session.client().send("DELETE", session.item(KIND, id), null, Map.of());
      ObjectNode json = AdminClient.JSON.createObjectNode().put("revoked", id).put("kind", "token");
      session.printer().done("revoked token " + token.path("name").asText() + " (" + id + ")",
          json);
    }
  }
}
