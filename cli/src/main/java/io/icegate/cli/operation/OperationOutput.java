package io.icegate.cli.operation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.icegate.cli.http.AdminClient;
import io.icegate.cli.output.OutputFormat;
import io.icegate.cli.output.Printer;
import java.time.Instant;

/**
 * How reconcile reports and operations are printed: JSON output is the server's body unchanged
 * (docs/admin-api.md, ReconcileReport and Operation); the table form is key/value lines like
 * {@code get}, with times as ISO-8601 instants and warnings one per line on stderr.
 */
public final class OperationOutput {
  private OperationOutput() {}

  /** A reconcile report on stdout; in table form its warnings follow as notes on stderr. */
  public static void report(Printer printer, JsonNode report) {
    if (printer.format() == OutputFormat.json) {
      printer.resource(report);
      return;
    }
    ObjectNode lines = report.deepCopy();
    JsonNode warnings = lines.remove("warnings");
    lines.put("warnings", warnings == null ? 0 : warnings.size());
    printer.resource(lines);
    if (warnings != null) {
      warnings.forEach(w -> printer.note("warning: " + w.asText()));
    }
  }

  /**
   * An operation on stdout: state, phase with its counts in words, the start and end, and the
   * report or the problem (its itemized details one per line on stderr).
   */
  public static void operation(Printer printer, JsonNode operation) {
    if (printer.format() == OutputFormat.json) {
      printer.resource(operation);
      return;
    }
    ObjectNode lines = AdminClient.JSON.createObjectNode();
    lines.set("id", operation.path("id"));
    lines.set("overlayId", operation.path("overlayId"));
    lines.set("state", operation.path("state"));
    lines.put("progress", OperationProgress.of(operation).line());
    lines.set("counts", operation.path("counts"));
    lines.put("startedAt", instant(operation.path("startedAtMillis")));
    lines.put("finishedAt", instant(operation.path("finishedAtMillis")));
    if (operation.hasNonNull("report")) {
      lines.set("report", operation.get("report"));
    }
    JsonNode problem = operation.path("problem");
    if (problem.isObject()) {
      lines.put("problem", problem(problem));
    }
    printer.resource(lines);
    problem.path("details").forEach(d -> printer.note("  - " + d.asText()));
  }

  /** A FAILED operation's problem in one line: {@code 409 RECONCILE_CONFLICT: detail}. */
  public static String problem(JsonNode problem) {
    return problem.path("status").asInt() + " " + problem.path("code").asText("")
        + ": " + problem.path("detail").asText("");
  }

  private static String instant(JsonNode millis) {
    return millis.isNumber() ? Instant.ofEpochMilli(millis.asLong()).toString() : "-";
  }
}
