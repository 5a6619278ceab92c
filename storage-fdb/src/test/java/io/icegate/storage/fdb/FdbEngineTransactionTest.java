package io.icegate.storage.fdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.StreamingMode;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.core.store.engine.ReadMode;
import io.icegate.storage.fdb.ScriptedFdb.Call;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The driver's side of the fdb-java boundary, over {@link ScriptedFdb} (no libfdb_c here). */
class FdbEngineTransactionTest {

  private final ScriptedFdb fdb = new ScriptedFdb();
  private final FdbEngineTransaction tx = new FdbEngineTransaction(fdb.transaction());

  private static final byte[] KEY = KeySubspace.SCRATCH.pack(Tuple.from("ns", 42L, "t\u00e9"));
  private static final byte[] BEGIN = KeySubspace.SCRATCH.range(Tuple.from("ns")).begin;
  private static final byte[] END = KeySubspace.SCRATCH.range(Tuple.from("ns")).end;

  @Test
  void keysFromKeyLayoutReachFdbUnchanged() {
    tx.set(KEY, new byte[] {1});
    tx.clear(KEY);
    fdb.getAnswers.add(new byte[] {7});
    assertThat(tx.get(KEY, ReadMode.SERIALIZABLE)).containsExactly(7);

    // The very arrays core built: no prefix, no re-encoding, no copy.
    assertThat(fdb.calls("set").get(0).bytes(0)).isSameAs(KEY);
    assertThat(fdb.calls("clear").get(0).bytes(0)).isSameAs(KEY);
    assertThat(fdb.calls("get").get(0).bytes(0)).isSameAs(KEY);
  }

  @Test
  void serializableReadsUseTheTransactionAndSnapshotReadsItsSnapshot() {
    fdb.getAnswers.add(new byte[] {1});
    fdb.getAnswers.add(new byte[] {2});
    tx.get(KEY, ReadMode.SERIALIZABLE);
    tx.get(KEY, ReadMode.SNAPSHOT);
    tx.getRange(BEGIN, END, 0, Direction.FORWARD, ReadMode.SNAPSHOT);

    List<Call> gets = fdb.calls("get");
    assertThat(gets).extracting(Call::snapshot).containsExactly(false, true);
    assertThat(fdb.calls("getRange")).extracting(Call::snapshot).containsExactly(true);
  }

  @Test
  void anAbsentKeyReadsAsNull() {
    assertThat(tx.get(KEY, ReadMode.SERIALIZABLE)).isNull();
  }

  @Test
  void rangeReadsPassBoundsLimitAndDirectionAndKeepFdbOrder() {
    byte[] k1 = KeySubspace.SCRATCH.pack(Tuple.from("ns", 1L));
    byte[] k2 = KeySubspace.SCRATCH.pack(Tuple.from("ns", 2L));
    fdb.rangeAnswers.add(
        List.of(
            new com.apple.foundationdb.KeyValue(k2, new byte[] {2}),
            new com.apple.foundationdb.KeyValue(k1, new byte[] {1})));

    List<KeyValue> rows = tx.getRange(BEGIN, END, 2, Direction.REVERSE, ReadMode.SERIALIZABLE);

    assertThat(rows)
        .containsExactly(new KeyValue(k2, new byte[] {2}), new KeyValue(k1, new byte[] {1}));
    Call call = fdb.calls("getRange").get(0);
    assertThat(call.bytes(0)).isSameAs(BEGIN);
    assertThat(call.bytes(1)).isSameAs(END);
    assertThat(call.args().subList(2, 5)).containsExactly(2, true, StreamingMode.WANT_ALL);
    assertThat(call.snapshot()).isFalse();
  }

  @Test
  void unlimitedForwardRangeIsLimitZeroNotReversed() {
    tx.getRange(BEGIN, END, 0, Direction.FORWARD, ReadMode.SERIALIZABLE);
    assertThat(fdb.calls("getRange").get(0).args().subList(2, 4)).containsExactly(0, false);
  }

  @Test
  void emptyAndInvertedRangesNeverReachFdb() {
    assertThat(tx.getRange(END, BEGIN, 0, Direction.FORWARD, ReadMode.SERIALIZABLE)).isEmpty();
    assertThat(tx.getRange(BEGIN, BEGIN, 0, Direction.FORWARD, ReadMode.SERIALIZABLE)).isEmpty();
    tx.clearRange(END, BEGIN);
    tx.clearRange(BEGIN, BEGIN);
    assertThat(fdb.calls).isEmpty();

    tx.clearRange(BEGIN, END);
    Call clear = fdb.calls("clear").get(0);
    assertThat(clear.bytes(0)).isSameAs(BEGIN);
    assertThat(clear.bytes(1)).isSameAs(END);
  }

  @Test
  void aConflictAtCommitIsATransactionConflict() {
    fdb.commitAnswers.add(ScriptedFdb.error(1020));
    assertThatThrownBy(tx::commit)
        .isInstanceOf(TransactionConflictException.class)
        .hasMessageContaining("1020 not_committed");
  }

  @Test
  void aTimeoutIsAFailureOnReadButUnknownResultOnCommit() {
    fdb.getAnswers.add(ScriptedFdb.error(1031));
    assertThatThrownBy(() -> tx.get(KEY, ReadMode.SERIALIZABLE))
        .isInstanceOf(KvStoreFailureException.class)
        .hasMessageContaining("1031 transaction_timed_out");

    fdb.commitAnswers.add(ScriptedFdb.error(1031));
    assertThatThrownBy(tx::commit)
        .isInstanceOf(CommitUnknownResultException.class)
        .hasMessageContaining("may have committed");
  }

  @Test
  void tooOldOnARangeReadIsTooOld() {
    fdb.rangeAnswers.add(ScriptedFdb.error(1007));
    assertThatThrownBy(() -> tx.getRange(BEGIN, END, 0, Direction.FORWARD, ReadMode.SNAPSHOT))
        .isInstanceOf(TransactionTooOldException.class);
  }

  @Test
  void closeReleasesTheNativeTransactionOnce() {
    tx.close();
    tx.close();
    assertThat(fdb.transactionsClosed).isEqualTo(1);
  }
}
