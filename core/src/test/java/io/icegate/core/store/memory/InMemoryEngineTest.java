package io.icegate.core.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.TransactionConflictException;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.core.store.engine.AccessMode;
import io.icegate.core.store.engine.EngineTransaction;
import io.icegate.core.store.engine.ReadMode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The MVCC and conflict rules of {@link InMemoryEngine}, driven directly with a manual clock. */
class InMemoryEngineTest {

  private static final ReadMode SER = ReadMode.SERIALIZABLE;

  private final AtomicLong clock = new AtomicLong();
  private final InMemoryEngine engine = new InMemoryEngine(clock::get, Duration.ofSeconds(5));

  @Test
  void writeOnlyTransactionsNeverConflict() {
    EngineTransaction t1 = rw();
    EngineTransaction t2 = rw();
    t1.set(k(1), v("t1"));
    t2.set(k(1), v("t2"));
    t2.clearRange(k(0), k(9));
    t2.commit();
    t1.commit();
    assertThat(committed(k(1))).isEqualTo(v("t1"));
  }

  @Test
  void pointReadConflictsWithLaterCommittedWrite() {
    put(k(1), v("a"));
    EngineTransaction t1 = rw();
    assertThat(t1.get(k(1), SER)).isEqualTo(v("a"));
    put(k(1), v("b"));
    t1.set(k(2), v("derived"));
    assertThatThrownBy(t1::commit).isInstanceOf(TransactionConflictException.class);
    t1.close();
    assertThat(committed(k(2))).isNull();
  }

  @Test
  void readOfAbsentKeyConflictsWithItsCreationAndWithARangeClearOverIt() {
    EngineTransaction t1 = rw();
    assertThat(t1.get(k(5), SER)).isNull();
    put(k(5), v("new"));
    t1.set(k(6), v("x"));
    assertThatThrownBy(t1::commit).isInstanceOf(TransactionConflictException.class);

    EngineTransaction t2 = rw();
    assertThat(t2.get(k(7), SER)).isNull();
    EngineTransaction clearer = rw();
    clearer.clearRange(k(0), k(9)); // a range clear writes its whole range, present keys or not
    clearer.commit();
    t2.set(k(8), v("x"));
    assertThatThrownBy(t2::commit).isInstanceOf(TransactionConflictException.class);
  }

  @Test
  void writesCommittedBeforeTheReadVersionDoNotConflict() {
    put(k(1), v("a"));
    EngineTransaction t1 = rw();
    t1.get(k(1), SER);
    t1.set(k(1), v("b"));
    t1.commit();
    assertThat(committed(k(1))).isEqualTo(v("b"));
  }

  @Test
  void snapshotReadsAddNoConflictRange() {
    put(k(1), v("a"));
    EngineTransaction t1 = rw();
    t1.get(k(1), ReadMode.SNAPSHOT);
    t1.getRange(k(0), k(9), 0, Direction.FORWARD, ReadMode.SNAPSHOT);
    put(k(1), v("b"));
    put(k(3), v("c"));
    t1.set(k(2), v("x"));
    t1.commit();
  }

