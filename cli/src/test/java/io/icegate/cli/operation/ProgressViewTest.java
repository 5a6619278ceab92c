package io.icegate.cli.operation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.icegate.cli.CliEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The progress views over operation bodies shaped as docs/admin-api.md shows them: the bar's text
 * and redraw on a terminal, one line per phase elsewhere. The gateway's CliReconcileTest covers
 * the same views against a real reconcile (which is too fast to show a bar mid-publication).
 */
class ProgressViewTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode operation(String phase, long loaded, long created, long unchanged,
      long retired) throws Exception {
    return JSON.readTree("{\"state\":\"RUNNING\",\"phase\":\"" + phase + "\",\"counts\":{"
        + "\"loaded\":" + loaded + ",\"created\":" + created + ",\"updated\":0,\"unchanged\":"
        + unchanged + ",\"retired\":" + retired + "}}");
  }

  private static ProgressView view(boolean terminal, StringWriter err, String columns) {
    return ProgressView.of(new CliEnvironment(Map.of("COLUMNS", columns), Path.of("."),
        label -> Optional.empty(), new PrintWriter(new StringWriter()), new PrintWriter(err),
        terminal));
  }

  @Test
  void publicationCountsDecidedRelationsAgainstTheLoadedInventory() throws Exception {
    OperationProgress p = OperationProgress.of(operation("PUBLISH", 10_000, 1_000, 240, 0));
    assertThat(p.line()).isEqualTo("[publish] 1,240/10,000 tables and views");
    assertThat(p.fraction()).hasValue(0.124);
    assertThat(OperationProgress.of(operation("DISCOVERY", 37, 0, 0, 0)).line())
        .isEqualTo("[discovery] 37 tables and views loaded upstream");
    assertThat(OperationProgress.of(operation("RETIRE", 4, 4, 0, 2)).line())
        .isEqualTo("[retire] 2 retired");
    assertThat(OperationProgress.of(operation("DONE", 4, 3, 1, 2)).line())
        .isEqualTo("[done] 3 created, 0 updated, 1 unchanged, 2 retired");
    // an empty inventory is published at once
    assertThat(OperationProgress.of(operation("PUBLISH", 0, 0, 0, 0)).fraction()).hasValue(1.0);
  }

  @Test
  void aFailedOperationIsLabelledFailedNotDone() throws Exception {
    // found by a new-user tryout: "[done]" beside "state: FAILED" read as success
    JsonNode failed = JSON.readTree("{\"state\":\"FAILED\",\"phase\":\"DONE\",\"counts\":{"
        + "\"loaded\":4,\"created\":0,\"updated\":0,\"unchanged\":0,\"retired\":0}}");
    assertThat(OperationProgress.of(failed).line())
        .isEqualTo("[failed] 0 created, 0 updated, 0 unchanged, 0 retired");
  }

  @Test
  void captureCountsTablesWhoseUpstreamStateWasCaptured() throws Exception {
    JsonNode capture = JSON.readTree("{\"state\":\"RUNNING\",\"phase\":\"CAPTURE\","
        + "\"counts\":{\"loaded\":4,\"captured\":3,\"captureUnchanged\":1,"
        + "\"captureFailed\":0}}");
    assertThat(OperationProgress.of(capture).line())
        .isEqualTo("[capture] 3 captured, 1 unchanged, 0 failed");
  }

  @Test
  void validationCountsTablesValidatedAndFailed() throws Exception {
    JsonNode validate = JSON.readTree("{\"state\":\"RUNNING\",\"phase\":\"VALIDATE\","
        + "\"counts\":{\"loaded\":4,\"captured\":3,\"validated\":2,"
        + "\"validationFailed\":1}}");
    assertThat(OperationProgress.of(validate).line())
        .isEqualTo("[validate] 2 validated, 1 failed");
  }

  @Test
  void aTerminalGetsOneLineRedrawnAfterACarriageReturn() throws Exception {
    StringWriter err = new StringWriter();
    ProgressView bar = view(true, err, "100");
    assertThat(bar).isInstanceOf(ProgressView.TerminalBar.class);
    bar.show(operation("PUBLISH", 8, 4, 0, 0));
    assertThat(err.toString())
        .isEqualTo("\r[publish] [============>           ] 4/8 tables and views");
    int first = err.toString().length();
    bar.show(operation("RETIRE", 8, 8, 0, 0));
    String second = err.toString().substring(first);
    // the shorter text is padded over what the first drawing left
    assertThat(second).startsWith("\r[retire] 0 retired ").hasSize(first);
    bar.end();
    bar.end();
    assertThat(err.toString()).endsWith(" \n").doesNotContain("\u001b");
  }

  @Test
  void aNarrowTerminalGetsTheLineCutShortOfItsWidth() throws Exception {
    StringWriter err = new StringWriter();
    view(true, err, "30").show(operation("PUBLISH", 10_000, 5_000, 0, 0));
    assertThat(err.toString()).isEqualTo("\r[publish] [============>     ");
  }

  @Test
  void elsewhereEachPhaseIsOnePlainLine() throws Exception {
    StringWriter err = new StringWriter();
    ProgressView lines = view(false, err, "100");
    lines.show(operation("DISCOVERY", 1, 0, 0, 0));
    lines.show(operation("DISCOVERY", 2, 0, 0, 0));
    lines.show(operation("PUBLISH", 2, 1, 0, 0));
    lines.show(operation("DONE", 2, 2, 0, 0));
    lines.end();
    assertThat(err.toString().lines()).containsExactly(
        "icegate: [discovery] 1 tables and views loaded upstream",
        "icegate: [publish] 1/2 tables and views",
        "icegate: [done] 2 created, 0 updated, 0 unchanged, 0 retired");
    assertThat(err.toString()).doesNotContain("\r").doesNotContain("\u001b");
  }
}
