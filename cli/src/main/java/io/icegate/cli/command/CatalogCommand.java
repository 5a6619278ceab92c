package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.admin.model.AdminRequests;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.UseDefaultConverter;

/** {@code icegate catalog ...}: the account's catalogs (the Iceberg REST warehouses it serves). */
@Command(name = "catalog", mixinStandardHelpOptions = true, description = "Manage catalogs.",
    subcommands = {CatalogCommand.Create.class, CatalogCommand.List.class,
        CatalogCommand.Get.class, CatalogCommand.Update.class, CatalogCommand.Delete.class})
public final class CatalogCommand {
  private static final ResourceKind KIND = ResourceKind.CATALOG;

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a catalog.")
  static final class Create extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--warehouse", required = true, paramLabel = "URI",
        description = "Warehouse location (s3://bucket/path or file:/path).")
    String warehouse;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
        converter = {PropertyKey.class, UseDefaultConverter.class}, description = "Repeatable.")
    Map<String, String> properties;

    @Option(names = "--s3-region", description = "S3 storage: region.")
    String s3Region;
    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "S3 storage: endpoint.")
    String s3Endpoint;
    @Option(names = "--s3-path-style", description = "S3 storage: path-style access.")
    Boolean s3PathStyle;
    @Option(names = "--s3-access-key-id", description = "S3 storage: access key id.")
    String s3AccessKeyId;
    @Option(names = "--s3-secret-access-key-file", paramLabel = "FILE",
        description = "S3 storage: file holding the secret access key.")
    Path s3SecretFile;
    @Option(names = "--s3-secret-access-key-env", paramLabel = "NAME",
        description = "S3 storage: environment variable holding the secret access key.")
    String s3SecretEnv;

    @Mixin
    CreateOptions create;

    @Override
    protected void run(Session session) {
      AdminRequests.Storage storage = null;
      if (s3Region != null || s3Endpoint != null || s3PathStyle != null || s3AccessKeyId != null
          || s3SecretFile != null || s3SecretEnv != null) {
        // A key id without its secret would be useless, so the secret is required (prompted).
        String secret = s3AccessKeyId == null ? null : new SecretInput("S3 secret access key",
            "--s3-secret-access-key", s3SecretFile, s3SecretEnv)
            .read(session.environment(), true).orElseThrow();
        if (s3AccessKeyId == null && (s3SecretFile != null || s3SecretEnv != null)) {
          throw new CliException(ExitCode.USAGE,
              "an S3 secret access key needs --s3-access-key-id");
        }
        storage = new AdminRequests.Storage(new AdminRequests.S3(s3Endpoint, s3Region,
            s3PathStyle, s3AccessKeyId, secret));
      }
      AdminRequests.CreateCatalog body = new AdminRequests.CreateCatalog(name, warehouse,
          properties, storage);
      AdminClient.Reply reply = session.client().send("POST",
          session.collection(KIND) + create.query(), body, create.headers());
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List catalogs.")
  static final class List extends ListCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Show a catalog.")
  static final class Get extends GetCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = "Rename a catalog or replace its properties.")
  static final class Update extends AdminCommand {
    @Parameters(index = "0", paramLabel = "NAME|ID")
    String ref;

    @Option(names = "--name", paramLabel = "NEW_NAME")
    String newName;

    @Option(names = "--property", paramLabel = "KEY=VALUE",
        converter = {PropertyKey.class, UseDefaultConverter.class},
        description = "Replaces the whole property map (repeatable).")
    Map<String, String> properties;

    @Option(names = "--if-match", paramLabel = "ETAG",
        description = "Update only this version (else the current ETag is read first).")
    String ifMatch;

    @Override
    protected void run(Session session) {
      if (newName == null && properties == null) {
        throw new CliException(ExitCode.USAGE, "nothing to update: give --name or --property");
      }
      JsonNode current = session.resolve(KIND, ref);
      String etag = session.ifMatch(KIND, current, ifMatch);
      AdminClient.Reply reply = session.client().send("PATCH",
          session.item(KIND, current.get("id").asText()),
          new AdminRequests.PatchCatalog(newName, properties, null), Map.of("If-Match", etag));
      session.printer().resource(GetCommand.withEtag(reply));
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete a catalog (refused while it has namespaces).")
  static final class Delete extends DeleteCommand {
    @Override
    ResourceKind kind() {
      return KIND;
    }
  }
}
