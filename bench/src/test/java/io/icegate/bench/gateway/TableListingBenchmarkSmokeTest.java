package io.icegate.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Runs the listing benchmark's setup, both operations and its teardown without JMH, so a broken
 * benchmark fails the build instead of the next measurement. Measures nothing.
 */
class TableListingBenchmarkSmokeTest {

  @Test
  void bothListingsReturnTheFirstHundredInNameOrder() throws Exception {
    Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    TableListingBenchmark benchmark = new TableListingBenchmark();
    benchmark.tables = 250;
    benchmark.fill();
    try {
      var paged = benchmark.pagedListing();
      assertThat(paged.items()).hasSize(100);
      assertThat(paged.items().get(0).name()).isEqualTo("t0000000");
      assertThat(paged.next()).isPresent();
      var sliced = benchmark.catalogHandlersSlicing();
      assertThat(sliced.identifiers()).containsExactlyElementsOf(paged.items());
    } finally {
      benchmark.close();
    }
  }
}
