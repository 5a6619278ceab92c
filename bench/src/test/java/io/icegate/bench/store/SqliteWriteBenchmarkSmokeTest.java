package io.icegate.bench.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import org.junit.jupiter.api.Test;

/**
 * Runs the benchmark's setup, a few operations and its teardown without JMH, so a broken benchmark
 * fails the build instead of the next measurement. Measures nothing.
 */
class SqliteWriteBenchmarkSmokeTest {

  @Test
  void benchmarkCommitsItsKeysAndCleansUp() throws Exception {
    SqliteWriteBenchmark benchmark = new SqliteWriteBenchmark();
    SqliteWriteBenchmark.Writer writer = new SqliteWriteBenchmark.Writer();
    writer.prepare();
    benchmark.openStore();
    try {
      for (int i = 0; i < 5; i++) {
        benchmark.oneWriter(writer);
      }
      byte[] prefix = KeySubspace.SCRATCH.pack(Tuple.from("bench", "sqlite-write"));
      int written = benchmark.store().read(tx -> tx.getRange(
          prefix, KeySubspace.SCRATCH.range(Tuple.from("bench", "sqlite-write")).end).size());
      assertThat(written).isEqualTo(5);
      // Each value carries its sequence number: a value equal to the stored one would make SQLite
      // skip the write and the benchmark would time empty commits.
      byte[] last = benchmark.store().read(tx -> tx.get(
          KeySubspace.SCRATCH.pack(Tuple.from("bench", "sqlite-write", 0, 4L))));
      assertThat(java.nio.ByteBuffer.wrap(last).getLong(0)).isEqualTo(4L);
      assertThat(benchmark.store().stats().committedWrites()).isEqualTo(5);
    } finally {
      benchmark.closeStore();
    }
  }
}
