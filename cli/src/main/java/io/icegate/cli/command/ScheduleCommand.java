package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code icegate overlay schedule NAME|ID}: the overlay's refresh schedule (issue 28) from {@code
 * GET .../overlays/{id}/schedule}: state, lag, last success and attempt, next run, last error.
 * Times print as ISO-8601 instants, the lag as a duration; {@code -o json} prints the answer as
 * the server gave it (epoch milliseconds).
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
    description = "Show an overlay's refresh schedule: state, lag, last success, next run.")
final class ScheduleCommand extends AdminCommand {
  @Parameters(index = "0", paramLabel = "NAME|ID")
  String ref;

  @Override
  protected void run(Session session) {
    JsonNode overlay = session.resolve(ResourceKind.OVERLAY, ref);
    JsonNode body = session.client().get(
        session.item(ResourceKind.OVERLAY, overlay.get("id").asText()) + "/schedule").body();
    JsonNode error = body.path("lastError");
    session.printer().table(
        List.of("STATE", "LAG", "LAST_SUCCESS", "LAST_ATTEMPT", "NEXT_RUN", "LAST_ERROR"),
        List.<String[]>of(new String[] {
            body.path("state").asText(),
            body.path("lagMillis").isNumber()
                ? Duration.ofMillis(body.path("lagMillis").asLong()).toString() : "-",
            instant(body.path("lastSuccessAt")), instant(body.path("lastAttemptAt")),
            instant(body.path("nextRunAt")),
            error.isObject() ? error.path("code").asText() + ": " + error.path("detail").asText()
                : "-"}),
        body);
  }

  private static String instant(JsonNode millis) {
    return millis.isNumber() ? Instant.ofEpochMilli(millis.asLong()).toString() : "-";
  }
}
