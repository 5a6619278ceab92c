package io.icegate.bench.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the reconcile harness on a tiny upstream (2 namespaces of 3 tables, a warm-up and one
 * counted iteration), so a broken harness fails the build instead of the next measurement. The
 * harness itself checks each run's outcome (counts, the re-run's two run-record writes) and
 * throws otherwise. Measures nothing.
 */
class ReconcileComparisonSmokeTest {

  @Test
  void aTinyUpstreamReconcilesAndTheRerunWritesOnlyItsRunRecord() throws Exception {
    ReconcileComparison.Plan plan = new ReconcileComparison.Plan(2, 3, 1, 2, 2);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    List<ReconcileComparison.Iteration> iterations = ReconcileComparison.run(plan, out);
    ReconcileComparison.summarize(plan, iterations, 0, 0, out);

    assertThat(iterations).hasSize(1);
    ReconcileComparison.Iteration it = iterations.get(0);
    assertThat(it.initial().writes()).isGreaterThan(ReconcileComparison.UNCHANGED_RUN_WRITES);
    assertThat(it.unchanged().writes()).isEqualTo(ReconcileComparison.UNCHANGED_RUN_WRITES);
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("warm-up", "iteration 1", "bare discovery", "unchanged re-run");
  }
}
