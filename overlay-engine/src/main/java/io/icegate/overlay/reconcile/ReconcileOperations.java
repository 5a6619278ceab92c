package io.icegate.overlay.reconcile;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.overlay.OperationRecords;
import io.icegate.core.overlay.ReconcileRuns;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * <p>Operations are stored ({@link OperationRecords}) at start and end, and held in memory while
 * they run, so {@link #get} shows live phase and counts here and the final state anywhere. Closing
 * stops the executor; a run cut short stays RUNNING in its record until its lease lapses.
 */
public final class ReconcileOperations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcileOperations.class);

  private record Live(String accountId, String overlayId, ReconcileProgress progress,
      long startedAtMillis) {}

  private final Reconciler reconciler;
  private final OperationRecords records;
  private final Clock clock;
  private final ExecutorService executor;
  private final Map<String, Live> live = new ConcurrentHashMap<>();

  /**
   * @param threads asynchronous runs in flight at once in this process
   */
  public ReconcileOperations(Reconciler reconciler, OperationRecords records, Clock clock,
      int threads) {
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    this.records = Objects.requireNonNull(records, "records");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "reconcile-operation");
      t.setDaemon(true);
      return t;
    });
  }

  /** A synchronous run; see {@link Reconciler#reconcile}. */
  public ReconcileReport reconcile(String accountId, String overlayId) {
    return reconciler.reconcile(accountId, overlayId);
  }

  /**
   * Starts an asynchronous run, or joins the one holding the Overlay.
   *
   * @return the operation (RUNNING, or already finished when joined late)
   * @throws IcegateException NOT_FOUND, RECONCILE_IN_PROGRESS (a synchronous run holds it)
   */
  public ReconcileOperation submit(String accountId, String overlayId) {
    String id = UUID.randomUUID().toString();
    ReconcileRuns.Start start = reconciler.begin(accountId, overlayId, id);
    if (start instanceof ReconcileRuns.Busy busy) {
      return get(accountId, busy.operationId()).orElseThrow(() -> new IcegateException(
          ErrorCode.RECONCILE_IN_PROGRESS, ResourceKind.OVERLAY, overlayId));
    }
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    ReconcileProgress progress = new ReconcileProgress();
    Live entry = new Live(accountId, overlayId, progress, clock.millis());
    live.put(id, entry);
    try {
      Reconciler.Handle handle = reconciler.handle(accountId, overlayId, ticket);
      records.put(accountId, id, snapshot(id, entry));
      executor.execute(() -> runAsync(id, entry, handle));
    } catch (RuntimeException e) {
      live.remove(id);
      reconciler.release(ticket);
      throw e;
    }
    return snapshot(id, entry);
  }

  /** Operation {@code operationId} of {@code accountId}, if known. */
  public Optional<ReconcileOperation> get(String accountId, String operationId) {
    Live entry = live.get(operationId);
    if (entry != null && entry.accountId().equals(accountId)) {
      return Optional.of(snapshot(operationId, entry));
    }
    return records.get(accountId, operationId).map(json -> {
      try {
        return ModelJson.mapper().treeToValue(json, ReconcileOperation.class);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
  }

  private void runAsync(String id, Live entry, Reconciler.Handle handle) {
    ReconcileOperation done;
    try {
      ReconcileReport report = reconciler.execute(handle, entry.progress());
      done = finished(id, entry, ReconcileOperation.State.SUCCEEDED, report, null);
    } catch (IcegateException e) {
      done = finished(id, entry, ReconcileOperation.State.FAILED, null,
          new ReconcileOperation.Problem(e.code().name(), e.httpStatus(), e.getMessage(),
              e.details()));
    } catch (RuntimeException e) {
      LOG.error("reconcile operation {} of overlay {} failed: {}", id, entry.overlayId(),
          e.getClass().getName());
      done = finished(id, entry, ReconcileOperation.State.FAILED, null,
          new ReconcileOperation.Problem(ErrorCode.INTERNAL.name(),
              ErrorCode.INTERNAL.httpStatus(), ErrorCode.INTERNAL.format(), null));
    }
    try {
      records.put(entry.accountId(), id, done);
    } catch (RuntimeException e) {
      LOG.warn("storing the end of reconcile operation {} failed: {}", id,
          e.getClass().getName());
    } finally {
      live.remove(id);
    }
  }

  private ReconcileOperation finished(String id, Live entry, ReconcileOperation.State state,
      ReconcileReport report, ReconcileOperation.Problem problem) {
    return new ReconcileOperation(id, entry.overlayId(), state,
        entry.progress().phase().name(), entry.progress().counts(), report, problem,
        entry.startedAtMillis(), clock.millis());
  }

  private static ReconcileOperation snapshot(String id, Live entry) {
    return new ReconcileOperation(id, entry.overlayId(), ReconcileOperation.State.RUNNING,
        entry.progress().phase().name(), entry.progress().counts(), null, null,
        entry.startedAtMillis(), null);
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