  @Test
  void readOnlyTransactionCommitsDespiteConcurrentWrites() {
    put(k(1), v("a"));
    EngineTransaction reader = engine.begin(AccessMode.READ_ONLY);
    reader.get(k(1), SER);
    put(k(1), v("b"));
    reader.commit();
    assertThatThrownBy(() -> reader.set(k(1), v("c"))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void limitedRangeReadConflictsOnlyUpToTheLastKeyReturned() {
    for (int i = 1; i <= 5; i++) {
      put(k(i), v("v" + i));
    }
    // Forward, limit 2: returns 1, 2, so it depends on [k(0), after k(2)).
    EngineTransaction forward = rw();
    assertThat(keys(forward.getRange(k(0), k(9), 2, Direction.FORWARD, SER)))
        .containsExactly(1L, 2L);
    put(k(4), v("changed beyond the last key returned"));
    forward.set(k(20), v("x"));
    forward.commit();

    EngineTransaction forward2 = rw();
    forward2.getRange(k(0), k(9), 2, Direction.FORWARD, SER);
    put(k(1, "between"), v("inside what was read"));
    forward2.set(k(20), v("x"));
    assertThatThrownBy(forward2::commit).isInstanceOf(TransactionConflictException.class);

    // Reverse, limit 2: returns 5, 4, so it depends on [k(4), k(9)).
    EngineTransaction reverse = rw();
    assertThat(keys(reverse.getRange(k(0), k(9), 2, Direction.REVERSE, SER)))
        .containsExactly(5L, 4L);
    put(k(3), v("below the last key returned"));
    reverse.set(k(20), v("x"));
    reverse.commit();

    EngineTransaction reverse2 = rw();
    reverse2.getRange(k(0), k(9), 2, Direction.REVERSE, SER);
    put(k(8), v("inside what was read"));
    reverse2.set(k(20), v("x"));
    assertThatThrownBy(reverse2::commit).isInstanceOf(TransactionConflictException.class);
  }

  @Test
  void unlimitedRangeReadConflictsOverTheWholeRangeEvenWhenEmpty() {
    EngineTransaction t1 = rw();
    assertThat(t1.getRange(k(0), k(9), 0, Direction.FORWARD, SER)).isEmpty();
    put(k(8), v("phantom"));
    t1.set(k(20), v("x"));
    assertThatThrownBy(t1::commit).isInstanceOf(TransactionConflictException.class);
  }

  @Test
  void keyWrittenThenClearedReadsAbsent() {
    put(k(1), v("committed"));
    EngineTransaction t = rw();
    t.set(k(1), v("own"));
    t.set(k(2), v("own"));
    t.clear(k(1));
    t.clear(k(2));
    assertThat(t.get(k(1), SER)).isNull();
    assertThat(t.get(k(2), SER)).isNull();
    assertThat(t.getRange(k(0), k(9), 0, Direction.FORWARD, SER)).isEmpty();
    t.set(k(2), v("again"));
    assertThat(t.get(k(2), SER)).isEqualTo(v("again"));
    t.commit();
    assertThat(committed(k(1))).isNull();
    assertThat(committed(k(2))).isEqualTo(v("again"));
  }

  @Test
  void reverseRangeMergesOwnWritesWithCommittedData() {
    put(k(1), v("c1"));
    put(k(3), v("c3"));
    put(k(5), v("c5"));
    put(k(7), v("c7"));
    EngineTransaction t = rw();
    t.set(k(6), v("o6"));
    t.set(k(3), v("o3"));
    t.clear(k(5));
    t.set(k(8), v("o8"));
    t.clearRange(k(0), k(2));
    t.set(k(0), v("o0"));
    List<KeyValue> all = t.getRange(k(0), k(9), 0, Direction.REVERSE, SER);
    assertThat(keys(all)).containsExactly(8L, 7L, 6L, 3L, 0L);
    assertThat(all)
        .extracting(kv -> new String(kv.value()))
        .containsExactly("o8", "c7", "o6", "o3", "o0");
    assertThat(keys(t.getRange(k(0), k(9), 3, Direction.REVERSE, SER))).containsExactly(8L, 7L, 6L);
    assertThat(keys(t.getRange(k(0), k(9), 3, Direction.FORWARD, SER))).containsExactly(0L, 3L, 6L);
  }

  @Test
  void transactionReadsAtItsReadVersion() {
    put(k(1), v("old"));
    EngineTransaction t = rw();
    put(k(1), v("new"));
    put(k(2), v("new"));
    clear(k(1));
    assertThat(t.get(k(1), ReadMode.SNAPSHOT)).isEqualTo(v("old"));
    assertThat(keys(t.getRange(k(0), k(9), 0, Direction.FORWARD, ReadMode.SNAPSHOT)))
        .containsExactly(1L);
    t.close();
  }

  @Test
  void oldVersionsArePrunedOnceNoTransactionCanReadThem() {
    EngineTransaction pin = rw(); // reads at version 0
    for (int i = 0; i < 10; i++) {
      put(k(1), v("v" + i));
    }
    assertThat(engine.versionsHeld(k(1))).isEqualTo(10);
    assertThat(engine.commitRecordsHeld()).isEqualTo(10);
    assertThat(pin.get(k(1), SER)).isNull();
    pin.close();
    assertThat(engine.versionsHeld(k(1))).isEqualTo(1);
    assertThat(engine.commitRecordsHeld()).isZero();
    clear(k(1));
    assertThat(engine.versionsHeld(k(1))).as("a cleared key is forgotten").isZero();
    assertThat(committed(k(1))).isNull();
  }

  @Test
  void transactionPastTheAgeLimitIsTooOldAndStopsPinningVersions() {
    put(k(1), v("a"));
    EngineTransaction old = rw();
    old.get(k(1), SER);
    clock.addAndGet(Duration.ofSeconds(5).toNanos() + 1);
    put(k(1), v("b"));
    put(k(1), v("c"));
    assertThat(engine.versionsHeld(k(1))).as("the expired transaction pins nothing").isEqualTo(1);
    assertThatThrownBy(() -> old.get(k(1), SER)).isInstanceOf(TransactionTooOldException.class);
    old.set(k(2), v("x"));
    assertThatThrownBy(old::commit).isInstanceOf(TransactionTooOldException.class);
    assertThat(committed(k(2))).isNull();
  }

  @Test
  void valuesAreCopiedInAndOut() {
    byte[] value = v("abc");
    EngineTransaction t = rw();
    t.set(k(1), value);
    value[0] = 'X';
    t.get(k(1), SER)[1] = 'Y';
    t.commit();
    assertThat(committed(k(1))).isEqualTo(v("abc"));
    EngineTransaction r = rw();
    r.getRange(k(0), k(9), 0, Direction.FORWARD, SER).get(0).value()[0] = 'Z';
    assertThat(r.get(k(1), SER)).isEqualTo(v("abc"));
    r.close();
  }

  @Test
  void finishedTransactionAndClosedEngineRefuseWork() {
    EngineTransaction done = rw();
    done.commit();
    assertThatThrownBy(() -> done.get(k(1), SER)).isInstanceOf(IllegalStateException.class);
    done.close();
    done.close();

    EngineTransaction open = rw();
    engine.close();
    assertThatThrownBy(() -> open.get(k(1), SER)).isInstanceOf(KvStoreFailureException.class);
    assertThatThrownBy(() -> engine.begin(AccessMode.READ_ONLY))
        .isInstanceOf(KvStoreFailureException.class);
    open.close();
    engine.close();
  }

  private EngineTransaction rw() {
    return engine.begin(AccessMode.READ_WRITE);
  }

  private void put(byte[] key, byte[] value) {
    try (EngineTransaction t = rw()) {
      t.set(key, value);
      t.commit();
    }
  }

  private void clear(byte[] key) {
    try (EngineTransaction t = rw()) {
      t.clear(key);
      t.commit();
    }
  }

  private byte[] committed(byte[] key) {
    try (EngineTransaction t = engine.begin(AccessMode.READ_ONLY)) {
      return t.get(key, ReadMode.SNAPSHOT);
    }
  }

  private static byte[] k(Object... elements) {
    return Tuple.from(elements).pack();
  }

  private static byte[] v(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static List<Long> keys(List<KeyValue> pairs) {
    return pairs.stream().map(kv -> Tuple.fromBytes(kv.key()).getLong(0)).toList();
  }
}
