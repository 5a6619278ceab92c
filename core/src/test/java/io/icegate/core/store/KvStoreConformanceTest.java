package io.icegate.core.store;

import static io.icegate.core.store.Interleaving.await;
import static io.icegate.core.store.Interleaving.sleep;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.engine.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one contract every {@link KvEngine} driver must pass, run unchanged by each driver's subclass
 * (in-memory, SQLite, FoundationDB). It drives the engine through {@link EngineKvStore}, the way
 * the product uses it.
 *
 * <p>Every key lives under {@link #SUITE}, a subspace of {@link KeySubspace#SCRATCH} that is
 * cleared before each test, so the suite also runs on a shared FoundationDB cluster.
 *
 * <p>Tests that need a transaction to observe a concurrent commit interleave two transactions with
 * latches; they run only on drivers that {@link #reportsConflicts() report conflicts}, since a
 * driver that serializes writers (SQLite) would block the second writer until the first commits.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class KvStoreConformanceTest {

  /** Where the suite's keys live; cleared before each test. */
  protected static final Subspace SUITE = KeySubspace.SCRATCH.get(Tuple.from("kv-conformance"));

  private static final long WAIT_SECONDS = Interleaving.WAIT_SECONDS;

  private KvEngine engine;

  /** The store under test, over the engine of {@link #openEngine()}; closed after each test. */
  protected KvStore store;

  /** A fresh engine for one test; the suite wraps and closes it. */
  protected abstract KvEngine openEngine() throws Exception;

  /**
   * Whether the driver detects conflicts optimistically and reports them (in-memory, FoundationDB)
   * rather than serializing writers so that they never conflict (SQLite). Drivers returning false
   * skip the interleaving tests.
   */
  protected boolean reportsConflicts() {
    return true;
  }

  @BeforeEach
  final void openStore() throws Exception {
    engine = openEngine();
    store = new EngineKvStore(engine);
    store.run(
        tx -> {
          tx.clearRange(begin(), end());
          return null;
        });
  }

  @AfterEach
  final void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void emptyStoreReadsNothing() {
    store.read(
        tx -> {
          assertThat(tx.get(key("missing"))).isNull();
          assertThat(tx.getRange(begin(), end())).isEmpty();
          assertThat(tx.getRange(begin(), end(), 5, Direction.REVERSE)).isEmpty();
          assertThat(tx.snapshot().getRange(begin(), end())).isEmpty();
          return null;
        });
  }

  @Test
  void tupleKeysSortInTupleLayerOrder() {
    // The order the FoundationDB tuple layer defines, i.e. unsigned byte order of the packed keys:
    // byte strings, then text (by UTF-8 bytes, not UTF-16 units), then nested tuples, then
    // integers by value; a tuple sorts right after its prefixes.
    List<Tuple> expected =
        List.of(
            Tuple.from((Object) new byte[0]),
            Tuple.from((Object) new byte[] {0}),
            Tuple.from((Object) new byte[] {0, 0}),
            Tuple.from((Object) new byte[] {1}),
            Tuple.from((Object) new byte[] {0x7f}),
            Tuple.from((Object) new byte[] {(byte) 0x80}),
            Tuple.from((Object) new byte[] {(byte) 0xff}),
            Tuple.from(""),
            Tuple.from("A"),
            Tuple.from("a"),
            Tuple.from("a", 1L),
            Tuple.from("ab"),
            Tuple.from("\u00e9"),
            Tuple.from("\u4e2d"),
            Tuple.from("\ufffd"),
            Tuple.from("\ud83d\ude00"),
            Tuple.from(Tuple.from("a")),
            Tuple.from(Tuple.from("a", 1L)),
            Tuple.from(Tuple.from("a", 2L)),
            Tuple.from(Tuple.from("b")),
            Tuple.from(Long.MIN_VALUE),
            Tuple.from(-1_000_000_000_000L),
            Tuple.from(-65_536L),
            Tuple.from(-256L),
            Tuple.from(-255L),
            Tuple.from(-1L),
            Tuple.from(0L),
            Tuple.from(1L),
            Tuple.from(1L, "a"),
            Tuple.from(1L, "b"),
            Tuple.from(255L),
            Tuple.from(256L),
            Tuple.from(65_536L),
            Tuple.from(1_000_000_000_000L),
            Tuple.from(Long.MAX_VALUE));
    List<String> expectedKeys = expected.stream().map(t -> hex(SUITE.pack(t))).toList();
    assertThat(expectedKeys)
        .as("the expected order is unsigned byte order of the packed keys")
        .isSortedAccordingTo((a, b) -> Arrays.compareUnsigned(unhex(a), unhex(b)));

    List<Integer> insertOrder = new ArrayList<>();
    for (int i = 0; i < expected.size(); i++) {
      insertOrder.add(i);
    }
    Collections.shuffle(insertOrder, new Random(42));
    store.run(
        tx -> {
          for (int i : insertOrder) {
            tx.set(SUITE.pack(expected.get(i)), Tuple.from((long) i).pack());
          }
          return null;
        });

    List<KeyValue> forward = range(begin(), end());
    assertThat(forward).extracting(kv -> hex(kv.key())).containsExactlyElementsOf(expectedKeys);
    for (int i = 0; i < forward.size(); i++) {
      assertThat(Tuple.fromBytes(forward.get(i).value()).getLong(0)).isEqualTo(i);
    }
    List<String> reversed = new ArrayList<>(expectedKeys);
    Collections.reverse(reversed);
    assertThat(range(begin(), end(), 0, Direction.REVERSE))
        .extracting(kv -> hex(kv.key()))
        .containsExactlyElementsOf(reversed);
  }

  @Test
  void rangeIncludesBeginAndExcludesEnd() {
    writeNumbers(0, 10);
    assertThat(numbers(range(key(3L), key(7L)))).containsExactly(3L, 4L, 5L, 6L);
    // Bounds between stored keys.
    assertThat(numbers(range(key(2L, "x"), key(5L, "x")))).containsExactly(3L, 4L, 5L);
    assertThat(range(key(4L), key(4L))).isEmpty();
    assertThat(numbers(range(key(7L), end()))).containsExactly(7L, 8L, 9L);
  }

  @Test
  void rangeLimitReturnsFirstPairs() {
    writeNumbers(0, 10);
    assertThat(numbers(range(begin(), end(), 3, Direction.FORWARD))).containsExactly(0L, 1L, 2L);
    assertThat(numbers(range(key(5L), end(), 2, Direction.FORWARD))).containsExactly(5L, 6L);
    assertThat(range(begin(), end(), 0, Direction.FORWARD)).hasSize(10);
    assertThat(range(begin(), end(), 50, Direction.FORWARD)).hasSize(10);
    assertThatThrownBy(() -> store.read(tx -> tx.getRange(begin(), end(), -1, Direction.FORWARD)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reverseRangeReturnsLastPairsHighestFirst() {
    writeNumbers(0, 10);
    assertThat(numbers(range(begin(), end(), 3, Direction.REVERSE))).containsExactly(9L, 8L, 7L);
    assertThat(numbers(range(key(3L), key(7L), 2, Direction.REVERSE))).containsExactly(6L, 5L);
    assertThat(numbers(range(key(3L), key(7L), 0, Direction.REVERSE)))
        .containsExactly(6L, 5L, 4L, 3L);
  }

  @Test
  void readsSeeOwnWritesBeforeCommit() {
    writeNumbers(0, 10);
    store.run(
        tx -> {
          tx.set(key(2L), value("two"));
          tx.clear(key(5L));
          tx.set(key(10L), value("ten"));
          tx.clearRange(key(7L), key(9L));
          tx.set(key(8L), value("eight"));
          tx.set(key(20L), value("gone"));
          tx.clearRange(key(15L), key(25L));

          assertThat(tx.get(key(2L))).isEqualTo(value("two"));
          assertThat(tx.get(key(5L))).isNull();
          assertThat(tx.get(key(7L))).isNull();
          assertThat(tx.get(key(8L))).isEqualTo(value("eight"));
          assertThat(tx.get(key(20L))).isNull();
          assertThat(numbers(tx.getRange(begin(), end())))
              .containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 8L, 9L, 10L);
          assertThat(numbers(tx.getRange(begin(), end(), 4, Direction.REVERSE)))
              .containsExactly(10L, 9L, 8L, 6L);
          assertThat(numbers(tx.getRange(key(1L), key(9L), 3, Direction.FORWARD)))
              .containsExactly(1L, 2L, 3L);
          assertThat(tx.getRange(key(2L), key(3L)).get(0).value()).isEqualTo(value("two"));
          assertThat(tx.snapshot().get(key(8L))).isEqualTo(value("eight"));
          assertThat(numbers(tx.snapshot().getRange(key(4L), key(11L))))
              .containsExactly(4L, 6L, 8L, 9L, 10L);
          return null;
        });
    assertThat(numbers(range(begin(), end()))).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 8L, 9L, 10L);
    assertThat(get(key(2L))).isEqualTo(value("two"));
  }

  @Test
  void writesAreInvisibleToOthersUntilCommit() throws Exception {
    CountDownLatch written = new CountDownLatch(1);
    CountDownLatch looked = new CountDownLatch(1);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<?> commit =
          writer.submit(
              () ->
                  store.run(
                      tx -> {
                        tx.set(key("pending"), value("v"));
                        written.countDown();
                        await(looked);
                        return null;
                      }));
      await(written);
      assertThat(get(key("pending"))).isNull();
      looked.countDown();
      commit.get(WAIT_SECONDS, SECONDS);
    } finally {
      writer.shutdownNow();
    }
    assertThat(get(key("pending"))).isEqualTo(value("v"));
  }

  @Test
  void readOnlyTransactionSeesOneSnapshot() throws Exception {
    put(key("k"), value("old"));
    CountDownLatch firstRead = new CountDownLatch(1);
    CountDownLatch changed = new CountDownLatch(1);
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<List<byte[]>> seen =
          reader.submit(
              () ->
                  store.read(
                      tx -> {
                        byte[] before = tx.get(key("k"));
                        firstRead.countDown();
                        await(changed);
                        return Arrays.asList(
                            before,
                            tx.get(key("k")),
                            String.valueOf(tx.getRange(begin(), end()).size()).getBytes(UTF_8));
                      }));
      await(firstRead);
      store.run(
          tx -> {
            tx.set(key("k"), value("new"));
            tx.set(key("other"), value("x"));
            return null;
          });
      changed.countDown();
      List<byte[]> values = seen.get(WAIT_SECONDS, SECONDS);
      assertThat(values.get(0)).isEqualTo(value("old"));
      assertThat(values.get(1)).as("second read in the same transaction").isEqualTo(value("old"));
      assertThat(values.get(2)).as("keys in range").isEqualTo(value("1"));
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  void snapshotViewReadsData() {
    writeNumbers(0, 5);
    store.run(
        tx -> {
          assertThat(tx.snapshot().get(key(3L))).isEqualTo(Tuple.from(3L).pack());
          assertThat(numbers(tx.snapshot().getRange(key(1L), key(4L)))).containsExactly(1L, 2L, 3L);
          assertThat(numbers(tx.snapshot().getRange(begin(), end(), 2, Direction.REVERSE)))
              .containsExactly(4L, 3L);
          assertThat(tx.snapshot().snapshot().get(key(0L))).isEqualTo(Tuple.from(0L).pack());
          return null;
        });
    assertThat((byte[]) store.read(tx -> tx.snapshot().get(key(4L))))
        .isEqualTo(Tuple.from(4L).pack());
  }

  @Test
  void snapshotReadDoesNotConflict() throws Exception {
    assumeReportsConflicts();
    put(key("watched"), value("1"));
    int attempts =
        Interleaving.readThenWrite(
            store,
            tx -> tx.snapshot().get(key("watched")),
            (tx, read) -> tx.set(key("result"), read),
            tx -> tx.set(key("watched"), value("2")));
    assertThat(attempts).as("attempts of the transaction that read by snapshot").isEqualTo(1);
    assertThat(get(key("result"))).isEqualTo(value("1"));
  }

  @Test
  void pointReadConflictsWithConcurrentWrite() throws Exception {
    assumeReportsConflicts();
    put(key("watched"), value("1"));
    int attempts =
        Interleaving.readThenWrite(
            store,
            tx -> tx.get(key("watched")),
            (tx, read) -> tx.set(key("result"), read),
            tx -> tx.set(key("watched"), value("2")));
    assertThat(attempts).isEqualTo(2);
    assertThat(get(key("result"))).as("serial order: writer first").isEqualTo(value("2"));
  }

  @Test
  void rangeReadConflictsWithConcurrentInsertIntoRange() throws Exception {
    assumeReportsConflicts();
    put(key("rows", 10L), value("a"));
    int attempts =
        Interleaving.readThenWrite(
            store,
            tx -> tx.getRange(key("rows", 0L), key("rows", 100L)).size(),
            (tx, count) -> tx.set(key("count"), Tuple.from((long) count).pack()),
            tx -> tx.set(key("rows", 50L), value("b")));
    assertThat(attempts).isEqualTo(2);
    assertThat(Tuple.fromBytes(get(key("count"))).getLong(0))
        .as("the count equals the rows in the range: the insert is serialized before the count")
        .isEqualTo(2L);
  }

  @Test
  void insertOutsideReadRangeDoesNotConflict() throws Exception {
    assumeReportsConflicts();
    put(key("rows", 10L), value("a"));
    int attempts =
        Interleaving.readThenWrite(
            store,
            tx -> tx.getRange(key("rows", 0L), key("rows", 100L)).size(),
            (tx, count) -> tx.set(key("count"), Tuple.from((long) count).pack()),
            tx -> tx.set(key("rows", 100L), value("at the exclusive end")));
    assertThat(attempts).isEqualTo(1);
  }

  @Test
  void concurrentIncrementsAreSerializable() throws Exception {
    int threads = 8;
    int increments = 50;
    long writesBefore = store.stats().committedWrites();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  await(start);
                  for (int i = 0; i < increments; i++) {
                    store.run(
                        tx -> {
                          byte[] current = tx.get(key("counter"));
                          long n = current == null ? 0 : Tuple.fromBytes(current).getLong(0);
                          tx.set(key("counter"), Tuple.from(n + 1).pack());
                          return null;
                        });
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(WAIT_SECONDS * 2, SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long total = Tuple.fromBytes(get(key("counter"))).getLong(0);
    assertThat(total).isEqualTo((long) threads * increments);
    assertThat(store.stats().committedWrites() - writesBefore)
        .isEqualTo((long) threads * increments);
  }

  @Test
  void conflictThrownByBodyIsRetried() {
    AtomicInteger attempts = new AtomicInteger();
    long conflictsBefore = store.stats().conflicts();
    String result =
        store.run(
            tx -> {
              if (attempts.incrementAndGet() == 1) {
                tx.set(key("first attempt"), value("x"));
                throw new TransactionConflictException("injected by the test");
              }
              tx.set(key("second attempt"), value("y"));
              return "done";
            });
    assertThat(result).isEqualTo("done");
    assertThat(attempts).hasValue(2);
    assertThat(get(key("first attempt"))).isNull();
    assertThat(get(key("second attempt"))).isEqualTo(value("y"));
    assertThat(store.stats().conflicts() - conflictsBefore).isEqualTo(1);
  }

  @Test
  void oversizedKeyIsRejectedAndNothingWritten() {
    byte[] tooLong = keyOfLength(KvLimits.MAX_KEY_BYTES + 1);
    assertLimit(Limit.KEY_SIZE, tx -> tx.set(tooLong, value("v")));
    assertLimit(Limit.KEY_SIZE, tx -> tx.clear(tooLong));
    assertLimit(Limit.KEY_SIZE, tx -> tx.get(tooLong));
  }

  @Test
  void oversizedValueIsRejectedAndNothingWritten() {
    assertLimit(Limit.VALUE_SIZE, tx -> tx.set(key("big"), new byte[KvLimits.MAX_VALUE_BYTES + 1]));
  }

  @Test
  void keyAndValueAtTheLimitsAreAccepted() {
    byte[] longest = keyOfLength(KvLimits.MAX_KEY_BYTES);
    byte[] largest = new byte[KvLimits.MAX_VALUE_BYTES];
    Arrays.fill(largest, (byte) 0xab);
    put(longest, largest);
    assertThat(get(longest)).isEqualTo(largest);
  }

  @Test
  void oversizedTransactionIsRejectedAndNothingWritten() {
    byte[] chunk = new byte[KvLimits.MAX_VALUE_BYTES - 100];
    assertLimit(
        Limit.TRANSACTION_SIZE,
        tx -> {
          for (long i = 0; i <= KvLimits.MAX_TRANSACTION_BYTES / chunk.length; i++) {
            tx.set(key("chunk", i), chunk);
          }
        });
  }

  @Test
  void transactionPastAgeLimitFailsAsTooOld() throws Exception {
    put(key("a"), value("1"));
    // One attempt, so the retryable "too old" surfaces instead of being retried.
    KvStore oneAttempt =
        new EngineKvStore(engine, new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
    long sleepMillis = KvLimits.MAX_TRANSACTION_AGE.toMillis() + 200;
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Throwable> reader =
          pool.submit(
              () ->
                  catchThrowable(
                      () ->
                          oneAttempt.read(
                              tx -> {
                                sleep(sleepMillis);
                                return tx.get(key("a"));
                              })));
      Future<Throwable> writer =
          pool.submit(
              () ->
                  catchThrowable(
                      () ->
                          oneAttempt.run(
                              tx -> {
                                tx.set(key("b"), value("2"));
                                sleep(sleepMillis);
                                return null;
                              })));
      assertThat(reader.get(WAIT_SECONDS, SECONDS)).isInstanceOf(TransactionTooOldException.class);
      assertThat(writer.get(WAIT_SECONDS, SECONDS)).isInstanceOf(TransactionTooOldException.class);
    } finally {
      pool.shutdownNow();
    }
    assertThat(oneAttempt.stats().tooOld()).isEqualTo(2);
    assertThat(get(key("b"))).as("nothing written").isNull();
    assertThat(get(key("a"))).isEqualTo(value("1"));
  }

  @Test
  void clearRangeRemovesBeginInclusiveEndExclusive() {
    writeNumbers(0, 10);
    store.run(
        tx -> {
          tx.clearRange(key(3L), key(7L));
          tx.clearRange(key(8L), key(8L));
          return null;
        });
    assertThat(numbers(range(begin(), end()))).containsExactly(0L, 1L, 2L, 7L, 8L, 9L);
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      tx.clearRange(key(9L), key(1L));
                      return null;
                    }))
        .isInstanceOf(IllegalArgumentException.class);
    store.run(
        tx -> {
          tx.clearRange(begin(), end());
          return null;
        });
    assertThat(range(begin(), end())).isEmpty();
  }

  @Test
  void readOnlyTransactionRefusesWrites() {
    Throwable thrown =
        catchThrowable(
            () ->
                store.read(
                    tx -> {
                      ((Transaction) tx).set(key("x"), value("1"));
                      return null;
                    }));
    assertThat(thrown).isInstanceOf(IllegalStateException.class);
    assertThat(get(key("x"))).isNull();
  }

  @Test
  void bodyExceptionAbortsTransaction() {
    RuntimeException failure = new IllegalStateException("thrown by the body");
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                store.run(
                    tx -> {
                      attempts.incrementAndGet();
                      tx.set(key("x"), value("1"));
                      throw failure;
                    }))
        .isSameAs(failure);
    assertThat(attempts).as("not retried").hasValue(1);
    assertThat(get(key("x"))).isNull();
  }

  @Test
  void closedStoreFails() {
    store.close();
    assertThatThrownBy(() -> store.run(tx -> tx.get(key("x"))))
        .isInstanceOf(KvStoreFailureException.class);
    assertThatThrownBy(() -> store.read(tx -> tx.get(key("x"))))
        .isInstanceOf(KvStoreFailureException.class);
    store.close();
  }

  // --- helpers ---

  /** A key under {@link #SUITE}. */
  protected static byte[] key(Object... elements) {
    return SUITE.pack(Tuple.from(elements));
  }

  protected static byte[] value(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] begin() {
    return SUITE.range().begin;
  }

  private static byte[] end() {
    return SUITE.range().end;
  }

  private byte[] get(byte[] key) {
    return store.read(tx -> tx.get(key));
  }

  private List<KeyValue> range(byte[] begin, byte[] end) {
    return store.read(tx -> tx.getRange(begin, end));
  }

  private List<KeyValue> range(byte[] begin, byte[] end, int limit, Direction direction) {
    return store.read(tx -> tx.getRange(begin, end, limit, direction));
  }

  private void put(byte[] key, byte[] value) {
    store.run(
        tx -> {
          tx.set(key, value);
          return null;
        });
  }

  /** Writes {@code (n) -> tuple(n)} for {@code from <= n < to}. */
  private void writeNumbers(long from, long to) {
    store.run(
        tx -> {
          for (long n = from; n < to; n++) {
            tx.set(key(n), Tuple.from(n).pack());
          }
          return null;
        });
  }

  /** The first tuple element of each key, checking that each value is the tuple of its key. */
  private static List<Long> numbers(List<KeyValue> pairs) {
    List<Long> out = new ArrayList<>();
    for (KeyValue kv : pairs) {
      out.add(SUITE.unpack(kv.key()).getLong(0));
    }
    return out;
  }

  /** A key of exactly {@code length} bytes under {@link #SUITE}. */
  private static byte[] keyOfLength(int length) {
    byte[] filler = new byte[length - SUITE.getKey().length - 2]; // type code + terminator
    Arrays.fill(filler, (byte) 'k');
    byte[] key = SUITE.pack(Tuple.from((Object) filler));
    assertThat(key).hasSize(length);
    return key;
  }

  private void assertLimit(Limit limit, Consumer<Transaction> oversized) {
    Throwable thrown =
        catchThrowable(
            () ->
                store.run(
                    tx -> {
                      tx.set(key("before"), value("written earlier in the same transaction"));
                      oversized.accept(tx);
                      return null;
                    }));
    assertThat(thrown).isInstanceOf(KvLimitExceededException.class);
    assertThat(((KvLimitExceededException) thrown).limit()).isEqualTo(limit);
    assertThat(range(begin(), end())).as("nothing written").isEmpty();
  }

  private void assumeReportsConflicts() {
    Assumptions.assumeTrue(
        reportsConflicts(),
        "this driver serializes writers instead of reporting conflicts, so two interleaved"
            + " read-write transactions would block each other");
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static byte[] unhex(String hex) {
    return HexFormat.of().parseHex(hex);
  }
}
