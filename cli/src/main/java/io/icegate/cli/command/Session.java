package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.CliEnvironment;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.config.GlobalOptions;
import io.icegate.cli.http.AdminClient;
import io.icegate.cli.http.IfMatch;
import io.icegate.cli.output.Printer;
import java.util.List;

/**
 * One command run: the client, the printer, and the account it acts in (resolved on first use).
 * Names are resolved by listing the resource type across all pages (seed 000, "Initial CLI name
 * resolution"); the API has no resolver of its own.
 */
public final class Session {
  static final String ADMIN = "/admin/v1";

  private final AdminClient client;
  private final Printer printer;
  private final CliEnvironment environment;
  private final String accountRef;
  private String accountId;

  private Session(AdminClient client, Printer printer, CliEnvironment environment,
      String accountRef) {
    this.client = client;
    this.printer = printer;
    this.environment = environment;
    this.accountRef = accountRef;
  }

  static Session open(GlobalOptions options) {
    GlobalOptions.Settings settings = options.resolve();
    CliEnvironment env = options.environment();
    return new Session(new AdminClient(settings.endpoint(), settings.token()),
        new Printer(options.output(), env.out(), env.err()), env, settings.account());
  }

  public AdminClient client() {
    return client;
  }

  public Printer printer() {
    return printer;
  }

  public CliEnvironment environment() {
    return environment;
  }

  /** The path of {@code kind}'s collection: {@code /admin/v1/accounts/ID/integrations}. */
  public String collection(ResourceKind kind) {
    if (kind == ResourceKind.ACCOUNT) {
      return ADMIN + "/accounts";
    }
    return ADMIN + "/accounts/" + AdminClient.encode(accountId()) + "/" + kind.collection();
  }

  /** The path of one resource. */
  public String item(ResourceKind kind, String id) {
    return collection(kind) + "/" + AdminClient.encode(id);
  }

  /** The route of the account's asynchronous operation {@code id}. */
  public String operation(String id) {
    return ADMIN + "/accounts/" + AdminClient.encode(accountId()) + "/operations/"
        + AdminClient.encode(id);
  }

  /**
   * The command that shows operation {@code id} later: {@code icegate operation get ID}, with
   * {@code --account} when the account setting is not the default one.
   */
  public String followCommand(String id) {
    return "icegate operation get " + id
        + (GlobalOptions.DEFAULT_ACCOUNT.equals(accountRef) ? "" : " --account " + accountRef);
  }

  /**
   * The id of the {@code --account} setting. Listing accounts needs a server-admin token; with an
   * account token the setting is taken as an id and read directly.
   */
  public String accountId() {
    if (accountId == null) {
      try {
        accountId = resolve(ResourceKind.ACCOUNT, accountRef).get("id").asText();
      } catch (CliException e) {
        if (e.exitCode() != ExitCode.NOT_AUTHORIZED) {
          throw e;
        }
        accountId = client.get(ADMIN + "/accounts/" + AdminClient.encode(accountRef)).body()
            .get("id").asText();
      }
    }
    return accountId;
  }

  /**
   * The resource of {@code kind} whose id or name is {@code ref}: an id match wins, else exactly
   * one name match.
   *
   * @throws CliException NOT_FOUND when nothing matches, USAGE when the name is ambiguous
   */
  public JsonNode resolve(ResourceKind kind, String ref) {
    List<JsonNode> items = client.all(collection(kind));
    for (JsonNode item : items) {
      if (ref.equals(item.path("id").asText())) {
        return item;
      }
    }
    List<JsonNode> named = items.stream()
        .filter(item -> ref.equals(item.path(kind.nameMember()).asText()))
        .toList();
    if (named.isEmpty()) {
      throw new CliException(ExitCode.NOT_FOUND, "no " + kind.noun() + " named '" + ref
          + "' or with that id" + (kind == ResourceKind.ACCOUNT ? "" : " in account " + accountRef));
    }
    if (named.size() > 1) {
      throw new CliException(ExitCode.USAGE, kind.noun() + " name '" + ref + "' is ambiguous ("
          + named.size() + " match: " + String.join(", ",
              named.stream().map(n -> n.path("id").asText()).toList()) + "); give an id");
    }
    return named.get(0);
  }

  /**
   * The If-Match value for a change to {@code resource}: {@code given} when set (bare tags quoted
   * again, {@link IfMatch}), else the current ETag read now, with a note on stderr saying so.
   */
  public String ifMatch(ResourceKind kind, JsonNode resource, String given) {
    if (given != null) {
      return IfMatch.quoted(given);
    }
    String id = resource.get("id").asText();
    String etag = client.get(item(kind, id)).etag().orElseThrow(() ->
        new CliException(ExitCode.FAILED, "the server sent no ETag for " + kind.noun() + " " + id));
    printer.note("using the current ETag " + etag + " of " + kind.noun() + " " + id
        + " (pass --if-match to require a version)");
    return etag;
  }
}
