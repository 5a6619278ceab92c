package io.icegate.core.overlay;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
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
 * The run record of an Overlay under {@link KeySubspace#RUNS}: which reconcile run may publish
 * (issue 8 "One run at a time per Overlay", seed 000 "Refresh and reconciliation ownership").
 *
 * <p><b>Start writes nothing.</b> {@link #start} only reads: it notes the generation of the
 * record it observes ({@code G}, 0 when the Overlay never recorded a run) and the start time from
 * this instance's clock, and refuses ({@link Busy}) while a RUNNING record's lease lives. A run
 * writes its record lazily, in its first publishing transaction ({@link #record}, called inside
 * the same fenced transaction as the publication): generation {@code G'+1}, RUNNING, a lease, its
 * start time and operation id, where {@code G'} is the generation it then finds. It may take that
 * generation only when the record it finds
 *
 * <ul>
 *   <li>still shows {@code G} (no run recorded since this one started), or
 *   <li>shows a run that started strictly before this one (an older run: this newer one
 *       supersedes it, and the older one's next fenced transaction fails).
 * </ul>
 *
 * A record of a run that started at or after this one's start means this run is superseded
 * (RECONCILE_SUPERSEDED). Once its record is written, each later transaction of the run asserts
 * the record is still its own (same operation id and start) and renews the lease. So the newer
 * start wins, and an older run can never publish once a newer run has published. Ordering is by
 * start time on the server clock; across processes it is only as good as their clocks agree.
 *
 * <p>A run that changes nothing never writes: its record, its end and its generation leave no
 * trace, and {@link #finish} commits no transaction. Consequently two processes' runs that both
 * change nothing leave no trace, and a run elsewhere that has not yet published does not block a
 * start here: the refusal of overlapping runs is this record's live lease once it exists, plus
 * whatever in-memory registry the caller keeps within its process.
 *
 * <p>A RUNNING record whose lease lapsed no longer blocks a start: its holder is presumed dead
 * (or too slow), and the newer run supersedes it at its first publication. The holder keeps its
 * lease alive between publications with {@link #renew} (the caller's heartbeat), so the lease can
 * be short. A start may also take over a RUNNING record whose lease lives when the caller knows
 * that holder ended ({@link #start(ReadTransaction, String, String, String, String)}, e.g. its
 * operation was answered interrupted); the takeover is the same as after a lapsed lease. Either
 * way the holder, should it still run, fails its next fenced transaction once the newer run has
 * written its record. Thread-safe.
 */
public final class ReconcileRuns {

  /** A run's state in its record. */
  public enum State { RUNNING, SUCCEEDED, FAILED }

  /**
   * The stored run record.
   *
   * @param generation the run generation (1 for the Overlay's first run that published)
   * @param state RUNNING until the run ends
   * @param operationId the operation the run belongs to (what an asynchronous request joins)
   * @param startedAtMillis epoch milliseconds of the run's start (not of its first write)
   * @param leaseExpiresAtMillis epoch milliseconds after which a RUNNING record is presumed dead
   */
  public record Run(long generation, State state, String operationId, long startedAtMillis,
      long leaseExpiresAtMillis) {
    public Run {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(operationId, "operationId");
    }
  }

  /**
   * What a started run carries from {@link #start} to {@link #finish}: what it observed and when
   * it started, and the generation it wrote once it did. Used by one run at a time; safe to hand
   * to another thread.
   */
  public static final class Ticket {
    private final String accountId;
    private final String overlayId;
    private final String operationId;
    private final long observedGeneration;
    private final long startedAtMillis;
    // Set inside the closure of a transaction that may still fail to commit: a hint for finish
    // and the report, never a fact the fence relies on (it re-reads the record every time).
    private volatile long writtenGeneration;

    Ticket(String accountId, String overlayId, String operationId, long observedGeneration,
        long startedAtMillis) {
      this.accountId = Objects.requireNonNull(accountId, "accountId");
      this.overlayId = Objects.requireNonNull(overlayId, "overlayId");
      this.operationId = Objects.requireNonNull(operationId, "operationId");
      this.observedGeneration = observedGeneration;
      this.startedAtMillis = startedAtMillis;
    }

    public String accountId() {
      return accountId;
    }

    public String overlayId() {
      return overlayId;
    }

    public String operationId() {
      return operationId;
    }

    /** The generation of the record observed at start; 0 when there was none. */
    public long observedGeneration() {
      return observedGeneration;
    }

    /** Epoch milliseconds of the start, from the {@link ReconcileRuns} clock. */
    public long startedAtMillis() {
      return startedAtMillis;
    }

    /** Whether the run attempted to write its record (a committed write is not guaranteed). */
    public boolean wroteRecord() {
      return writtenGeneration != 0;
    }

    /**
     * The generation the run recorded, or, for a run that wrote nothing, the observed one (the
     * last recorded run's, 0 if none).
     */
    public long generation() {
      long written = writtenGeneration;
      return written != 0 ? written : observedGeneration;
    }

    @Override
    public String toString() {
      return "Ticket[overlay=" + overlayId + ", operation=" + operationId + ", observed="
          + observedGeneration + ", startedAt=" + startedAtMillis + "]";
    }
  }

  /** What {@link #start} found: a run may begin, or a live run holds the Overlay. */
  public sealed interface Start permits Started, Busy {}

  /** The caller may run, carrying {@code ticket}. */
  public record Started(Ticket ticket) implements Start {}

  /** A live run holds the Overlay; {@code operationId} is its operation. */
  public record Busy(String operationId) implements Start {}

  private final KvStore store;
  private final Clock clock;
  private final Duration lease;

  /**
   * @param clock the server clock: start times order runs, leases expire by it
   * @param lease how long a RUNNING record blocks others without being renewed
   */
  public ReconcileRuns(KvStore store, Clock clock, Duration lease) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = Objects.requireNonNull(lease, "lease");
  }

  /**
   * Observes the run record of {@code overlayId} in {@code tx}, writing nothing.
   *
   * @return {@link Busy} naming the holder's operation when a RUNNING record's lease lives,
   *     otherwise {@link Started} with a ticket noting the observed generation and the start time
   */
  public Start start(ReadTransaction tx, String accountId, String overlayId, String operationId) {
    return start(tx, accountId, overlayId, operationId, null);
  }

  /**
   * As {@link #start(ReadTransaction, String, String, String)}, except that a RUNNING record of
   * operation {@code endedHolder} does not block even while its lease lives: the caller knows that
   * operation ended (its process died, or it finished without recording its end here). The start
   * then proceeds exactly as over a lapsed lease: it observes the holder's generation and takes the
   * next one at its first publication, which fences the holder out.
   *
   * @param endedHolder an operation id the caller knows ended, or {@code null}
   */
  public Start start(ReadTransaction tx, String accountId, String overlayId, String operationId,
      String endedHolder) {
    long now = clock.millis();
    Optional<Run> current = read(tx, accountId, overlayId);
    if (current.isPresent() && current.get().state() == State.RUNNING
        && current.get().leaseExpiresAtMillis() > now
        && !current.get().operationId().equals(endedHolder)) {
      return new Busy(current.get().operationId());
    }
    return new Started(new Ticket(accountId, overlayId, operationId,
        current.map(Run::generation).orElse(0L), now));
  }

  /** The run record of {@code overlayId}, if a run ever wrote it. */
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
   * Fails unless run {@code ticket} may still publish (see the class comment), writing nothing.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED
   */
  public void assertCurrent(ReadTransaction tx, Ticket ticket) {
    generationToWrite(read(tx, ticket.accountId(), ticket.overlayId()), ticket);
  }

  /**
   * {@link #assertCurrent}, then writes the run's record in {@code tx}, a transaction that
   * publishes: the first time it takes the next generation (superseding an older run), later it
   * renews the lease. Safe to repeat when {@code tx} is retried after an unknown commit result.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED
   */
  public void record(Transaction tx, Ticket ticket) {
    long generation = generationToWrite(read(tx, ticket.accountId(), ticket.overlayId()), ticket);
    write(tx, ticket.accountId(), ticket.overlayId(), leased(ticket, generation));
    ticket.writtenGeneration = generation;
  }

  /**
   * Renews the lease of run {@code ticket} in its own transaction, if its record is still its own
   * and RUNNING (it never revives an ended record nor touches a newer run's); the heartbeat of a
   * run between publications. Commits nothing for a run that has not written its record.
   *
   * @return whether the lease was renewed
   */
  public boolean renew(Ticket ticket) {
    if (!ticket.wroteRecord()) {
      return false;
    }
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      Optional<Run> current = read(tx, ticket.accountId(), ticket.overlayId());
      if (current.isEmpty() || !isOwn(current.get(), ticket)
          || current.get().state() != State.RUNNING) {
        return false;
      }
      write(tx, ticket.accountId(), ticket.overlayId(), leased(ticket, current.get().generation()));
      return true;
    });
  }

  /** How long a RUNNING record blocks others after its last write or renewal. */
  public Duration lease() {
    return lease;
  }

  /**
   * Records the end of run {@code ticket} if its record is still the current one. Commits no
   * transaction at all when the run never wrote its record (it leaves no trace); leaves a newer
   * run's record alone. Idempotent.
   */
  public void finish(Ticket ticket, boolean succeeded) {
    if (!ticket.wroteRecord()) {
      return;
    }
    store.run(Idempotence.IDEMPOTENT, tx -> {
      if (tx.get(KeyLayout.resource(new ResourceRef(ticket.accountId(), ResourceKind.OVERLAY,
          ticket.overlayId()))) == null) {
        // Deleted meanwhile (its delete or its Integration's cascade, found by issue 22's fence
        // sweep): the run wrote nothing since, and its end is not written under a gone Overlay.
        return null;
      }
      Optional<Run> current = read(tx, ticket.accountId(), ticket.overlayId());
      if (current.isPresent() && isOwn(current.get(), ticket)
          && current.get().state() == State.RUNNING) {
        Run run = current.get();
        write(tx, ticket.accountId(), ticket.overlayId(), new Run(run.generation(),
            succeeded ? State.SUCCEEDED : State.FAILED, run.operationId(),
            run.startedAtMillis(), run.leaseExpiresAtMillis()));
      }
      return null;
    });
  }

  /**
   * The generation run {@code ticket} holds or may take given the record {@code current}. Decided
   * from the stored record alone (not from the ticket's write hint), so a transaction retried
   * after a commit that did or did not apply decides right either way.
   */
  private static long generationToWrite(Optional<Run> current, Ticket ticket) {
    if (current.isEmpty()) {
      if (ticket.observedGeneration() == 0) {
        return 1;
      }
      throw superseded(ticket); // a record it observed is gone: not the world it started in
    }
    Run run = current.get();
    if (isOwn(run, ticket)) {
      if (run.state() != State.RUNNING) {
        throw superseded(ticket);
      }
      return run.generation();
    }
    if (run.generation() == ticket.observedGeneration()
        || run.startedAtMillis() < ticket.startedAtMillis()) {
      return run.generation() + 1;
    }
    throw superseded(ticket);
  }

  /** The RUNNING record of run {@code ticket} at {@code generation}, leased from now. */
  private Run leased(Ticket ticket, long generation) {
    return new Run(generation, State.RUNNING, ticket.operationId(), ticket.startedAtMillis(),
        clock.millis() + lease.toMillis());
  }

  private static boolean isOwn(Run run, Ticket ticket) {
    return run.operationId().equals(ticket.operationId())
        && run.startedAtMillis() == ticket.startedAtMillis();
  }

  private static IcegateException superseded(Ticket ticket) {
    return new IcegateException(ErrorCode.RECONCILE_SUPERSEDED, ResourceKind.OVERLAY,
        "a newer reconcile of overlay " + ticket.overlayId() + " started");
  }

  private static void write(Transaction tx, String accountId, String overlayId, Run run) {
    try {
      tx.set(KeyLayout.run(accountId, overlayId), ModelJson.mapper().writeValueAsBytes(run));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
