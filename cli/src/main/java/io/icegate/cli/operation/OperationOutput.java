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

  /**
   * A reconcile report on stdout; in table form its held objects and warnings are counted, then
   * follow as notes on stderr ({@code held: CODE: message}).
   */
  public static void report(Printer printer, JsonNode report) {
    if (printer.format() == OutputFormat.json) {
      printer.resource(report);
      return;
    }
    ObjectNode lines = report.deepCopy();
    JsonNode held = lines.remove("held");
    JsonNode warnings = lines.remove("warnings");
    lines.put("held", held == null ? 0 : held.size());
    lines.put("warnings", warnings == null ? 0 : warnings.size());
    printer.resource(lines);
    if (held != null) {
      held.forEach(h -> printer.note("held: " + h.path("code").asText() + ": "
          + visible(h.path("message").asText())));
    }
    if (warnings != null) {
      warnings.forEach(w -> printer.note("warning: " + w.asText()));
    }
  }

  /**
   * {@code text} with control characters written as {@code \\uXXXX}: a held object's name may
   * hold one (that is often why it is held), and a terminal must not act on it.
   */
  static String visible(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
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
