package io.icegate.overlay.reconcile;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.Transaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Phase 3: publishes namespace claims, then Tables and Views, in batched transactions, each
 * asserting the run's fence ({@link RunFence}) and renewing its lease. Batches stay far below the
 * store's 10 MB / 5 s transaction limits: at most {@code batch} items and about {@value
 * #BATCH_BYTES} bytes of definitions and captured metadata. A Table whose full metadata discovery
 * kept is captured in the transaction that publishes it ({@link PublicationCapture}). A failure
 * stops the run with what committed left visible (seed 000: a retry converges).
 *
 * <p>Relations whose paths need no handover go first; then the path handovers ({@link
 * PathHandovers}), each component in one transaction: the only place a relation is retired
 * before phase 4 (a stale holder of a path another identity of this Overlay takes over).
 */
final class Publisher {
  /** Definition bytes per transaction, well below the 10 MB transaction limit. */
  static final int BATCH_BYTES = 2 * 1024 * 1024;

  private final KvStore store;
  private final Destination destination;
  private final RunFence fence;
  private final ReconcileHook hook;
  private final ReconcileProgress progress;
  private final PublicationCapture capture;
  private final int batch;
  private int batchesDone;

  /** What one relation batch's transaction did. */
  private record BatchDone(long created, long updated, long unchanged, long retired,
      List<DesiredRelation> capturedOf, List<PublicationCapture.Made> captured) {}

  Publisher(KvStore store, Destination destination, PublicationCapture capture, RunFence fence,
      ReconcileHook hook, ReconcileProgress progress, int batch) {
    this.store = store;
    this.destination = destination;
    this.capture = capture;
    this.fence = fence;
    this.hook = hook;
    this.progress = progress;
    this.batch = batch;
  }

