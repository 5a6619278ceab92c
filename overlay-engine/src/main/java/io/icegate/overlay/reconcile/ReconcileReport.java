package io.icegate.overlay.reconcile;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The answer of a completed run (DESIGN.md, reconcile route).
 *
 * <p>Its JSON is flat: the members below beside one member per count kind {@linkplain
 * ReconcileCount#inReport() in the report}, sorted by name like every record of the admin API and
 * the store (the OpenAPI schema {@code ReconcileReport}).
 *
 * @param overlayId the reconciled Overlay
 * @param runGeneration the run generation this run recorded; a run that published nothing records
 *     none and reports the generation it observed at start (the last recorded run's, 0 if none)
 * @param counts what the run did, by {@link ReconcileCount} ({@link ReconcileCount#LOADED} is
 *     progress only: not part of the JSON)
 * @param held listed upstream objects that published nothing this run and kept what was
 *     materialized of them (issue 21 "Held objects"), each naming who is to blame
 * @param warnings e.g. a stable identity shared by two upstream paths, a failed capture
 * @param durationMillis wall time of the run
 */
public record ReconcileReport(
    String overlayId,
    long runGeneration,
    ReconcileCounts counts,
    List<Held> held,
    List<String> warnings,
    long durationMillis) {

  /**
   * One held object of the report.
   *
   * @param kind {@code table}, {@code view} or {@code namespace}
   * @param path its namespace segments and name (a namespace: its segments)
   * @param code an error catalogue code: {@code NOT_REPRESENTABLE} (a limit of icegate's), {@code
   *     UPSTREAM_OBJECT_INVALID}, {@code STORAGE_CREDENTIALS_FAILED}, {@code
   *     PATH_HELD_BY_HELD_OBJECT}, or an upstream failure ({@code UPSTREAM_FAILED}, {@code
   *     UPSTREAM_UNAVAILABLE}, {@code NOT_FOUND}, {@code INTEGRATION_NOT_USABLE})
   * @param message what happened, naming the object (no secrets)
   */
  public record Held(String kind, List<String> path, String code, String message) {
    public Held {
      path = List.copyOf(path);
    }
  }

  public ReconcileReport {
    Objects.requireNonNull(counts, "counts");
    // a report stored before issue 21 has no held member
    held = held == null ? List.of() : List.copyOf(held);
    warnings = List.copyOf(warnings);
  }

  /** One count of the run. */
  public long count(ReconcileCount kind) {
    return counts.get(kind);
  }

  static ReconcileReport of(String overlayId, long generation, ReconcileProgress progress,
      List<HeldObject> held, List<String> warnings, long durationMillis) {
    return new ReconcileReport(overlayId, generation, progress.counts(),
        held.stream().map(HeldObject::toReport).toList(), warnings, durationMillis);
  }

  /**
   * The JSON members, sorted by name: the bytes the report had as a record of one component per
   * count under a mapper sorting properties alphabetically (the admin API's and the store's).
   */
  @JsonValue
  Map<String, Object> members() {
    Map<String, Object> members = new TreeMap<>();
    members.put("overlayId", overlayId);
    members.put("runGeneration", runGeneration);
    for (ReconcileCount kind : ReconcileCount.values()) {
      if (kind.inReport()) {
        members.put(kind.member(), counts.get(kind));
      }
    }
    members.put("held", held);
    members.put("warnings", warnings);
    members.put("durationMillis", durationMillis);
    return members;
  }

  /** A report read back from its JSON ({@link #members}), e.g. in a stored operation. */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static ReconcileReport fromMembers(Members json) {
    return new ReconcileReport(json.overlayId, json.runGeneration,
        ReconcileCounts.fromMembers(json.counts), json.held,
        json.warnings == null ? List.of() : json.warnings, json.durationMillis);
  }

  /** The JSON form while it is read: the named members, and every other number as a count. */
  static final class Members {
    @JsonProperty String overlayId;
    @JsonProperty long runGeneration;
    @JsonProperty List<Held> held;
    @JsonProperty List<String> warnings;
    @JsonProperty long durationMillis;
    final Map<String, Long> counts = new HashMap<>();

    @JsonAnySetter
    void count(String member, Object value) {
      if (value instanceof Number n) {
        counts.put(member, n.longValue());
      }
    }
  }
}
