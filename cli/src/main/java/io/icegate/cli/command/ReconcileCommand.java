package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.CliException;
import io.icegate.cli.ExitCode;
import io.icegate.cli.http.AdminClient;
import io.icegate.cli.operation.OperationOutput;
import io.icegate.cli.operation.OperationWatch;
import io.icegate.cli.operation.ProgressView;
import io.icegate.cli.output.OutputFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code icegate overlay reconcile NAME|ID}: starts the asynchronous form of the reconcile route
 * ({@code Prefer: respond-async}, docs/admin-api.md), follows the operation with a progress view
 * on stderr and prints the report on stdout. A FAILED operation prints its problem with every
 * itemized detail (each conflict) and exits with the code of the problem's status.
 */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
    description = "Reconcile an overlay: publish the selected upstream tables and views into its "
        + "catalog and retire what upstream no longer has. Shows progress on stderr, then the "
        + "report. Ctrl-C stops waiting, not the reconcile.")
final class ReconcileCommand extends AdminCommand {
  /**
   * An operation that started this long before the request was sent was already running: the
   * request joined it. Generous, since the two clocks are different machines' clocks.
   */
  private static final Duration JOINED = Duration.ofSeconds(2);

  @Parameters(index = "0", paramLabel = "NAME|ID")
  String ref;

  @Option(names = "--no-wait",
      description = "Print the operation id and exit 0; follow it with 'icegate operation get ID'.")
  boolean noWait;

  @Option(names = "--confirm-retirement",
      description = "Allow the reconcile to retire every relation the overlay holds, or every "
          + "one under an include path (refused otherwise: MASS_RETIREMENT_UNCONFIRMED).")
  boolean confirmRetirement;

  @Option(names = "--poll-interval", paramLabel = "DURATION", defaultValue = "500ms",
      description = "Time between polls: 500ms, 2s, 1m, 1h or ISO-8601 (PT2S); "
          + "default ${DEFAULT-VALUE}.")
  String pollInterval;

  @Override
  protected void run(Session session) {
    Duration poll = DurationOption.duration(pollInterval, "--poll-interval");
    JsonNode overlay = session.resolve(ResourceKind.OVERLAY, ref);
    String overlayId = overlay.get("id").asText();
    String named = "overlay " + overlay.path("displayName").asText() + " (" + overlayId + ")";
    long sent = System.currentTimeMillis();
    AdminClient.Reply reply;
    try {
      reply = session.client().send("POST",
          session.item(ResourceKind.OVERLAY, overlayId) + "/reconcile"
              + (confirmRetirement ? "?confirmRetirement=true" : ""), null,
          Map.of("Prefer", "respond-async"));
    } catch (CliException e) {
      if (e.problemCode().filter("RECONCILE_IN_PROGRESS"::equals).isPresent()) {
        throw new CliException(e.exitCode(), named + " is being reconciled by a synchronous "
            + "request, which has no operation to follow; run this again when it has ended ("
            + e.getMessage() + ")", e.problemCode().get());
      }
      throw e;
    }
    if (reply.status() == 200) {
      // a server that ran it synchronously answered with the report itself
      OperationOutput.report(session.printer(), reply.body());
      return;
    }
    JsonNode operation = reply.body();
    String operationId = operation.get("id").asText();
    String follow = session.followCommand(operationId);
    if (noWait) {
      session.printer().done(operationId, operation);
      session.printer().note("reconciling " + named + "; follow it with: " + follow);
      return;
    }
    long started = operation.path("startedAtMillis").asLong(sent);
    session.printer().note(started < sent - JOINED.toMillis()
        ? "joined the reconcile of " + named + " running since "
            + Instant.ofEpochMilli(started) + ": operation " + operationId
        : "reconciling " + named + ": operation " + operationId);
    JsonNode done = new OperationWatch(session.client(), session.operation(operationId),
        poll, ProgressView.of(session.environment()), session.environment().err(), follow)
        .await(operation);
    if ("SUCCEEDED".equals(done.path("state").asText())) {
      OperationOutput.report(session.printer(), done.path("report"));
      return;
    }
    JsonNode problem = done.path("problem");
    if (session.printer().format() == OutputFormat.json) {
      session.printer().resource(problem);
    }
    throw new CliException(ExitCode.ofStatus(problem.path("status").asInt(500)),
        "reconcile of " + named + " failed (operation " + operationId + "): "
            + OperationOutput.problem(problem) + AdminClient.itemized(problem.get("details")),
        problem.path("code").asText(null));
  }
}
