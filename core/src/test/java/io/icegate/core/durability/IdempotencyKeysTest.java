package io.icegate.core.durability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.icegate.core.durability.IdempotencyKeys.Answer;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.memory.InMemoryEngine;
import io.icegate.core.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link IdempotencyKeys#run}: operations that commit on their own (the Iceberg routes). */
class IdempotencyKeysTest {
  private static final IdempotencySettings SETTINGS =
      new IdempotencySettings(Duration.ofSeconds(30), Duration.ofHours(1));
  /** Answers are their own record; status 500 is not final. */
  private static final IdempotencyKeys.Answers<Answer> ANSWERS = new IdempotencyKeys.Answers<>() {
    @Override
    public Optional<Answer> toRecord(Answer answer) {
      return answer.status() >= 500 ? Optional.empty() : Optional.of(answer);
    }

    @Override
    public Answer replay(Answer recorded) {
      return new Answer(recorded.status(), "replayed:" + recorded.body());
    }
  };

  private KvStore store;
  private MutableClock clock;
  private IdempotencyKeys keys;
  private final AtomicInteger runs = new AtomicInteger();

  @BeforeEach
  void setUp() {
    store = new EngineKvStore(InMemoryEngine.create());
    clock = MutableClock.start();
    keys = new IdempotencyKeys(store, clock, SETTINGS);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  private Answer run(String key, String fingerprint, Answer answer) {
    return keys.run("acct", "test", key, fingerprint, ANSWERS, () -> {
      runs.incrementAndGet();
      return answer;
    });
  }

  private static void assertCode(Runnable action, ErrorCode code) {
    assertThatThrownBy(action::run).isInstanceOfSatisfying(IcegateException.class,
        e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void finalAnswersAreReplayedAndTheKeyIsBoundToItsRequest() {
    assertThat(run("k", "fp", new Answer(200, "{}"))).isEqualTo(new Answer(200, "{}"));
    assertThat(run("k", "fp", new Answer(200, "other"))).isEqualTo(new Answer(200, "replayed:{}"));
    assertThat(run("r", "fp", new Answer(409, "conflict")).status()).isEqualTo(409);
    assertThat(run("r", "fp", new Answer(200, "{}"))).isEqualTo(
        new Answer(409, "replayed:conflict"));
    assertCode(() -> run("k", "other", new Answer(200, "{}")), ErrorCode.IDEMPOTENCY_KEY_REUSED);
    assertThat(runs).hasValue(2);
  }

  @Test
  void aRunningRequestHoldsItsKeyForItsLease() {
    keys.run("acct", "test", "k", "fp", ANSWERS, () -> {
      assertCode(() -> run("k", "fp", new Answer(200, "{}")), ErrorCode.IDEMPOTENCY_IN_PROGRESS);
      return new Answer(201, "{}");
    });
    assertThat(runs).hasValue(0);
  }

  @Test
  void outcomesThatAreNotRecordedReleaseTheKeyAtOnce() {
    assertThat(run("k", "fp", new Answer(503, "down")).status()).isEqualTo(503);
    assertThatThrownBy(() -> keys.run("acct", "test", "k", "fp", ANSWERS, () -> {
      throw new IcegateException(ErrorCode.STORE_CONTENTION, null);
    })).isInstanceOf(IcegateException.class);
    String huge = "x".repeat(200_000);
    assertThat(run("k", "fp", new Answer(200, huge)).body()).isEqualTo(huge);
    byte[] stored = store.read(tx -> tx.get(recordKey("k")));
    assertThat(stored).isNull();
    assertThat(run("k", "other", new Answer(200, "{}")).body()).isEqualTo("{}");
    assertThat(runs).hasValue(3);
  }

  @Test
  void aClaimLeftByACrashFreesTheKeyWhenItsLeaseLapses() {
    store.run(tx -> {
      tx.set(recordKey("k"), ("{\"fingerprint\":\"fp\",\"holder\":\"dead\",\"leaseExpiresAt\":\""
          + clock.instant().plus(SETTINGS.lease()) + "\",\"receipt\":null}")
          .getBytes(StandardCharsets.UTF_8));
      return null;
    });
    assertCode(() -> run("k", "fp", new Answer(200, "{}")), ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    clock.advance(SETTINGS.lease().plusSeconds(1));
    assertThat(run("k", "another", new Answer(200, "{}")).body()).isEqualTo("{}");
  }

  @Test
  void recordsOfTheIcebergRoutesOldFormatAreRead() {
    long lease = clock.instant().plusSeconds(30).toEpochMilli();
    long lifetime = clock.instant().plus(SETTINGS.receiptLifetime()).toEpochMilli();
    store.run(tx -> {
      tx.set(recordKey("done"), ("{\"fingerprint\":\"fp\",\"expiresAtMillis\":" + lifetime
          + ",\"status\":200,\"body\":\"{\\\"a\\\":1}\"}").getBytes(StandardCharsets.UTF_8));
      tx.set(recordKey("running"), ("{\"fingerprint\":\"fp\",\"expiresAtMillis\":" + lease
          + ",\"status\":0,\"body\":null}").getBytes(StandardCharsets.UTF_8));
      return null;
    });
    assertThat(run("done", "fp", new Answer(201, "new")))
        .isEqualTo(new Answer(200, "replayed:{\"a\":1}"));
    assertCode(() -> run("done", "x", new Answer(201, "new")), ErrorCode.IDEMPOTENCY_KEY_REUSED);
    assertCode(() -> run("running", "fp", new Answer(201, "new")),
        ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    clock.advance(SETTINGS.lease().plusSeconds(1));
    assertThat(run("running", "fp", new Answer(201, "new")).body()).isEqualTo("new");
    clock.advance(SETTINGS.receiptLifetime());
    assertThat(run("done", "x", new Answer(201, "again")).body()).isEqualTo("again");
    assertThat(runs).hasValue(2);
  }

  @Test
  void keysAreValidated() {
    assertCode(() -> run("", "fp", new Answer(200, "{}")), ErrorCode.INVALID_ARGUMENT);
    assertCode(() -> run("k".repeat(256), "fp", new Answer(200, "{}")),
        ErrorCode.INVALID_ARGUMENT);
    assertCode(() -> run("a\nb", "fp", new Answer(200, "{}")), ErrorCode.INVALID_ARGUMENT);
  }

  private static byte[] recordKey(String key) {
    return KeyLayout.receipt("acct", "test", key);
  }
}
