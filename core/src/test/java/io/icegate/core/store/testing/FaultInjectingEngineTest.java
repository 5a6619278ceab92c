package io.icegate.core.store.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.KvStoreException.FailureKind;
import io.icegate.core.store.KvStoreFailureException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.RetryPolicy;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.store.testing.FaultInjectingEngine.Fault;
import io.icegate.core.store.testing.FaultInjectingEngine.Injection;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each fault as a caller of {@link EngineKvStore} observes it, over the in-memory engine. */
class FaultInjectingEngineTest {

  private static final byte[] KEY = KeySubspace.SCRATCH.pack(Tuple.from("fault", "k"));

  private final FaultInjectingEngine engine = new FaultInjectingEngine(InMemoryEngine.create());
  private final KvStore store = new EngineKvStore(engine);
  private final AtomicInteger attempts = new AtomicInteger();

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void conflictIsRetriedTransparently() {
    engine.failAt(1, Fault.CONFLICT);
    assertThat(write(Idempotence.NOT_IDEMPOTENT, "v")).isEqualTo("done");
    assertThat(attempts).hasValue(2);
    assertThat(read()).isEqualTo("v");
    assertThat(store.stats().conflicts()).isEqualTo(1);
    assertThat(engine.injected()).containsExactly(new Injection(1, Fault.CONFLICT));
  }

  @Test
  void failureBeforeCommitSurfacesAndWritesNothing() {
    engine.failAt(1, Fault.FAILURE_BEFORE_COMMIT);
    assertThatThrownBy(() -> write(Idempotence.IDEMPOTENT, "v"))
        .isInstanceOf(KvStoreFailureException.class);
    assertThat(attempts).hasValue(1);
    assertThat(read()).isNull();
  }

  @Test
  void unknownResultAppliedSurfacesForNonIdempotentBody() {
    engine.failAt(1, Fault.COMMIT_UNKNOWN_APPLIED);
    assertThatThrownBy(() -> write(Idempotence.NOT_IDEMPOTENT, "v"))
        .isInstanceOf(CommitUnknownResultException.class);
    assertThat(attempts).hasValue(1);
    assertThat(read()).as("the commit was applied").isEqualTo("v");
    assertThat(store.stats().commitUnknown()).isEqualTo(1);
  }

  @Test
  void unknownResultNotAppliedSurfacesForNonIdempotentBody() {
    engine.failAt(1, Fault.COMMIT_UNKNOWN_NOT_APPLIED);
    assertThatThrownBy(() -> write(Idempotence.NOT_IDEMPOTENT, "v"))
        .isInstanceOf(CommitUnknownResultException.class);
    assertThat(read()).as("the commit was lost").isNull();
  }

  @Test
  void unknownResultIsRetriedForIdempotentBody() {
    for (Fault fault : List.of(Fault.COMMIT_UNKNOWN_APPLIED, Fault.COMMIT_UNKNOWN_NOT_APPLIED)) {
      attempts.set(0);
      engine.failAt(engine.commitsSeen() + 1, fault);
      assertThat(write(Idempotence.IDEMPOTENT, fault.name())).isEqualTo("done");
      assertThat(attempts).as(fault.name()).hasValue(2);
      assertThat(read()).isEqualTo(fault.name());
    }
  }

  @Test
  void faultFiresAtTheNthReadWriteCommitOnly() {
    engine.failAt(3, Fault.COMMIT_UNKNOWN_NOT_APPLIED);
    write(Idempotence.NOT_IDEMPOTENT, "1");
    read(); // read-only: neither counted nor faulted
    write(Idempotence.NOT_IDEMPOTENT, "2");
    assertThat(engine.commitsSeen()).isEqualTo(2);
    assertThatThrownBy(() -> write(Idempotence.NOT_IDEMPOTENT, "3"))
        .isInstanceOf(CommitUnknownResultException.class);
    write(Idempotence.NOT_IDEMPOTENT, "4");
    assertThat(engine.commitsSeen()).isEqualTo(4);
    assertThat(engine.injected())
        .containsExactly(new Injection(3, Fault.COMMIT_UNKNOWN_NOT_APPLIED));
    assertThat(read()).isEqualTo("4");
  }

