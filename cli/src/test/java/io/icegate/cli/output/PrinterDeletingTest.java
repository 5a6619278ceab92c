package io.icegate.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.cli.command.ResourceKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tryout: an Overlay whose delete was killed half-way listed as healthy. The Overlay and
 * Integration tables end with the server's {@code deleting} member, so a half-deleted one shows.
 */
class PrinterDeletingTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> list(ResourceKind kind, String... items) throws Exception {
    StringWriter out = new StringWriter();
    Printer printer = new Printer(OutputFormat.table, new PrintWriter(out),
        new PrintWriter(new StringWriter()));
    List<JsonNode> nodes = new ArrayList<>();
    for (String item : items) {
      nodes.add(JSON.readTree(item));
    }
    printer.list(kind, nodes, JSON.createObjectNode());
    return out.toString().lines().toList();
  }

  @Test
  void overlayAndIntegrationListsShowWhichOneIsBeingDeleted() throws Exception {
    for (ResourceKind kind : List.of(ResourceKind.OVERLAY, ResourceKind.INTEGRATION)) {
      List<String> lines = list(kind,
          "{\"id\":\"a\",\"displayName\":\"healthy\",\"deleting\":false}",
          "{\"id\":\"b\",\"displayName\":\"half\",\"deleting\":true,"
              + "\"deletionFence\":{\"installedAt\":\"2026-12-03T14:00:00Z\"}}");
      assertThat(lines).hasSize(3);
      assertThat(lines.get(0)).as(kind.name()).endsWith("DELETING");
      assertThat(lines.get(1)).as(kind.name()).endsWith("false");
      assertThat(lines.get(2)).as(kind.name()).endsWith("true");
    }
  }
}
