package io.icegate.bench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the validation harness on a table of 5 files on each store (a warm-up and one counted
 * check), so a broken harness fails the build instead of the next measurement. The harness throws
 * when a check finds a problem on its good table. Measures nothing.
 */
class ValidationBenchSmokeTest {

  @Test
  void aSmallTableValidatesCleanOnBothStores() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    List<ValidationBench.Measurement> measurements =
        ValidationBench.run(
            new ValidationBench.Plan(5, 2, 1, List.of("local", "s3proxy")), out);

    assertThat(measurements)
        .extracting(ValidationBench.Measurement::store)
        .containsExactly("local", "s3proxy");
    assertThat(measurements).allMatch(m -> m.problems() == 0);
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("local: table of 5 Parquet files", "s3proxy warm-up", "iteration 1");
  }
}