  @Test
  void randomFaultsAreReproducibleFromTheSeed() {
    List<Injection> first = randomRun(7, 0.5);
    assertThat(first).isNotEmpty().hasSizeLessThan(40);
    assertThat(randomRun(7, 0.5)).isEqualTo(first);
    assertThat(randomRun(8, 0.5)).isNotEqualTo(first);
    assertThat(randomRun(7, 0.0)).isEmpty();
    assertThat(randomRun(7, 1.0)).hasSize(40);
    assertThat(first)
        .extracting(Injection::fault)
        .containsOnly(Fault.CONFLICT, Fault.FAILURE_BEFORE_COMMIT);
  }

  /**
   * The intended use: walk every commit point of a protocol with every fault and check its
   * invariant. The protocol here adds 1 to a counter three times, each time with a receipt in the
   * same transaction, and resolves an unknown result by reading the receipt.
   */
  @Test
  void everyCommitPointWithEveryFaultKeepsTheReceiptProtocolExact() {
    FaultInjectingEngine dryRun = new FaultInjectingEngine(InMemoryEngine.create());
    try (KvStore clean = new EngineKvStore(dryRun)) {
      assertThat(addThreeTimes(clean)).isEqualTo(3);
    }
    int commitPoints = dryRun.commitsSeen();
    assertThat(commitPoints).isEqualTo(3);
    for (int point = 1; point <= commitPoints; point++) {
      for (Fault fault : Fault.values()) {
        FaultInjectingEngine faulty =
            new FaultInjectingEngine(InMemoryEngine.create()).failAt(point, fault);
        try (KvStore faultyStore = new EngineKvStore(faulty)) {
          assertThat(addThreeTimes(faultyStore))
              .as("fault %s at commit %d", fault, point)
              .isEqualTo(3);
        }
        assertThat(faulty.injected()).containsExactly(new Injection(point, fault));
      }
    }
  }

  private static long addThreeTimes(KvStore store) {
    for (long step = 1; step <= 3; step++) {
      byte[] receipt = KeySubspace.SCRATCH.pack(Tuple.from("receipt", step));
      while (true) {
        try {
          store.run(
              tx -> {
                if (tx.get(receipt) != null) {
                  return null;
                }
                tx.set(counterKey(), Tuple.from(counter(tx.get(counterKey())) + 1).pack());
                tx.set(receipt, new byte[0]);
                return null;
              });
          break;
        } catch (CommitUnknownResultException e) {
          if (store.read(tx -> tx.get(receipt)) != null) {
            break;
          }
        } catch (KvStoreFailureException e) {
          // Nothing was written: try the step again.
        }
      }
    }
    return store.read(tx -> counter(tx.get(counterKey())));
  }

  private static byte[] counterKey() {
    return KeySubspace.SCRATCH.pack(Tuple.from("counter"));
  }

  private static long counter(byte[] value) {
    return value == null ? 0 : Tuple.fromBytes(value).getLong(0);
  }

  /** 40 single-attempt commits under random faults; returns the faults that fired. */
  private static List<Injection> randomRun(long seed, double probability) {
    FaultInjectingEngine random =
        new FaultInjectingEngine(InMemoryEngine.create())
            .failRandomly(
                seed, probability, EnumSet.of(Fault.CONFLICT, Fault.FAILURE_BEFORE_COMMIT));
    try (KvStore s = new EngineKvStore(random, new RetryPolicy(1, Duration.ZERO, Duration.ZERO))) {
      for (int i = 0; i < 40; i++) {
        try {
          s.run(
              tx -> {
                tx.set(KEY, new byte[] {1});
                return null;
              });
        } catch (KvStoreException e) {
          assertThat(e.kind()).isIn(FailureKind.CONFLICT, FailureKind.FAILURE);
        }
      }
      assertThat(random.commitsSeen()).isEqualTo(40);
      return random.injected();
    }
  }

  private String write(Idempotence idempotence, String value) {
    return store.run(
        idempotence,
        tx -> {
          attempts.incrementAndGet();
          tx.set(KEY, value.getBytes(UTF_8));
          return "done";
        });
  }

  private String read() {
    byte[] v = store.read(tx -> tx.get(KEY));
    return v == null ? null : new String(v, UTF_8);
  }
}
