package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.cli.output.HumanDuration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code icegate integration schedule NAME|ID}: the integration's effective plan (issue 28) from
 * {@code GET .../integrations/{id}/schedule}, as the scheduler plans its next round: interval,
 * retention, the overlays taking part, those retried alone (backing off on their own) with when,
 * pause, next run, last success and error. Durations print short ({@code 5m}), times as ISO-8601
 * instants; {@code -o json} prints the answer as the server gave it.
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
    description = "Show an integration's refresh plan: interval, overlays, retries, next run.")
final class IntegrationScheduleCommand extends AdminCommand {
  @Mixin
  ScheduleTarget target;

  @Override
  protected void run(Session session) {
    JsonNode body = target.read(session, ResourceKind.INTEGRATION);
    List<String> overlays = new ArrayList<>();
    body.path("overlays").forEach(o -> overlays.add(o.asText()));
    List<String> retries = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = body.path("retries").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> retry = it.next();
      retries.add(retry.getKey() + " at " + ScheduleCommand.instant(retry.getValue()));
    }
    session.printer().table(
        List.of("INTERVAL", "RETENTION", "PAUSED", "OVERLAYS", "RETRIES", "NEXT_RUN",
            "LAST_SUCCESS", "LAST_ERROR"),
        List.<String[]>of(new String[] {
            interval(body), duration(body.path("retention"), "current"),
            body.path("paused").asText(), overlays.isEmpty() ? "-" : String.join(", ", overlays),
            retries.isEmpty() ? "-" : String.join(", ", retries),
            ScheduleCommand.instant(body.path("nextRunAt")),
            ScheduleCommand.instant(body.path("lastSuccessAt")),
            ScheduleCommand.problem(body.path("lastError"))}),
        body);
  }

  /**
   * A paused integration plans no round, so the answer has no interval; {@code manual} would say
   * no overlay asked for refreshes, which may not be so.
   */
  private static String interval(JsonNode body) {
    return body.path("paused").asBoolean() ? "paused" : duration(body.path("interval"), "manual");
  }

  private static String duration(JsonNode iso, String absent) {
    return iso.isTextual() ? HumanDuration.ofIso(iso.asText()) : absent;
  }
}
