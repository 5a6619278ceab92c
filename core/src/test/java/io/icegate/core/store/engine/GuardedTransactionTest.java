package io.icegate.core.store.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.store.KvLimitExceededException;
import io.icegate.core.store.KvLimitExceededException.Limit;
import io.icegate.core.store.KvLimits;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.TransactionTooOldException;
import io.icegate.core.store.memory.InMemoryEngine;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The limit and age checks of {@link GuardedTransaction}. */
class GuardedTransactionTest {

  private final InMemoryEngine engine = InMemoryEngine.create();

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void everyKindOfWriteCountsTowardTheTransactionSize() {
    GuardedTransaction tx = guarded(Duration.ofSeconds(5));
    byte[] value = new byte[KvLimits.MAX_VALUE_BYTES];
    byte[] key = new byte[KvLimits.MAX_KEY_BYTES];
    for (int i = 0; i < 90; i++) {
      key[0] = (byte) i;
      tx.set(key.clone(), value); // 90 x 110,000 = 9,900,000
    }
    assertThat(tx.mutations()).isEqualTo(90);
    // 9,900,000 written; clears count their keys, range clears both bounds.
    tx.clear(key); // 9,910,000
    tx.clearRange(key, key); // 9,930,000
    assertThat(tx.mutations()).isEqualTo(92);
    for (int i = 0; i < 7; i++) {
      tx.clear(key); // up to 10,000,000 exactly
    }
    assertThatThrownBy(() -> tx.clear(new byte[] {1}))
        .isInstanceOfSatisfying(
            KvLimitExceededException.class,
            e -> assertThat(e.limit()).isEqualTo(Limit.TRANSACTION_SIZE));
    assertThat(tx.mutations()).as("the refused write is not counted").isEqualTo(99);
  }

  @Test
  void ageIsCheckedBeforeEveryCallAndAtCommit() throws InterruptedException {
    GuardedTransaction reads = guarded(Duration.ofMillis(20));
    Thread.sleep(40);
    assertThatThrownBy(() -> reads.get(new byte[] {1}))
        .isInstanceOf(TransactionTooOldException.class);
    assertThatThrownBy(() -> reads.getRange(new byte[] {1}, new byte[] {2}, 0, Direction.FORWARD))
        .isInstanceOf(TransactionTooOldException.class);
    assertThatThrownBy(() -> reads.set(new byte[] {1}, new byte[0]))
        .isInstanceOf(TransactionTooOldException.class);
    assertThatThrownBy(reads::commit).isInstanceOf(TransactionTooOldException.class);
    assertThat(reads.mutations()).isZero();
  }

  @Test
  void badArgumentsAreRejectedBeforeTheEngineSeesThem() {
    GuardedTransaction tx = guarded(Duration.ofSeconds(5));
    assertThatThrownBy(() -> tx.set(null, new byte[0])).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> tx.set(new byte[] {1}, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> tx.getRange(new byte[] {1}, new byte[] {2}, -1, Direction.FORWARD))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tx.clearRange(new byte[] {2}, new byte[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> tx.getRange(new byte[KvLimits.MAX_KEY_BYTES + 1], new byte[] {2}))
        .isInstanceOfSatisfying(
            KvLimitExceededException.class, e -> assertThat(e.limit()).isEqualTo(Limit.KEY_SIZE));
    assertThat(tx.mutations()).isZero();
  }

  private GuardedTransaction guarded(Duration maxAge) {
    return new GuardedTransaction(
        engine.begin(AccessMode.READ_WRITE), AccessMode.READ_WRITE, maxAge.toNanos());
  }
}
