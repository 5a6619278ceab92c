package io.icegate.bench.store;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.storage.sqlite.SqliteKvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Committed write transactions per second on the SQLite store, each transaction setting one key
 * with a 100-byte value (new content each time) under {@link KeySubspace#SCRATCH}. Every commit is
 * fsynced ({@code synchronous=FULL}), so the figure is bounded by the disk's sync latency; with 4
 * writers the transactions queue for SQLite's single writer, which shows what concurrency buys
 * (or costs).
 *
 * <p>The store file lives in a fresh directory under {@code java.io.tmpdir} (override with
 * {@code -Djava.io.tmpdir=...} in {@code -jvmArgs} to measure another disk). Each thread cycles
 * over {@link #KEYS_PER_THREAD} keys so that the file stays small however long the run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class SqliteWriteBenchmark {

  static final int KEYS_PER_THREAD = 10_000;
  static final int VALUE_BYTES = 100;

  private Path dir;
  private KvStore store;

  @Setup(Level.Trial)
  public void openStore() throws IOException {
    dir = Files.createTempDirectory("icegate-bench-sqlite");
    store = SqliteKvStore.open(dir.resolve("bench.db"));
  }

  @TearDown(Level.Trial)
  public void closeStore() throws IOException {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.delete(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  /** One writer thread's keys and value. */
  @State(Scope.Thread)
  public static class Writer {
    private static final AtomicInteger IDS = new AtomicInteger();

    private Subspace keys;
    private final ByteBuffer value = ByteBuffer.allocate(VALUE_BYTES);
    private long sequence;
    private byte[] key;

    @Setup(Level.Trial)
    public void prepare() {
      int id = IDS.getAndIncrement();
      keys = KeySubspace.SCRATCH.get(Tuple.from("bench", "sqlite-write", id));
      new Random(id).nextBytes(value.array());
    }

    /**
     * Moves to the next key and stamps the sequence number into the value. The value must differ
     * from what the key already holds: SQLite skips writing a row whose content is unchanged, and
     * such a commit costs no WAL write and no fsync.
     */
    void advance() {
      key = keys.pack(Tuple.from(sequence % KEYS_PER_THREAD));
      value.putLong(0, sequence);
      sequence++;
    }
  }

  @Benchmark
  @Threads(1)
  public void oneWriter(Writer writer) {
    commitOne(writer);
  }

  @Benchmark
  @Threads(4)
  public void fourWriters(Writer writer) {
    commitOne(writer);
  }

  void commitOne(Writer writer) {
    writer.advance();
    store.run(tx -> {
      tx.set(writer.key, writer.value.array());
      return null;
    });
  }

  KvStore store() {
    return store;
  }
}
