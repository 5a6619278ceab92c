package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.output.HumanDuration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code icegate overlay schedule NAME|ID}: the overlay's refresh schedule (issue 28) from {@code
 * GET .../overlays/{id}/schedule}: state, lag, last success and attempt, next run, last error.
 * Times print as ISO-8601 instants, the lag short ({@code 3m48s}); {@code -o json} prints the answer as
 * the server gave it (epoch milliseconds).
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
    description = "Show an overlay's refresh schedule: state, lag, last success, next run.")
final class ScheduleCommand extends AdminCommand {
  @Mixin
  ScheduleTarget target;

  @Override
  protected void run(Session session) {
    JsonNode body = target.read(session, ResourceKind.OVERLAY);
    JsonNode error = body.path("lastError");
    session.printer().table(
        List.of("STATE", "LAG", "LAST_SUCCESS", "LAST_ATTEMPT", "NEXT_RUN", "LAST_ERROR"),
        List.<String[]>of(new String[] {
            body.path("state").asText(),
            body.path("lagMillis").isNumber()
                ? HumanDuration.ofMillis(body.path("lagMillis").asLong()) : "-",
            instant(body.path("lastSuccessAt")), instant(body.path("lastAttemptAt")),
            instant(body.path("nextRunAt")),
            problem(error)}),
        body);
  }

  /** A schedule's {@code lastError} problem as {@code CODE: detail}, or {@code -}. */
  static String problem(JsonNode error) {
    return error.isObject() ? error.path("code").asText() + ": " + error.path("detail").asText()
        : "-";
  }

  /** Epoch milliseconds as an ISO-8601 instant, or {@code -}. */
  static String instant(JsonNode millis) {
    return millis.isNumber() ? Instant.ofEpochMilli(millis.asLong()).toString() : "-";
  }
}
