package io.icegate.storage.fdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.RetryPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine under core's retry loop, over {@link ScriptedFdb} (no libfdb_c here): checks that the
 * driver lets core see every FoundationDB outcome, above all that a commit with unknown result is
 * not retried behind the caller's back as fdb-java's {@code Database.run} would.
 */
class FdbEngineTest {

  private static final RetryPolicy FAST = new RetryPolicy(5, Duration.ZERO, Duration.ZERO);

  private final ScriptedFdb fdb = new ScriptedFdb();
  private final KvStore store =
      new EngineKvStore(new FdbEngine("/etc/foundationdb/fdb.cluster", fdb.database()), FAST);

  @Test
  void describesItselfByClusterFile() {
    assertThat(new FdbEngine("/etc/foundationdb/fdb.cluster", fdb.database()).describe())
        .isEqualTo("fdb:/etc/foundationdb/fdb.cluster");
    assertThat(store).hasToString("EngineKvStore[fdb:/etc/foundationdb/fdb.cluster]");
  }

  @Test
  void aConflictIsRetriedWithAFreshTransaction() {
    fdb.commitAnswers.add(ScriptedFdb.error(1020));
    AtomicInteger runs = new AtomicInteger();

    String result = store.run(tx -> {
      runs.incrementAndGet();
      tx.set(new byte[] {0x15, 1}, new byte[] {1});
      return "done";
    });

    assertThat(result).isEqualTo("done");
    assertThat(runs).hasValue(2);
    assertThat(fdb.transactionsCreated).isEqualTo(2);
    assertThat(fdb.transactionsClosed).isEqualTo(2);
    assertThat(store.stats().conflicts()).isEqualTo(1);
  }

  @Test
  void commitUnknownResultReachesANonIdempotentCaller() {
    fdb.commitAnswers.add(ScriptedFdb.error(1021));
    AtomicInteger runs = new AtomicInteger();

    assertThatThrownBy(() -> store.run(tx -> {
          runs.incrementAndGet();
          tx.set(new byte[] {0x15, 1}, new byte[] {1});
          return null;
        }))
        .isInstanceOf(CommitUnknownResultException.class)
        .hasMessageContaining("1021 commit_unknown_result");
    assertThat(runs).hasValue(1);
    assertThat(fdb.transactionsClosed).isEqualTo(1);
  }

  @Test
  void clusterVersionChangedIsRetriedOnlyForAnIdempotentBody() {
    fdb.commitAnswers.add(ScriptedFdb.error(1039));
    AtomicInteger runs = new AtomicInteger();

    store.run(Idempotence.IDEMPOTENT, tx -> {
      runs.incrementAndGet();
      tx.set(new byte[] {0x15, 1}, new byte[] {1});
      return null;
    });

    assertThat(runs).hasValue(2);
    assertThat(store.stats().commitUnknown()).isEqualTo(1);
  }

  @Test
  void aClosedEngineRefusesNewTransactionsAndClosesTheDatabaseOnce() {
    FdbEngine engine = new FdbEngine("/x/fdb.cluster", fdb.database());
    engine.close();
    engine.close();
    assertThat(fdb.databaseClosed).isTrue();
    assertThatThrownBy(() -> engine.begin(AccessMode.READ_WRITE))
        .isInstanceOf(KvStoreFailureException.class)
        .hasMessageContaining("fdb:/x/fdb.cluster is closed");
  }

  @Test
  void anUnreadableClusterFileIsNamedInTheError(@TempDir Path dir) {
    String missing = dir.resolve("absent.cluster").toString();
    assertThatThrownBy(() -> FdbKvStore.open(missing))
        .isInstanceOf(KvStoreFailureException.class)
        .hasMessageContaining(missing)
        .hasMessageContaining("not readable");
  }

  @Test
  void aMissingClientLibraryIsExplained(@TempDir Path dir) throws Exception {
    Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "test:abc@127.0.0.1:4500\n");
    KvStore opened;
    try {
      opened = FdbKvStore.open(clusterFile.toString());
    } catch (KvStoreFailureException e) {
      assertThat(e).hasMessageContaining("libfdb_c is not installed");
      assertThat(e.getCause()).isInstanceOf(LinkageError.class);
      // fdb-java's class init failed for good; a second open must say the same, not crash.
      assertThatThrownBy(() -> FdbKvStore.open(clusterFile.toString()))
          .isInstanceOf(KvStoreFailureException.class)
          .hasMessageContaining("libfdb_c is not installed");
      return;
    }
    opened.close();
    Assumptions.abort("libfdb_c is installed on this host; the missing-library path cannot occur");
  }

  @Test
  void aLoadFailureIsExplainedByItsFirstCause() {
    // What the JDK reports on the second attempt, after fdb-java's class init failed.
    NoClassDefFoundError later =
        new NoClassDefFoundError("Could not initialize class com.apple.foundationdb.FDB");
    later.initCause(
        new ExceptionInInitializerError(
            "Exception java.lang.UnsatisfiedLinkError: /x/fdb_java1.library: libfdb_c.so: cannot"
                + " open shared object file"));
    assertThat(FdbEngine.nativeClientUnavailable(later))
        .hasMessageContaining("libfdb_c is not installed")
        .hasCause(later);

    UnsatisfiedLinkError unpackFailed = new UnsatisfiedLinkError("No such file or directory");
    assertThat(FdbEngine.nativeClientUnavailable(unpackFailed))
        .hasMessageContaining("libfdb_java")
        .hasMessageContaining("java.io.tmpdir=" + System.getProperty("java.io.tmpdir"))
        .hasMessageNotContaining("not installed");
  }
}
