package io.icegate.bench.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs the Delta capture bench on a table of 3 × 2 files (a warm-up and one counted iteration), on
 * local disk and on s3proxy, so a broken bench fails the build instead of the next measurement.
 * The bench throws when the capture after one commit is not incremental. Measures nothing.
 */
class DeltaCaptureBenchSmokeTest {

  @Test
  void aSmallTableIsScannedCapturedAndCapturedIncrementally() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    List<DeltaCaptureBench.Measurement> measurements =
        DeltaCaptureBench.run(new DeltaCaptureBench.Plan(3, 2, 1), out);

    assertThat(measurements).singleElement().satisfies(m -> assertThat(m.files()).isEqualTo(8));
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("store local", "table of 6 files in 3 partitions", "warm-up:", "iteration 1:");
  }

  @Test
  void onS3ProxyTheProductionPathScansAndCaptures() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    List<DeltaCaptureBench.Measurement> measurements =
        DeltaCaptureBench.run(
            new DeltaCaptureBench.Plan(3, 2, 1, DeltaCaptureBench.Store.S3PROXY), out);

    assertThat(measurements).singleElement().satisfies(m -> assertThat(m.files()).isEqualTo(8));
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("store s3proxy", "files copied to s3proxy", "warm-up:", "iteration 1:", "cpu");
  }

  @Test
  void theStoreIsNamedAsTheFourthArgument() {
    assertThat(DeltaCaptureBench.Store.parse("store=s3proxy"))
        .isEqualTo(DeltaCaptureBench.Store.S3PROXY);
    assertThat(DeltaCaptureBench.Store.parse("local")).isEqualTo(DeltaCaptureBench.Store.LOCAL);
    assertThatThrownBy(() -> DeltaCaptureBench.Store.parse("s3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown store s3");
  }
}