  /**
   * @return the Tables captured in their publication transaction (the capture step skips them)
   * @throws io.icegate.core.error.IcegateException RECONCILE_SUPERSEDED, RECONCILE_CONFLICT (a
   *     path was taken after preflight)
   */
  Set<String> publish(Preflight.Plan plan, Inventory inventory) {
    progress.add(ReconcileCount.UNCHANGED, plan.unchanged());
    List<List<String>> paths = plan.namespaces();
    for (int from = 0; from < paths.size(); from += batch) {
      List<List<String>> slice = paths.subList(from, Math.min(paths.size(), from + batch));
      int[] done = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.assertAndRenew(tx);
        int[] sum = new int[2];
        for (List<String> path : slice) {
          int[] one = destination.claimPath(tx, path);
          sum[0] += one[0];
          sum[1] += one[1];
        }
        return sum;
      });
      progress.add(ReconcileCount.NAMESPACES_CLAIMED, done[0]);
      progress.add(ReconcileCount.NAMESPACES_CREATED, done[1]);
      hook.afterPublishBatch(batchesDone++);
    }
    Set<String> keys = plan.keep();
    Set<String> captured = new HashSet<>();
    for (List<DesiredRelation> slice : slices(plan.relations())) {
      BatchDone done = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.assertAndRenew(tx);
        BatchWork work = new BatchWork();
        List<String> conflicts = new ArrayList<>();
        for (DesiredRelation desired : slice) {
          Destination.Decision decision = destination.decide(tx, desired, keys);
          if (decision instanceof Destination.Conflict c) {
            conflicts.add(c.description());
          } else if (decision instanceof Destination.Handover h) {
            // Preflight saw no handover here: the store changed since; the next run plans anew.
            conflicts.add(desired.displayPath() + ": held by this overlay's "
                + h.holder().name() + ", which changed since preflight");
          } else {
            work.publish(tx, desired, decision);
          }
        }
        if (!conflicts.isEmpty()) {
          throw Destination.conflicts(conflicts);
        }
        return work.done();
      });
      record(done, captured);
    }
    for (List<PathHandovers.Component> group : groups(plan.handovers())) {
      BatchDone done = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.assertAndRenew(tx);
        BatchWork work = new BatchWork();
        for (PathHandovers.Component component : group) {
          handOver(tx, component.members(), keys, work);
        }
        return work.done();
      });
      record(done, captured);
    }
    return captured;
  }

  /**
   * Publishes one handover component in {@code tx}: each member whose path is free (or held by a
   * stale relation, retired here) is placed; when every pending member waits on another pending
   * one (a cycle), one holder is moved aside to a transaction-private name. Re-derived from the
   * store, so a retried transaction does the same or, after an applied unknown commit, nothing.
   */
  private void handOver(Transaction tx, List<DesiredRelation> members, Set<String> keys,
      BatchWork work) {
    List<DesiredRelation> pending = new ArrayList<>(members);
    Set<String> pendingKeys = new HashSet<>();
    pending.forEach(d -> pendingKeys.add(d.identityKey()));
    while (!pending.isEmpty()) {
      boolean placed = false;
      Destination.Handover cycle = null;
      for (Iterator<DesiredRelation> it = pending.iterator(); it.hasNext(); ) {
        DesiredRelation desired = it.next();
        Destination.Decision decision = destination.decide(tx, desired, keys);
        if (decision instanceof Destination.Conflict c) {
          throw Destination.conflicts(List.of(c.description()));
        }
        if (decision instanceof Destination.Handover h) {
          if (cycle == null && pendingKeys.contains(h.holderKey())) {
            cycle = h;
          }
          continue;
        }
        work.publish(tx, desired, decision);
        it.remove();
        pendingKeys.remove(desired.identityKey());
        placed = true;
      }
      if (!placed && cycle == null) {
        throw Destination.conflicts(pending.stream().map(d -> d.displayPath()
            + ": held by a relation of this overlay outside its handover, which changed since"
            + " preflight").toList());
      }
      if (!placed) {
        destination.moveAside(tx, cycle.holder());
      }
    }
  }

  /** What one transaction publishes, as it goes. */
  private final class BatchWork {
    private final long[] counts = new long[4];
    private final List<DesiredRelation> capturedOf = new ArrayList<>();
    private final List<PublicationCapture.Made> made = new ArrayList<>();

    void publish(Transaction tx, DesiredRelation desired, Destination.Decision decision) {
      if (decision instanceof Destination.Unchanged) {
        counts[2]++;
        return;
      }
      Optional<MetadataStash.Stashed> stashed = capture.candidate(desired);
      Instant capturedAt = stashed.isPresent() ? capture.now() : null;
      Destination.Applied applied = destination.apply(tx, desired, decision, capturedAt);
      counts[applied.created() ? 0 : 1]++;
      counts[3] += applied.retired() ? 1 : 0;
      if (stashed.isPresent()) {
        capturedOf.add(desired);
        made.add(capture.capture(tx, applied.relationId(), desired, stashed.get(), capturedAt));
      }
    }

    BatchDone done() {
      return new BatchDone(counts[0], counts[1], counts[2], counts[3], capturedOf, made);
    }
  }

  private void record(BatchDone done, Set<String> captured) {
    progress.add(ReconcileCount.CREATED, done.created());
    progress.add(ReconcileCount.UPDATED, done.updated());
    progress.add(ReconcileCount.UNCHANGED, done.unchanged());
    progress.add(ReconcileCount.RETIRED, done.retired());
    done.capturedOf().forEach(capture::release);
    for (PublicationCapture.Made made : done.captured()) {
      captured.add(made.tableId());
      progress.add(ReconcileCount.CAPTURED, 1);
      if (made.validated()) {
        progress.add(ReconcileCount.VALIDATED, 1);
      }
    }
    hook.afterPublishBatch(batchesDone++);
  }

  /**
   * Handover components packed into transactions of at most {@code batch} relations and {@value
   * #BATCH_BYTES} bytes, never splitting one; a larger component is a transaction of its own
   * (bounded by {@link PathHandovers}).
   */
  private List<List<PathHandovers.Component>> groups(List<PathHandovers.Component> components) {
    List<List<PathHandovers.Component>> out = new ArrayList<>();
    List<PathHandovers.Component> current = new ArrayList<>();
    int size = 0;
    long bytes = 0;
    for (PathHandovers.Component c : components) {
      if (!current.isEmpty() && (size + c.members().size() > batch
          || bytes + c.bytes() > BATCH_BYTES)) {
        out.add(current);
        current = new ArrayList<>();
        size = 0;
        bytes = 0;
      }
      current.add(c);
      size += c.members().size();
      bytes += c.bytes();
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }

  private List<List<DesiredRelation>> slices(List<DesiredRelation> relations) {
    List<List<DesiredRelation>> out = new ArrayList<>();
    List<DesiredRelation> current = new ArrayList<>();
    long bytes = 0;
    for (DesiredRelation r : relations) {
      if (!current.isEmpty()
          && (current.size() >= batch
              || bytes + r.definition().length + capture.bytes(r) > BATCH_BYTES)) {
        out.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(r);
      bytes += r.definition().length + capture.bytes(r);
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }
}
