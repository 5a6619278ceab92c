package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.model.AdminRequests;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import io.icegate.cli.path.PathSyntax;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code icegate overlay ...}: CatalogOverlays of the account (seed 000), an Integration's
 * namespace selection exposed in an existing Catalog. Selection paths are given in
 * {@link PathSyntax} and sent as segment lists.
 */
@Command(name = "overlay", mixinStandardHelpOptions = true,
    description = "Manage catalog overlays (an integration's namespaces shown in a catalog).",
    subcommands = {OverlayCommand.Create.class, OverlayCommand.List.class,
        OverlayCommand.Get.class, OverlayCommand.Update.class, OverlayCommand.Delete.class,
        ReconcileCommand.class, ScheduleCommand.class})
public final class OverlayCommand {
  private static final ResourceKind KIND = ResourceKind.OVERLAY;

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create an overlay of an integration's namespaces into a catalog.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "DISPLAY_NAME")
    String displayName;

    @Option(names = "--integration", required = true, paramLabel = "NAME|ID")
    String integration;

    @Option(names = "--catalog", required = true, paramLabel = "NAME|ID")
    String catalog;

    @Mixin
    OverlayOptions options;

    @Option(names = "--paused", description = "Create it paused (no scheduled refresh).")
    boolean paused;

    @Mixin
    CreateOptions create;

    @Override
    protected void run(Session session) {
      // Paths are parsed before any request, so a typo changes nothing and reads nothing.
      var includes = options.includes();
      var excludes = options.excludes();
      String interval = options.interval();
      String keep = options.kept();
      String integrationId = session.resolve(ResourceKind.INTEGRATION, integration).get("id")
          .asText();
      String catalogId = session.resolve(ResourceKind.CATALOG, catalog).get("id").asText();
      AdminRequests.CreateOverlay body = new AdminRequests.CreateOverlay(displayName,
          integrationId, catalogId, includes, excludes, interval, keep,
          paused ? Boolean.TRUE : null);
      AdminClient.Reply reply = session.client().send("POST",
          session.collection(KIND) + create.query(), body, create.headers());
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List overlays.")
  static final class List extends ListCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Show an overlay.")
  static final class Get extends GetCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = "Change an overlay's name, selection, refresh interval, retention or pause.")
  static final class Update extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Option(names = "--name", paramLabel = "NEW_NAME")
    String newName;

    @Mixin
    OverlayOptions options;

    @Option(names = "--pause", description = "Pause: withdraw the overlay's refresh demand.")
    boolean pause;

    @Option(names = "--resume", description = "Resume a paused overlay.")
    boolean resume;

    @Option(names = "--if-match", paramLabel = "ETAG",
        description = "Update only this version (else the current ETag is read first).")
    String ifMatch;

    @Override
    protected void run(Session session) {
      if (newName == null && options.none() && !pause && !resume) {
        throw new CliException(ExitCode.USAGE, "nothing to update: give --name, --include, "
            + "--exclude, --refresh-interval, --retention, --pause or --resume");
      }
      if (pause && resume) {
        throw new CliException(ExitCode.USAGE, "give --pause or --resume, not both");
      }
      var includes = options.includes();
      var excludes = options.excludes();
      String interval = options.interval();
      String keep = options.kept();
      JsonNode current = session.resolve(KIND, ref);
      String etag = session.ifMatch(KIND, current, ifMatch);
      // A JSON tree, not the request record: "manual" and "current" are sent as JSON null
      // (remove), which the client's serializer leaves out of records and maps.
      com.fasterxml.jackson.databind.node.ObjectNode body = AdminClient.JSON.createObjectNode();
      if (newName != null) {
        body.put("displayName", newName);
      }
      if (includes != null) {
        body.set("includeNamespaces", AdminClient.JSON.valueToTree(includes));
      }
      if (excludes != null) {
        body.set("excludeNamespaces", AdminClient.JSON.valueToTree(excludes));
      }
      if (options.refreshInterval != null) {
        body.put("refreshInterval", interval);
      }
      if (options.retention != null) {
        body.put("retention", keep);
      }
      if (pause || resume) {
        body.put("paused", pause);
      }
      AdminClient.Reply reply = session.client().send("PATCH",
          session.item(KIND, current.get("id").asText()), body, Map.of("If-Match", etag));
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete an overlay (its contributions are retired; the catalog stays).")
  static final class Delete extends DeleteCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }
}
