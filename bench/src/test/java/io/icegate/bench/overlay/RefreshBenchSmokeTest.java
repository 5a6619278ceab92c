package io.icegate.bench.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Runs the refresh bench on a tiny setup (one upstream of 2 namespaces of 3 tables, two Overlays,
 * a 5 s interval, a 12 s window), so a broken harness fails the build instead of the next
 * measurement. Measures nothing, but checks what the bench reports can be right: change-free
 * rounds ran and wrote scheduler state only (a plan-and-lease and an end each).
 */
class RefreshBenchSmokeTest {

  @Test
  void aTinySetupRunsChangeFreeRoundsThatWriteOnlySchedulerState() throws Exception {
    RefreshBench.Plan plan = new RefreshBench.Plan(1, 2, 3, 2, Duration.ofSeconds(5),
        Duration.ofSeconds(12));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    RefreshBench.Result result = RefreshBench.run(plan, out);
    RefreshBench.summarize(plan, result, out);

    assertThat(result.rounds()).isPositive();
    assertThat(result.failedRounds()).isZero();
    // a round in flight at either end of the window counts its writes, not itself
    assertThat(result.writes()).isBetween(2 * (result.rounds() - 1), 2 * (result.rounds() + 1));
    assertThat(result.reads()).isPositive();
    assertThat(result.lagSeconds()).isNotEmpty();
    assertThat(text.toString(StandardCharsets.UTF_8)).contains("warm-up", "lag: p50",
        "store writes per change-free round", "upstream catalog reads per round");
  }
}
