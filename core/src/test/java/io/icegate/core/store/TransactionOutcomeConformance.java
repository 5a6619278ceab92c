package io.icegate.core.store;

import static io.icegate.core.store.ConformanceKeys.key;
import static io.icegate.core.store.ConformanceKeys.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Conformance of how a transaction ends when it cannot commit: a read-only transaction refuses
 * writes, a body's exception aborts it without a retry, and a closed store refuses new ones.
 */
interface TransactionOutcomeConformance extends ConformanceFixture {

  @Test
  default void readOnlyTransactionRefusesWrites() {
    Throwable thrown =
        catchThrowable(
            () ->
                store()
                    .read(
                        tx -> {
                          ((Transaction) tx).set(key("x"), value("1"));
                          return null;
                        }));
    assertThat(thrown).isInstanceOf(IllegalStateException.class);
    assertThat(get(key("x"))).isNull();
  }

  @Test
  default void bodyExceptionAbortsTransaction() {
    RuntimeException failure = new IllegalStateException("thrown by the body");
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                store()
                    .run(
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
  default void closedStoreFails() {
    store().close();
    assertThatThrownBy(() -> store().run(tx -> tx.get(key("x"))))
        .isInstanceOf(KvStoreFailureException.class);
    assertThatThrownBy(() -> store().read(tx -> tx.get(key("x"))))
        .isInstanceOf(KvStoreFailureException.class);
    store().close();
  }
}
