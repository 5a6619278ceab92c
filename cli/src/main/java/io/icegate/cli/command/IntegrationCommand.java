package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.model.AdminRequests;
import io.icegate.admin.model.IntegrationType;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.UseDefaultConverter;

/** {@code icegate integration ...}: CatalogIntegrations of the account (seed 000). */
@Command(name = "integration", mixinStandardHelpOptions = true,
    description = "Manage catalog integrations (upstream catalogs and their credentials).",
    subcommands = {IntegrationCommand.Create.class, IntegrationCommand.List.class,
        IntegrationCommand.Get.class, IntegrationCommand.Update.class,
        IntegrationCommand.RotateCredentials.class, IntegrationCommand.Delete.class,
        UpstreamCommands.Validate.class, UpstreamCommands.Capabilities.class,
        UpstreamCommands.Namespaces.class, UpstreamCommands.Objects.class,
        IntegrationScheduleCommand.class})
public final class IntegrationCommand {
  private static final ResourceKind KIND = ResourceKind.INTEGRATION;

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create an integration. Secrets are read from a file, an environment "
          + "variable or a no-echo prompt, never from an argument.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "DISPLAY_NAME")
    String displayName;

    @Option(names = "--type", required = true, paramLabel = "ICEBERG_REST|UNITY|DELTA_SHARING")
    IntegrationType type;

    @Option(names = "--uri", required = true, description = "Upstream catalog URI (http/https).")
    String uri;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
        converter = {PropertyKey.class, UseDefaultConverter.class},
        description = "Connection property (repeatable); secret-bearing names are refused.")
    Map<String, String> properties;

    @Mixin
    AuthenticationOptions authentication;

    @Mixin
    CreateOptions create;

    @Override
    protected void run(Session session) {
      AdminRequests.CreateIntegration body = new AdminRequests.CreateIntegration(displayName,
          type, uri, properties == null ? Map.of() : properties,
          authentication.body(session.environment()));
      AdminClient.Reply reply = session.client().send("POST",
          session.collection(KIND) + create.query(), body, create.headers());
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List integrations.")
  static final class List extends ListCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true,
      description = "Show an integration (never its secrets).")
  static final class Get extends GetCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = "Change the display name, URI or properties (type and id are immutable).")
  static final class Update extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Option(names = "--display-name", paramLabel = "NAME")
    String displayName;

    @Option(names = "--uri")
    String uri;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
        converter = {PropertyKey.class, UseDefaultConverter.class},
        description = "Replaces the whole property map (repeatable).")
    Map<String, String> properties;

    @Option(names = "--pause",
        description = "Pause: stop all new upstream work (scheduled and on request).")
    boolean pause;

    @Option(names = "--resume", description = "Resume a paused integration.")
    boolean resume;

    @Option(names = "--if-match", paramLabel = "ETAG",
        description = "Update only this version (else the current ETag is read first).")
    String ifMatch;

    @Override
    protected void run(Session session) {
      if (displayName == null && uri == null && properties == null && !pause && !resume) {
        throw new CliException(ExitCode.USAGE, "nothing to update: give --display-name, --uri, "
            + "--property, --pause or --resume");
      }
      if (pause && resume) {
        throw new CliException(ExitCode.USAGE, "give --pause or --resume, not both");
      }
      JsonNode current = session.resolve(KIND, ref);
      String etag = session.ifMatch(KIND, current, ifMatch);
      AdminClient.Reply reply = session.client().send("PATCH",
          session.item(KIND, current.get("id").asText()),
          new AdminRequests.PatchIntegration(displayName, null, uri, properties,
              pause || resume ? Boolean.valueOf(pause) : null),
          Map.of("If-Match", etag));
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "rotate-credentials", mixinStandardHelpOptions = true,
      description = "Replace the integration's authentication and its secrets.")
  static final class RotateCredentials extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Mixin
    AuthenticationOptions authentication;

    @Option(names = "--if-match", paramLabel = "ETAG",
        description = "Rotate only this version (else the current ETag is read first).")
    String ifMatch;

    @Override
    protected void run(Session session) {
      JsonNode current = session.resolve(KIND, ref);
      String id = current.get("id").asText();
      // Secrets are read before the ETag so a failed read changes nothing and reads nothing.
      var body = authentication.body(session.environment());
      String etag = session.ifMatch(KIND, current, ifMatch);
      AdminClient.Reply reply = session.client().send("PUT",
          session.item(KIND, id) + "/authentication", body, Map.of("If-Match", etag));
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an integration.")
  static final class Delete extends DeleteCommand {
    @Option(names = "--cascade",
        description = "Also delete the integration's overlays (passed to the server).")
    boolean cascade;

    @Override
    ResourceKind kind() {
      return KIND;
    }

    @Override
    String query() {
      return cascade ? "?cascade=true" : "";
    }
  }
}
