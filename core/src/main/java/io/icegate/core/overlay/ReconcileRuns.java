package io.icegate.core.overlay;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One reconcile at a time per Overlay (issue 8, seed 000 "Reconciliation publication"): the run
 * record under {@link KeyLayout#RUNS}. A run takes the next run generation in one transaction;
 * every transaction the run publishes in asserts that generation is still current ({@link
 * #assertCurrent}), so a newer run supersedes an older one at its next publication.
 *
 * <p>A running record holds a lease. A second run is refused while the lease lasts (its holder is
 * presumed alive); once it lapses the holder is presumed dead and a new run may start, which makes
 * the dead one's generation stale. The holder extends its lease inside its own publication
 * transactions ({@link #renew}), which write anyway. Thread-safe.
 */
public final class ReconcileRuns {

  /** A run's state in its record. */
  public enum State { RUNNING, SUCCEEDED, FAILED }

  /**
   * The stored run record.
   *
   * @param generation the run generation (1 for the Overlay's first run)
   * @param state RUNNING until the run ends
   * @param operationId the operation the run belongs to (what an asynchronous request joins)
   * @param startedAtMillis epoch milliseconds of the start
   * @param leaseExpiresAtMillis epoch milliseconds after which a RUNNING record is presumed dead
   */
  public record Run(long generation, State state, String operationId, long startedAtMillis,
      long leaseExpiresAtMillis) {
    public Run {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(operationId, "operationId");
    }
  }

  /** What {@link #start} found: a new run, or the live run that holds the Overlay. */
  public sealed interface Start permits Started, Busy {}

  /** The caller now holds run {@code run}. */
  public record Started(Run run) implements Start {}

  /** Another run holds the Overlay; {@code run} is it. */
  public record Busy(Run run) implements Start {}

  private final KvStore store;
  private final Clock clock;
  private final Duration lease;

  /**
   * @param lease how long a running record blocks others without being renewed
   */
  public ReconcileRuns(KvStore store, Clock clock, Duration lease) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = Objects.requireNonNull(lease, "lease");
  }

  /**
   * Takes the next run generation of {@code overlayId} for {@code operationId}, in one
   * transaction (idempotent on an unknown commit: a retry that finds its own operation's record
   * reports it as started).
   *
   * @return {@link Started} with the new run, or {@link Busy} when a run with a live lease holds
   *     the Overlay
   */
  public Start start(String accountId, String overlayId, String operationId) {
    return store.run(io.icegate.core.store.Idempotence.IDEMPOTENT, tx -> {
      long now = clock.millis();
      Optional<Run> current = read(tx, accountId, overlayId);
      if (current.isPresent()) {
        Run run = current.get();
        if (run.operationId().equals(operationId) && run.state() == State.RUNNING) {
          return new Started(run); // our own earlier attempt committed
        }
        if (run.state() == State.RUNNING && run.leaseExpiresAtMillis() > now) {
          return new Busy(run);
        }
      }
      long generation = current.map(Run::generation).orElse(0L) + 1;
      Run started = new Run(generation, State.RUNNING, operationId, now, now + lease.toMillis());
      write(tx, accountId, overlayId, started);
      return new Started(started);
    });
  }

  /** The run record of {@code overlayId}, if it ever ran. */
  public Optional<Run> read(ReadTransaction tx, String accountId, String overlayId) {
    byte[] bytes = tx.get(KeyLayout.run(accountId, overlayId));
    if (bytes == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ModelJson.mapper().readValue(bytes, Run.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Fails unless run {@code generation} is still the Overlay's current, running one.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED
   */
  public void assertCurrent(ReadTransaction tx, String accountId, String overlayId,
      long generation) {
    Optional<Run> run = read(tx, accountId, overlayId);
    if (run.isEmpty() || run.get().generation() != generation
        || run.get().state() != State.RUNNING) {
      throw new IcegateException(ErrorCode.RECONCILE_SUPERSEDED, ResourceKind.OVERLAY,
          "a newer reconcile of overlay " + overlayId + " started");
    }
  }

  /** Extends the lease of the current run, inside a transaction that asserted it is current. */
  public void renew(Transaction tx, String accountId, String overlayId, Run run) {
    long now = clock.millis();
    write(tx, accountId, overlayId, new Run(run.generation(), State.RUNNING, run.operationId(),
        run.startedAtMillis(), now + lease.toMillis()));
  }

  /**
   * Records the end of run {@code run} when it is still the current one (a superseded run leaves
   * the newer record alone). Idempotent.
   */
  public void finish(String accountId, String overlayId, Run run, boolean succeeded) {
    store.run(io.icegate.core.store.Idempotence.IDEMPOTENT, tx -> {
      Optional<Run> current = read(tx, accountId, overlayId);
      if (current.isPresent() && current.get().generation() == run.generation()
          && current.get().state() == State.RUNNING) {
        write(tx, accountId, overlayId, new Run(run.generation(),
            succeeded ? State.SUCCEEDED : State.FAILED, run.operationId(), run.startedAtMillis(),
            current.get().leaseExpiresAtMillis()));
      }
      return null;
    });
  }

  private static void write(Transaction tx, String accountId, String overlayId, Run run) {
    try {
      tx.set(KeyLayout.run(accountId, overlayId), ModelJson.mapper().writeValueAsBytes(run));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
