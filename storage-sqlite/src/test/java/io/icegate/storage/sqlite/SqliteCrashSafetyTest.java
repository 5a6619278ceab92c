package io.icegate.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every commit that returned survives the writer process being killed with SIGKILL, and no
 * transaction is half-applied.
 *
 * <p>{@link Process#destroyForcibly()} sends SIGKILL on Linux, so the child gets no chance to
 * close the store, checkpoint the WAL or run shutdown hooks. This kills the process, not the
 * machine: what the kernel already accepted stays in the page cache, so the test proves that a
 * returned commit is in the WAL file and that recovery replays it. Surviving power loss also needs
 * {@code synchronous=FULL} (fsync before commit returns), which is asserted as a pragma in
 * {@link SqliteEngineTest} but cannot be exercised here.
 */
class SqliteCrashSafetyTest {

  private static final int ROUNDS = 3;
  private static final int ACKNOWLEDGED_PER_ROUND = 200;
  private static final long ROUND_DEADLINE_SECONDS = 60;

  @TempDir Path dir;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void acknowledgedCommitsSurviveSigkill() throws Exception {
    Path file = dir.resolve("crash.db");
    long next = 0;
    for (int round = 0; round < ROUNDS; round++) {
      List<Long> acknowledged = runAndKill(file, next, dir.resolve("writer-" + round + ".err"));
      assertThat(acknowledged).hasSize(ACKNOWLEDGED_PER_ROUND);

      Set<Long> a = new TreeSet<>();
      Set<Long> b = new TreeSet<>();
      try (KvStore store = SqliteKvStore.open(file)) {
        store.read(tx -> {
          for (KeyValue kv : tx.getRange(CommittingWriterMain.A.range().begin,
              CommittingWriterMain.A.range().end)) {
            a.add(CommittingWriterMain.A.unpack(kv.key()).getLong(0));
          }
          for (KeyValue kv : tx.getRange(CommittingWriterMain.B.range().begin,
              CommittingWriterMain.B.range().end)) {
            b.add(CommittingWriterMain.B.unpack(kv.key()).getLong(0));
          }
          return null;
        });
      }
      assertThat(a).as("round %d: every acknowledged commit is present", round)
          .containsAll(acknowledged);
      assertThat(b).as("round %d: both keys of every transaction or neither", round)
          .isEqualTo(a);
      // The child may have committed a few more than it printed before the kill landed.
      next = ((TreeSet<Long>) a).last() + 1;
    }
    assertThat(next).isGreaterThanOrEqualTo((long) ROUNDS * ACKNOWLEDGED_PER_ROUND);
  }

  /** Starts the writer at {@code first}, reads its acknowledgements, SIGKILLs it. */
  private static List<Long> runAndKill(Path file, long first, Path stderr) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process writer =
        new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                CommittingWriterMain.class.getName(), file.toString(), Long.toString(first))
            .redirectError(stderr.toFile())
            .start();
    // If the writer hangs, killing it ends readLine() below with end of stream.
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    watchdog.schedule(writer::destroyForcibly, ROUND_DEADLINE_SECONDS, TimeUnit.SECONDS);
    List<Long> acknowledged = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
      while (acknowledged.size() < ACKNOWLEDGED_PER_ROUND) {
        String line = out.readLine();
        if (line == null) {
          throw new AssertionError("writer ended after " + acknowledged.size()
              + " commits; stderr:\n" + readQuietly(stderr));
        }
        acknowledged.add(Long.parseLong(line.trim()));
      }
      // Killed while it is still committing: the next transaction is in flight or about to be.
      writer.destroyForcibly();
    } finally {
      writer.destroyForcibly();
      watchdog.shutdownNow();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).as("writer exited").isTrue();
    }
    assertThat(writer.exitValue()).as("killed by SIGKILL (128 + 9)").isEqualTo(137);
    return acknowledged;
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
