package io.icegate.core.testing;

import io.icegate.core.assembly.CoreServices;
import io.icegate.core.assembly.CoreSettings;
import io.icegate.core.credential.MasterKey;
import io.icegate.core.durability.IdempotencySettings;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.durability.RequestFingerprint;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.repo.ContributionRules;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.engine.EngineKvStore;
import io.icegate.core.store.engine.KvEngine;
import io.icegate.core.store.engine.RetryPolicy;
import io.icegate.core.store.testing.FaultInjectingEngine;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * One store behind a {@link FaultInjectingEngine}, with core's services ({@link CoreServices}:
 * the same assembly the server builds on, so repositories and idempotent creates), a
 * hand-moved clock and a {@link ReplayLedger}: the world a durability scenario runs in. Its
 * {@link #retrying} is the caller's retry, done the way a well-behaved client does it.
 */
public final class FaultWorld implements AutoCloseable {
  /** Short lease, so a test moves the clock past it instead of waiting. */
  public static final IdempotencySettings SETTINGS =
      new IdempotencySettings(Duration.ofSeconds(30), Duration.ofDays(7));
  /** Caller attempts before a scenario counts as stuck. */
  private static final int CALLER_ATTEMPTS = 40;

  public final FaultInjectingEngine faults;
  public final KvStore store;
  public final MutableClock clock = MutableClock.start();
  public final Repositories repos;
  public final IdempotentCreates creates;
  public final ReplayLedger ledger = new ReplayLedger();
  /** The same data without faults: what a fresh process would read afterwards. */
  private final KvStore verifier;
  private final ContributionRules rules;
  private final List<StoredInvariants> invariants;

  private FaultWorld(KvEngine engine, ContributionRules rules,
      List<StoredInvariants> invariants) {
    this.faults = new FaultInjectingEngine(engine);
    this.verifier = new EngineKvStore(engine);
    this.rules = rules;
    this.invariants = invariants;
    // Few backoff sleeps: injected faults are not contention, waiting on them only slows tests.
    this.store = new EngineKvStore(faults,
        new RetryPolicy(100, Duration.ofNanos(100_000), Duration.ofMillis(20)));
    CoreServices services = services(store);
    this.repos = services.repositories();
    this.creates = services.creates();
  }

  /** Core's service graph over {@code over}, with this world's clock, rules and settings. */
  private CoreServices services(KvStore over) {
    return new CoreServices(over, clock, rules,
        CoreSettings.unchecked(MasterKey.of(new byte[32])).withIdempotency(SETTINGS));
  }

  /** A world over the fresh, empty {@code engine}, for core's own scenarios. */
  public static FaultWorld open(KvEngine engine) {
    return new FaultWorld(engine, NoContributions.RULES, List.of());
  }

  /**
   * A world over the fresh, empty {@code engine} whose repositories run {@code rules} and whose
   * checks include {@code invariants}: the scenarios of a module above core (overlay-store's
   * {@code OverlayStore} and {@code ContributionInvariants}).
   */
  public static FaultWorld open(KvEngine engine, ContributionRules rules,
      StoredInvariants invariants) {
    return new FaultWorld(engine, rules, List.of(invariants));
  }

  /**
   * Runs {@code operation} until it answers: retried after every storage failure (conflict
   * exhaustion, failure before commit, unknown result), after COMMIT_STATE_UNKNOWN, and after
   * IDEMPOTENCY_IN_PROGRESS once the clock has moved past the lease (a create that died holding
   * it). Any other rejection is the answer and is thrown.
   */
  public <T> T retrying(Supplier<T> operation) {
    RuntimeException last = null;
    for (int attempt = 0; attempt < CALLER_ATTEMPTS; attempt++) {
      try {
        return operation.get();
      } catch (KvStoreException e) {
        last = e;
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.IDEMPOTENCY_IN_PROGRESS) {
          clock.advance(SETTINGS.lease().plusSeconds(1));
        } else if (e.code() != ErrorCode.COMMIT_STATE_UNKNOWN) {
          throw e;
        }
        last = e;
      }
    }
    throw new AssertionError("operation still failing after " + CALLER_ATTEMPTS + " attempts",
        last);
  }

  /**
   * An idempotent create with the caller's retry; its first definite answer goes to the ledger.
   *
   * @throws IcegateException the create's definite rejection (recorded ones go to the ledger)
   */
  public <S extends ResourceSpec> CreateOutcome<S> createIdempotently(
      ResourceRepository<S> repository, String key, S spec) {
    String fingerprint = RequestFingerprint.of(spec);
    try {
      IdempotentResult<S> result = retrying(
          () -> creates.create(repository, key, fingerprint, spec, OnConflict.ERROR));
      ledger.recordAnswer(repository, key, fingerprint, spec, OnConflict.ERROR, result.outcome());
      return result.outcome();
    } catch (IcegateException e) {
      if (IdempotentCreates.isRecorded(e.code())) {
        ledger.recordRejection(repository, key, fingerprint, spec, OnConflict.ERROR, e.code());
      }
      throw e;
    }
  }

  /**
   * Checks the store after a scenario, bypassing the faults: the {@link InvariantChecker}, then a
   * replay of every ledger entry whose account passes {@code replayAccounts}.
   */
  public void verify(java.util.function.Predicate<String> replayAccounts) {
    checker().assertClean();
    CoreServices clean = services(verifier);
    ledger.assertReplays(clean.repositories(), clean.creates(), replayAccounts);
    checker().assertClean();
  }

  /** The invariant checker over the store without faults. */
  public InvariantChecker checker() {
    InvariantChecker checker = InvariantChecker.of(verifier);
    for (StoredInvariants more : invariants) {
      checker = checker.with(more);
    }
    return checker;
  }

  @Override
  public void close() {
    store.close(); // closes the shared engine; the verifier store holds nothing of its own
  }
}
