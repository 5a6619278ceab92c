package io.icegate.bench.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.bench.delta.DeltaCaptureBench.Plan;
import io.icegate.bench.delta.DeltaCaptureBench.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Runs the Delta capture bench on a table of 3 × 2 files (a warm-up and one counted iteration), on
 * local disk and on s3proxy, so a broken bench fails the build instead of the next measurement.
 * The bench throws when the capture after one commit is not incremental. Measures nothing.
 */
class DeltaCaptureBenchSmokeTest {

  @Test
  void aSmallTableIsScannedCapturedAndCapturedIncrementally() throws Exception {
    assertThat(runOnce(new Plan(3, 2, 1)))
        .contains("store local", "table of 6 files in 3 partitions", "warm-up:", "iteration 1:");
  }

  @Test
  void onS3ProxyTheProductionPathScansAndCaptures() throws Exception {
    assertThat(runOnce(new Plan(3, 2, 1, Store.S3PROXY)))
        .contains("store s3proxy", "files copied to s3proxy", "warm-up:", "iteration 1:", "cpu");
  }

  @Test
  void theStoreIsNamedAsTheFourthArgument() {
    assertThat(Store.parse("store=s3proxy")).isEqualTo(Store.S3PROXY);
    assertThat(Store.parse("local")).isEqualTo(Store.LOCAL);
    assertThatThrownBy(() -> Store.parse("s3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown store s3");
  }

  /** The printed text of a run of one counted iteration, which saw 6 + 2 files. */
  private static String runOnce(Plan plan) throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
    assertThat(DeltaCaptureBench.run(plan, out))
        .singleElement()
        .satisfies(m -> assertThat(m.files()).isEqualTo(8));
    return text.toString(StandardCharsets.UTF_8);
  }
}
