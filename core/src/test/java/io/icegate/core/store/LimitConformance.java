package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.SUITE;
import static io.icegate.core.store.ConformanceKeys.begin;
import static io.icegate.core.store.ConformanceKeys.end;
import static io.icegate.core.store.ConformanceKeys.key;
import static io.icegate.core.store.ConformanceKeys.value;
import static io.icegate.core.store.Interleaving.sleep;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.RetryPolicy;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Conformance of FoundationDB's limits ({@link KvLimits}) in every driver: key, value and
 * transaction sizes, refused whole with nothing written, and the transaction age past which a
 * transaction fails as too old.
 */
interface LimitConformance extends ConformanceFixture {

  @Test
  default void oversizedKeyIsRejectedAndNothingWritten() {
    byte[] tooLong = keyOfLength(KvLimits.MAX_KEY_BYTES + 1);
    assertLimit(Limit.KEY_SIZE, tx -> tx.set(tooLong, value("v")));
    assertLimit(Limit.KEY_SIZE, tx -> tx.clear(tooLong));
    assertLimit(Limit.KEY_SIZE, tx -> tx.get(tooLong));
  }

  @Test
  default void oversizedValueIsRejectedAndNothingWritten() {
    assertLimit(Limit.VALUE_SIZE, tx -> tx.set(key("big"), new byte[KvLimits.MAX_VALUE_BYTES + 1]));
  }

  @Test
  default void keyAndValueAtTheLimitsAreAccepted() {
    byte[] longest = keyOfLength(KvLimits.MAX_KEY_BYTES);
    byte[] largest = new byte[KvLimits.MAX_VALUE_BYTES];
    Arrays.fill(largest, (byte) 0xab);
    put(longest, largest);
    assertThat(get(longest)).isEqualTo(largest);
  }

  @Test
  default void oversizedTransactionIsRejectedAndNothingWritten() {
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
  default void transactionPastAgeLimitFailsAsTooOld() throws Exception {
    put(key("a"), value("1"));
    // One attempt, so the retryable "too old" surfaces instead of being retried.
    KvStore oneAttempt =
        new EngineKvStore(engine(), new RetryPolicy(1, Duration.ZERO, Duration.ZERO));
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
      assertThat(reader.get(Interleaving.WAIT_SECONDS, SECONDS))
          .isInstanceOf(TransactionTooOldException.class);
      assertThat(writer.get(Interleaving.WAIT_SECONDS, SECONDS))
          .isInstanceOf(TransactionTooOldException.class);
    } finally {
      pool.shutdownNow();
    }
    assertThat(oneAttempt.stats().tooOld()).isEqualTo(2);
    assertThat(get(key("b"))).as("nothing written").isNull();
    assertThat(get(key("a"))).isEqualTo(value("1"));
  }

  /**
   * Runs {@code oversized} after a write in the same transaction: the transaction must fail with
   * {@code limit} and write nothing, the earlier write included.
   */
  private void assertLimit(Limit limit, Consumer<Transaction> oversized) {
    Throwable thrown =
        catchThrowable(
            () ->
                store()
                    .run(
                        tx -> {
                          tx.set(key("before"), value("written earlier in the same transaction"));
                          oversized.accept(tx);
                          return null;
                        }));
    assertThat(thrown).isInstanceOf(KvLimitExceededException.class);
    assertThat(((KvLimitExceededException) thrown).limit()).isEqualTo(limit);
    assertThat(range(begin(), end())).as("nothing written").isEmpty();
  }

  /** A key of exactly {@code length} bytes under {@link ConformanceKeys#SUITE}. */
  private static byte[] keyOfLength(int length) {
    byte[] filler = new byte[length - SUITE.getKey().length - 2]; // type code + terminator
    Arrays.fill(filler, (byte) 'k');
    byte[] key = SUITE.pack(Tuple.from((Object) filler));
    assertThat(key).hasSize(length);
    return key;
  }
}
