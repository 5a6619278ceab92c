package io.icegate.overlay.reconcile;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.ManualRuns;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.overlay.discovery.SharedDiscovery;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles synchronously or as asynchronous operations ({@code Prefer: respond-async}). An
 * asynchronous request begins its run on the caller's thread (so "already running" is decided at
 * once, by the reconciler's registry in this process or a live run record from another), stores
 * the operation, and runs the phases on a small executor. A second asynchronous request while a
 * run holds the Overlay joins that run's operation; when the holder is a synchronous run (which
 * has no operation) it is refused with RECONCILE_IN_PROGRESS. Unlike a synchronous run, an
 * asynchronous one always writes: its operation record, at start and end.
 *
 * <p>Operations are stored ({@link OperationRecords}) at start, at each phase change (one small
 * write, so a run that dies early still shows how far it got) and at end, and held in memory
 * while they run, so {@link #get} shows live phase and counts here and the final state anywhere.
 * A job's run ({@link #runAttached}) is stored lazily instead: from the first phase change or
 * heartbeat after its first publication, or when another request joins it, so a scheduled run
 * that changes nothing leaves no operation record (issue 28's idle cost).
 *
 * <p><b>Heartbeat and takeover</b> (issue 8, "Async form and progress"). While this process runs
 * an operation, one scheduled task re-stores its record (phase and counts so far) every {@code
 * heartbeat}, stamping {@code updatedAtMillis}; it only replaces a record that still says RUNNING,
 * so it never revives one that ended or was declared interrupted. A failed heartbeat is a WARN
 * line, not a failed run. Any process (several gateways may share one store) that reads a RUNNING
 * record it does not run itself, not stored for longer than {@code staleAfter}, answers it FAILED
 * with {@link ErrorCode#RECONCILE_INTERRUPTED} and stores that answer (compare-and-set on the
 * record it read, so it is stable and two readers agree). The rule trusts the clocks of the
 * processes to agree within {@code staleAfter} minus {@code heartbeat}. A run presumed dead that
 * was only stalled (e.g. the store unreachable longer than the bound) and then ends stores its
 * real end over the presumption: its outcome is a fact, the presumption was not.
 *
 * <p><b>The Overlay of a dead run.</b> The same heartbeat renews the run-record lease of every
 * run the reconciler holds, synchronous ones included ({@link Reconciler#renewLeases}), so the
 * lease can be short ({@link ReconcileSettings#DEFAULT_LEASE}, required longer than {@code
 * staleAfter}): a live run keeps it whatever it waits for, a dead one stops renewing and its
 * record stops blocking within one lease. Sooner still, a start here that finds the Overlay held
 * by another process's operation which has ended (answered interrupted by the rule above, or
 * finished without its end in the run record) takes over at once ({@link
 * Reconciler#begin(String, String, String, java.util.function.Predicate)}): the new run fences
 * the old one out at its first publication, exactly as after a lapsed lease. A holder that still
 * stores its heartbeat is never taken over. Closing stops the executor and the heartbeat; a run
 * cut short by a close may stay RUNNING in its record until a reader finds it stale.
 */
public final class ReconcileOperations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcileOperations.class);

  /** How often a running operation's record is re-stored by default. */
  public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);

  /** How long a RUNNING record may go unstored before it is presumed dead, by default. */
  public static final Duration DEFAULT_STALE_AFTER = DEFAULT_HEARTBEAT.multipliedBy(3);

  /** An operation this process runs. */
  private static final class Live {
    final String accountId;
    final String overlayId;
    final ReconcileProgress progress;
    final long startedAtMillis;
    volatile long storedAtMillis;
    // Guarded by this: once set, no heartbeat stores the record again (the end is stored next).
    boolean ended;
    // A job's run (runAttached) is stored lazily: only once it has written its run record
    // (published something) or another request joined it. Null for an operation stored at start.
    final ReconcileRuns.Ticket lazyTicket;
    // Guarded by this: whether the record exists in the store; the end of a run that ended
    // unstored, for a request that joins it in the instant before it leaves.
    boolean stored;
    ReconcileOperation unstoredEnd;

    /** @param onPhase told on the run's thread when the run enters a phase before DONE */
    Live(String accountId, String overlayId, long startedAtMillis, Consumer<Live> onPhase) {
      this(accountId, overlayId, startedAtMillis, onPhase, null);
    }

    /** @param lazyTicket the run's ticket when its record is stored lazily, else null */
    Live(String accountId, String overlayId, long startedAtMillis, Consumer<Live> onPhase,
        ReconcileRuns.Ticket lazyTicket) {
      this.lazyTicket = lazyTicket;
      this.stored = lazyTicket == null;
      this.accountId = accountId;
      this.overlayId = overlayId;
      // DONE is not stored: the end, stored right after it, says more.
      this.progress = new ReconcileProgress(phase -> {
        if (phase != ReconcileProgress.Phase.DONE) {
          onPhase.accept(this);
        }
      });
      this.startedAtMillis = startedAtMillis;
      this.storedAtMillis = startedAtMillis;
    }
  }

  private final Reconciler reconciler;
  private final OperationRecords records;
  private final Clock clock;
  private final long staleAfterMillis;
  private final ExecutorService executor;
  private final ScheduledExecutorService heartbeat;
  private final Map<String, Live> live = new ConcurrentHashMap<>();

  /**
   * Operations with the default heartbeat ({@link #DEFAULT_HEARTBEAT}) and staleness bound
   * ({@link #DEFAULT_STALE_AFTER}).
   *
   * @param threads asynchronous runs in flight at once in this process
   */
  public ReconcileOperations(Reconciler reconciler, OperationRecords records, Clock clock,
      int threads) {
    this(reconciler, records, clock, threads, DEFAULT_HEARTBEAT, DEFAULT_STALE_AFTER);
  }

  /**
   * @param threads asynchronous runs in flight at once in this process
   * @param heartbeat how often the record of each running operation is re-stored (wall time)
   * @param staleAfter how long a RUNNING record not run here may go unstored (by {@code clock})
   *     before it is answered as interrupted; longer than {@code heartbeat}, several times it
   *     so one slow or failed heartbeat does not condemn a live run
   * @throws IllegalArgumentException when {@code heartbeat} is not positive, {@code
   *     staleAfter} is not longer than it, or the reconciler's run lease is not longer than
   *     {@code staleAfter} (an operation still counted alive must also hold its Overlay)
   */
  public ReconcileOperations(Reconciler reconciler, OperationRecords records, Clock clock,
      int threads, Duration heartbeat, Duration staleAfter) {
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    this.records = Objects.requireNonNull(records, "records");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (heartbeat.isNegative() || heartbeat.isZero() || staleAfter.compareTo(heartbeat) <= 0) {
      throw new IllegalArgumentException("heartbeat " + heartbeat + " must be positive and "
          + "shorter than staleAfter " + staleAfter);
    }
    if (reconciler.runs().lease().compareTo(staleAfter) <= 0) {
      throw new IllegalArgumentException("the run lease " + reconciler.runs().lease()
          + " must be longer than staleAfter " + staleAfter);
    }
    this.staleAfterMillis = staleAfter.toMillis();
    this.executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "reconcile-operation");
      t.setDaemon(true);
      return t;
    });
    this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "reconcile-operation-heartbeat");
      t.setDaemon(true);
      return t;
    });
    long period = heartbeat.toMillis();
    this.heartbeat.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * A synchronous run; see {@link Reconciler#reconcile}. Takes over from a holder whose operation
   * has ended, as {@link #submit} does.
   */
  public ReconcileReport reconcile(String accountId, String overlayId) {
    return reconcile(accountId, overlayId, MassRetirement.REFUSED);
  }

  /** A synchronous run that may retire everything when {@code retirement} confirms it. */
  public ReconcileReport reconcile(String accountId, String overlayId,
      MassRetirement retirement) {
    long started = clock.millis();
    ReconcileReport report = reconciler.reconcile(accountId, overlayId, retirement,
        holder -> ended(accountId, holder));
    ManualRuns.succeeded(reconciler.repositories(), accountId, overlayId, started,
        clock.millis()); // its schedule's backoff and last error end now (issue 28)
    return report;
  }

  /**
   * Starts an asynchronous run, or joins the one holding the Overlay. A holder in another
   * process whose operation has ended (see {@link #get}: answered interrupted once it was not
   * stored for {@code staleAfter}) is taken over instead of joined.
   *
   * @return the operation (RUNNING, or already finished when joined late)
   * @throws IcegateException NOT_FOUND, RECONCILE_IN_PROGRESS (a synchronous run holds it)
   */
  public ReconcileOperation submit(String accountId, String overlayId) {
    return submit(accountId, overlayId, MassRetirement.REFUSED);
  }

  /**
   * As {@link #submit(String, String)}, the run allowed to retire everything when {@code
   * retirement} confirms it (a joined run keeps the choice it was started with).
   */
  public ReconcileOperation submit(String accountId, String overlayId,
      MassRetirement retirement) {
    String id = UUID.randomUUID().toString();
    ReconcileRuns.Start start =
        reconciler.begin(accountId, overlayId, id, holder -> ended(accountId, holder));
    if (start instanceof ReconcileRuns.Busy busy) {
      Live joined = live.get(busy.operationId());
      if (joined != null) {
        store(busy.operationId(), joined, true); // a job's run not yet stored: now it is asked
      }
      return get(accountId, busy.operationId()).orElseThrow(() -> new IcegateException(
          ErrorCode.RECONCILE_IN_PROGRESS, ResourceKind.OVERLAY, overlayId));
    }
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    Live entry = new Live(accountId, overlayId, clock.millis(), live -> store(id, live));
    live.put(id, entry);
    try {
      Reconciler.Handle handle = reconciler.handle(accountId, overlayId, ticket).with(retirement);
      records.put(accountId, id, snapshot(id, entry, entry.storedAtMillis));
      executor.execute(() -> run(id, entry, handle));
    } catch (RuntimeException e) {
      live.remove(id);
      reconciler.release(ticket);
      throw e;
    }
    return snapshot(id, entry, entry.storedAtMillis);
  }

  /**
   * Operation {@code operationId} of {@code accountId}, if known: live here, else as stored; a
   * stored RUNNING record not run here and not stored for longer than {@code staleAfter} is
   * answered (and stored) FAILED with {@link ErrorCode#RECONCILE_INTERRUPTED}.
   */
  public Optional<ReconcileOperation> get(String accountId, String operationId) {
    Live entry = live.get(operationId);
    if (entry != null && entry.accountId.equals(accountId)) {
      return Optional.of(snapshot(operationId, entry, entry.storedAtMillis));
    }
    // Not live here: submit makes an entry live before storing it, and a run stores its end
    // before it leaves, so a RUNNING record read now is another process's (or an orphan's).
    Optional<ReconcileOperation> stored = records.get(accountId, operationId)
        .map(ReconcileOperations::parse);
    if (stored.isEmpty() || stored.get().state() != ReconcileOperation.State.RUNNING
        || clock.millis() - lastStored(stored.get()) <= staleAfterMillis) {
      return stored;
    }
    return Optional.of(interrupted(accountId, stored.get()));
  }

  /**
   * Whether operation {@code operationId}, named as the holder of an Overlay by its run record,
   * has ended: its record (as {@link #get} answers it, so a stale one counts as interrupted)
   * exists and is no longer RUNNING. An operation run here is never ended while it runs; one
   * never stored (a synchronous run's) is not known to have ended.
   */
  private boolean ended(String accountId, String operationId) {
    return get(accountId, operationId)
        .map(op -> op.state() != ReconcileOperation.State.RUNNING).orElse(false);
  }

  /**
   * Answers the stale RUNNING record {@code running} as interrupted and stores that answer if
   * the record is still the one read; if it changed meanwhile (its run stored a heartbeat or its
   * end, or another reader stored the same verdict), what is stored now is the answer.
   */
  private ReconcileOperation interrupted(String accountId, ReconcileOperation running) {
    long lastStored = lastStored(running);
    ReconcileOperation failed = new ReconcileOperation(running.id(), running.overlayId(),
        ReconcileOperation.State.FAILED, running.phase(), running.counts(), null,
        new ReconcileOperation.Problem(ErrorCode.RECONCILE_INTERRUPTED.name(),
            ErrorCode.RECONCILE_INTERRUPTED.httpStatus(),
            ErrorCode.RECONCILE_INTERRUPTED.format(running.id(), running.overlayId()), null),
        running.startedAtMillis(), lastStored, clock.millis());
    try {
      if (records.replaceIf(accountId, running.id(),
          json -> isRunning(json) && lastStored(parse(json)) == lastStored, failed)) {
        LOG.warn("reconcile operation {} of overlay {} was not stored for {} ms: answered as "
            + "interrupted", running.id(), running.overlayId(), clock.millis() - lastStored);
        return failed;
      }
      return records.get(accountId, running.id()).map(ReconcileOperations::parse)
          .orElse(failed);
    } catch (RuntimeException e) {
      // The verdict follows from the stored record alone, so the next read reaches it again.
      LOG.warn("storing the interruption of reconcile operation {} failed: {}", running.id(),
          e.getClass().getName());
      return failed;
    }
  }

  /**
   * One heartbeat: re-stores the record of every operation this process runs, then renews the
   * run-record lease of every run the reconciler holds. Nothing escapes: an exception would
   * cancel every later beat.
   */
  private void beat() {
    for (Map.Entry<String, Live> e : live.entrySet()) {
      store(e.getKey(), e.getValue());
    }
    try {
      reconciler.renewLeases();
    } catch (RuntimeException ex) {
      LOG.warn("renewing reconcile run leases failed: {}", ex.getClass().getName());
    }
  }

  /**
   * Re-stores the RUNNING record of operation {@code id} with its phase and counts so far, only
   * over a record still RUNNING and not after its run ended; a failure is a WARN line.
   */
  private void store(String id, Live entry) {
    store(id, entry, false);
  }

  /**
   * As {@link #store(String, Live)}; a lazily stored operation not stored yet is created when its
   * run has written its run record (other processes can then find it named there) or {@code
   * asked}, and otherwise left unstored.
   */
  private void store(String id, Live entry, boolean asked) {
    synchronized (entry) {
      if (entry.ended) {
        if (asked && entry.unstoredEnd != null) {
          records.put(entry.accountId, id, entry.unstoredEnd);
          entry.stored = true;
          entry.unstoredEnd = null;
        }
        return;
      }
      try {
        long now = clock.millis();
        if (!entry.stored) {
          if (asked || entry.lazyTicket.wroteRecord()) {
            records.put(entry.accountId, id, snapshot(id, entry, now));
            entry.stored = true;
            entry.storedAtMillis = now;
          }
          return;
        }
        if (records.replaceIf(entry.accountId, id, ReconcileOperations::isRunning,
            snapshot(id, entry, now))) {
          entry.storedAtMillis = now;
        }
      } catch (RuntimeException ex) {
        LOG.warn("storing the progress of reconcile operation {} failed: {}", id,
            ex.getClass().getName());
      }
    }
  }

  private static boolean isRunning(JsonNode json) {
    return ReconcileOperation.State.RUNNING.name().equals(json.path("state").asText());
  }

  private static long lastStored(ReconcileOperation operation) {
    return operation.updatedAtMillis() != null ? operation.updatedAtMillis()
        : operation.startedAtMillis();
  }

  private static ReconcileOperation parse(JsonNode json) {
    try {
      return ModelJson.mapper().treeToValue(json, ReconcileOperation.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What {@link #runAttached} did: ran the Overlay's reconcile as an operation, or found a run
   * already holding the Overlay (which then does the work; its operation is the one to watch).
   */
  public sealed interface Attached permits Joined, Ran {}

  /** A run already held the Overlay: operation {@code operationId} (absent for a synchronous). */
  public record Joined(String operationId) implements Attached {}

  /** The attached run ended as {@code operation} says. */
  public record Ran(ReconcileOperation operation) implements Attached {}

  /**
   * Reconciles Overlay {@code overlayId} as an operation run on the caller's thread, every fenced
   * transaction of the run also asserting {@code guard}: how an upstream job publishes into each
   * of its Overlays (issue 27). The operation is stored, heartbeaten and joinable exactly like one
   * {@link #submit} started, so an asynchronous reconcile requested meanwhile joins it and reports
   * its progress. Scheduled runs never confirm a mass retirement.
   *
   * @return {@link Joined} when a run already holds the Overlay (by the run-record rules), else
   *     {@link Ran} with the ended operation
   * @throws IcegateException NOT_FOUND, FENCED (the account is being deleted)
   */
  public Attached runAttached(String accountId, String overlayId, RunGuard guard) {
    return runAttached(accountId, overlayId, guard, null);
  }

  /**
   * As {@link #runAttached(String, String, RunGuard)}, discovering through {@code discovery}:
   * the upstream reads of the job's round, shared by its Overlays (issue 28).
   *
   * @param discovery the round's shared reads, or {@code null} for a session of the run's own
   */
  public Attached runAttached(String accountId, String overlayId, RunGuard guard,
      SharedDiscovery discovery) {
    String id = UUID.randomUUID().toString();
    ReconcileRuns.Start start =
        reconciler.begin(accountId, overlayId, id, holder -> ended(accountId, holder));
    if (start instanceof ReconcileRuns.Busy busy) {
      return new Joined(busy.operationId());
    }
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    // Stored lazily (issue 28's idle cost): a job's run that changes nothing leaves no record.
    Live entry = new Live(accountId, overlayId, clock.millis(), live -> store(id, live), ticket);
    live.put(id, entry);
    Reconciler.Handle handle;
    try {
      handle = reconciler.handle(accountId, overlayId, ticket).with(guard).with(discovery);
    } catch (RuntimeException e) {
      live.remove(id);
      reconciler.release(ticket);
      throw e;
    }
    return new Ran(run(id, entry, handle));
  }

  /** Runs the phases of operation {@code id} and stores its end; returns that end. */
  private ReconcileOperation run(String id, Live entry, Reconciler.Handle handle) {
    ReconcileOperation done;
    try {
      ReconcileReport report = reconciler.execute(handle, entry.progress);
      done = finished(id, entry, ReconcileOperation.State.SUCCEEDED, report, null);
    } catch (IcegateException e) {
      done = finished(id, entry, ReconcileOperation.State.FAILED, null,
          new ReconcileOperation.Problem(e.code().name(), e.httpStatus(), e.getMessage(),
              e.details()));
    } catch (RuntimeException e) {
      LOG.error("reconcile operation {} of overlay {} failed: {}", id, entry.overlayId,
          e.getClass().getName());
      done = finished(id, entry, ReconcileOperation.State.FAILED, null,
          new ReconcileOperation.Problem(ErrorCode.INTERNAL.name(),
              ErrorCode.INTERNAL.httpStatus(), ErrorCode.INTERNAL.format(), null));
    }
    if (entry.lazyTicket == null && done.state() == ReconcileOperation.State.SUCCEEDED) {
      ManualRuns.succeeded(reconciler.repositories(), entry.accountId, entry.overlayId,
          entry.startedAtMillis, clock.millis()); // a manual run, not a job's
    }
    boolean unstored;
    synchronized (entry) {
      entry.ended = true; // after a heartbeat in flight, before the end is stored
      unstored = entry.lazyTicket != null && !entry.stored && !entry.lazyTicket.wroteRecord();
      entry.unstoredEnd = unstored ? done : null;
    }
    try {
      if (unstored) {
        return done; // a job's run that wrote nothing and nobody asked for: no record
      }
      records.put(entry.accountId, id, done);
    } catch (RuntimeException e) {
      LOG.warn("storing the end of reconcile operation {} failed: {}", id,
          e.getClass().getName());
    } finally {
      live.remove(id);
    }
    return done;
  }

  private ReconcileOperation finished(String id, Live entry, ReconcileOperation.State state,
      ReconcileReport report, ReconcileOperation.Problem problem) {
    long now = clock.millis();
    return new ReconcileOperation(id, entry.overlayId, state,
        entry.progress.phase().name(), entry.progress.counts().asMap(), report, problem,
        entry.startedAtMillis, now, now);
  }

  /** The RUNNING record of {@code entry}, stored (or to be stored) at {@code storedAtMillis}. */
  private static ReconcileOperation snapshot(String id, Live entry, long storedAtMillis) {
    return new ReconcileOperation(id, entry.overlayId, ReconcileOperation.State.RUNNING,
        entry.progress.phase().name(), entry.progress.counts().asMap(), null, null,
        entry.startedAtMillis, null, storedAtMillis);
  }

  @Override
  public void close() {
    heartbeat.shutdownNow();
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
