package io.icegate.cli.operation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * What a reconcile operation's phase and counts mean to a person (docs/admin-api.md, Operation):
 * a phase label and a line of counts, plus how far the run is through its one measurable phase.
 * Only publication has a known total: discovery loads the inventory (its size becomes the total),
 * publication then decides each of those tables and views once (created, updated or unchanged).
 *
 * @param phase the phase in lower case ({@code publish}), {@code failed} for a FAILED operation
 *     whatever its phase, {@code ?} when the body has none
 * @param counts the counts for this phase: {@code 1,240/10,000 tables and views}
 * @param fraction publication's share done in [0, 1]; empty in the other phases
 */
public record OperationProgress(String phase, String counts, OptionalDouble fraction) {

  /** The progress of an operation body ({@code phase}, {@code counts}). */
  public static OperationProgress of(JsonNode operation) {
    String phase = operation.path("phase").asText("?");
    JsonNode c = operation.path("counts");
    long loaded = c.path("loaded").asLong();
    long decided = c.path("created").asLong() + c.path("updated").asLong()
        + c.path("unchanged").asLong();
    // a failed run ends in phase DONE too; its label must not read as success
    String label = "FAILED".equals(operation.path("state").asText())
        ? "failed" : phase.toLowerCase(Locale.ROOT);
    return switch (phase) {
      case "STARTING" -> new OperationProgress(label, "starting", OptionalDouble.empty());
      case "DISCOVERY" -> new OperationProgress(label,
          number(loaded) + " tables and views loaded upstream", OptionalDouble.empty());
      case "PREFLIGHT" -> new OperationProgress(label,
          number(loaded) + " tables and views loaded; checking the catalog for conflicts",
          OptionalDouble.empty());
      case "PUBLISH" -> new OperationProgress(label,
          number(decided) + "/" + number(loaded) + " tables and views",
          OptionalDouble.of(loaded == 0 ? 1.0 : Math.min(1.0, (double) decided / loaded)));
      case "CAPTURE" -> new OperationProgress(label, number(c.path("captured").asLong())
          + " captured, " + number(c.path("captureUnchanged").asLong()) + " unchanged, "
          + number(c.path("captureFailed").asLong()) + " failed", OptionalDouble.empty());
      case "VALIDATE" -> new OperationProgress(label, number(c.path("validated").asLong())
          + " validated, " + number(c.path("validationFailed").asLong()) + " failed",
          OptionalDouble.empty());
      case "RETIRE" -> new OperationProgress(label,
          number(c.path("retired").asLong()) + " retired", OptionalDouble.empty());
      default -> new OperationProgress(label, number(c.path("created").asLong()) + " created, "
          + number(c.path("updated").asLong()) + " updated, "
          + number(c.path("unchanged").asLong()) + " unchanged, "
          + number(c.path("retired").asLong()) + " retired", OptionalDouble.empty());
    };
  }

  /** {@code [publish] 1,240/10,000 tables and views}. */
  public String line() {
    return "[" + phase + "] " + counts;
  }

  /** 1240 as {@code 1,240}, the same in every locale. */
  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
