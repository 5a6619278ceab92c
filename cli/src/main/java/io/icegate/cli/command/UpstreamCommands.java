package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.model.AdminRequests;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import io.icegate.cli.output.OutputFormat;
import io.icegate.cli.path.PathSyntax;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code integration} subcommands that reach the upstream catalog through the admin API
 * (docs/admin-api.md, overlay-engine's validation and discovery): validate, capabilities,
 * namespaces, objects. Namespace paths are read and printed in {@link PathSyntax} and sent as query
 * parameters with the Iceberg separator {@code %1F} between segments.
 */
final class UpstreamCommands {
  private UpstreamCommands() {}

  private static final ResourceKind KIND = ResourceKind.INTEGRATION;
  /** Iceberg REST's namespace separator in query parameters. */
  private static final String SEPARATOR = "\u001f";

  /** The path under the integration {@code ref}: {@code .../integrations/ID/validate}. */
  private static String route(Session session, String ref, String leaf) {
    return session.item(KIND, session.resolve(KIND, ref).get("id").asText()) + "/" + leaf;
  }

  private static String queryPath(String path) {
    return AdminClient.encode(String.join(SEPARATOR, PathSyntax.parse(path)));
  }

  private static List<String> segments(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return out;
  }

  @Command(name = "validate", mixinStandardHelpOptions = true,
      description = "Check the integration against its upstream (connection, authentication, "
          + "discovery, credentials, storage) and print each check. Exit 8 when a check did "
          + "not pass.")
  static final class Validate extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Option(names = "--probe-table", paramLabel = "PATH",
        description = "Upstream table the storage checks use: its namespace path and name in "
            + "path syntax (sales.emea.orders). Default: the first table, in sorted order, "
            + "that vends (at most 5 tried).")
    String probeTable;

    @Override
    protected void run(Session session) {
      AdminRequests.ValidateIntegration body = probeTable == null ? null
          : new AdminRequests.ValidateIntegration(upstreamTable(probeTable));
      JsonNode report = session.client().send("POST", route(session, ref, "validate"), body,
          java.util.Map.of()).body();
      List<String[]> rows = new ArrayList<>();
      List<String> notOk = new ArrayList<>();
      for (JsonNode check : report.path("checks")) {
        String status = check.path("status").asText();
        rows.add(new String[] {check.path("check").asText(), status,
            check.path("code").isTextual() ? check.path("code").asText() : "-",
            check.path("message").asText("")});
        if (!"ok".equals(status)) {
          notOk.add(check.path("check").asText() + "=" + status);
        }
      }
      session.printer().table(List.of("CHECK", "STATUS", "CODE", "MESSAGE"), rows, report);
      if (session.printer().format() == OutputFormat.table) {
        for (JsonNode skipped : report.path("skippedTables")) {
          session.printer().note("skipped table " + tablePath(skipped) + ": "
              + skipped.path("code").asText() + " " + skipped.path("message").asText());
        }
        JsonNode probed = report.path("probedTable");
        session.printer().note("probed table: "
            + (probed.isObject() ? tablePath(probed) : "none"));
      }
      if (!report.path("ok").asBoolean(false)) {
        throw new CliException(ExitCode.VALIDATION_FAILED, "validation of integration " + ref
            + " did not pass: " + String.join(", ", notOk));
      }
    }
  }

  /**
   * A table given in path syntax: every segment but the last is the namespace.
   *
   * @throws CliException USAGE for a path of one segment (no namespace)
   */
  static AdminRequests.UpstreamTable upstreamTable(String path) {
    List<String> segments = PathSyntax.parse(path);
    if (segments.size() < 2) {
      throw new CliException(ExitCode.USAGE, "--probe-table '" + path
          + "' names no namespace: give the namespace path and the table name, e.g. sales.orders");
    }
    return new AdminRequests.UpstreamTable(segments.subList(0, segments.size() - 1),
        segments.get(segments.size() - 1));
  }

  /** A table of the validation report ({@code namespace}, {@code name}) in path syntax. */
  private static String tablePath(JsonNode table) {
    List<String> path = new ArrayList<>(segments(table.path("namespace")));
    path.add(table.path("name").asText());
    return PathSyntax.format(path);
  }

  @Command(name = "capabilities", mixinStandardHelpOptions = true,
      description = "What the integration's catalog-access provider offers (no upstream call).")
  static final class Capabilities extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Override
    protected void run(Session session) {
      JsonNode body = session.client().get(route(session, ref, "capabilities")).body();
      List<String[]> rows = new ArrayList<>();
      body.path("capabilities").forEach(c -> rows.add(new String[] {c.asText()}));
      session.printer().table(List.of("CAPABILITY"), rows, body);
      if (session.printer().format() == OutputFormat.table) {
        session.printer().note("supportsViews: " + body.path("supportsViews").asBoolean());
      }
    }
  }

  /** A discovery list: one page, or every page with {@code --all}, like {@link ListCommand}. */
  abstract static class Discovery extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @picocli.CommandLine.Mixin
    PageOptions paging;

    /** Route leaf and the items member of its page: {@code namespaces}, {@code objects}. */
    abstract String member();

    /** Query string without {@code ?} (path options already parsed), or empty. */
    abstract String query();

    abstract List<String> headers();

    abstract String[] row(JsonNode item);

    @Override
    protected void run(Session session) {
      String query = query();
      String path = route(session, ref, member()) + (query.isEmpty() ? "" : "?" + query);
      List<JsonNode> items;
      String next = null;
      if (paging.all) {
        items = session.client().all(path, member());
      } else {
        AdminClient.Page page =
            session.client().page(path, member(), paging.pageSize, paging.pageToken);
        items = page.items();
        next = page.nextPageToken();
      }
      session.printer().table(headers(), items.stream().map(this::row).toList(),
          AdminClient.pageJson(member(), items, next));
      if (next != null && session.printer().format() == OutputFormat.table) {
        session.printer().note("more " + member() + ": --page-token " + next + " (or --all)");
      }
    }
  }

  @Command(name = "namespaces", mixinStandardHelpOptions = true,
      description = "Direct child namespaces upstream of --parent (default: the root).")
  static final class Namespaces extends Discovery {
    @Option(names = "--parent", paramLabel = "PATH",
        description = "Upstream namespace whose children are listed (path syntax).")
    String parent;

    @Override
    String member() {
      return "namespaces";
    }

    @Override
    String query() {
      return parent == null ? "" : "parent=" + queryPath(parent);
    }

    @Override
    List<String> headers() {
      return List.of("NAMESPACE");
    }

    @Override
    String[] row(JsonNode item) {
      return new String[] {PathSyntax.format(segments(item))};
    }
  }

  @Command(name = "objects", mixinStandardHelpOptions = true,
      description = "Tables and views directly in one upstream namespace.")
  static final class Objects extends Discovery {
    @Option(names = "--namespace", required = true, paramLabel = "PATH",
        description = "Upstream namespace (path syntax).")
    String namespace;

    @Option(names = "--kind", paramLabel = "table|view", description = "Only this kind.")
    String kind;

    @Override
    String member() {
      return "objects";
    }

    @Override
    String query() {
      if (kind != null && !kind.equals("table") && !kind.equals("view")) {
        throw new CliException(ExitCode.USAGE, "--kind must be table or view, got '" + kind + "'");
      }
      return "namespace=" + queryPath(namespace)
          + (kind == null ? "" : "&kind=" + AdminClient.encode(kind));
    }

    @Override
    List<String> headers() {
      return List.of("KIND", "NAMESPACE", "NAME");
    }

    @Override
    String[] row(JsonNode item) {
      return new String[] {item.path("kind").asText(),
          PathSyntax.format(segments(item.path("namespace"))), item.path("name").asText()};
    }
  }
}
