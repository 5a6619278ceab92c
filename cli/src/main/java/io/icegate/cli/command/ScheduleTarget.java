package io.icegate.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Parameters;

/**
 * The operand {@code overlay schedule} and {@code integration schedule} share (one {@code
 * @Mixin}): the resource's display name or id, and the read of its {@code .../schedule} answer.
 */
final class ScheduleTarget {
  @Parameters(index = "0", paramLabel = "NAME|ID")
  String ref;

  /** The {@code kind} named by {@link #ref}, resolved; its schedule as the server gave it. */
  JsonNode read(Session session, ResourceKind kind) {
    JsonNode resource = session.resolve(kind, ref);
    return session.client().get(session.item(kind, resource.get("id").asText()) + "/schedule")
        .body();
  }
}
