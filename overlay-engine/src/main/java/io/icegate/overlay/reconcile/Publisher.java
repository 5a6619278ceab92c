package io.icegate.overlay.reconcile;

import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Phase 3: publishes namespace claims, then Tables and Views, in batched transactions, each
 * asserting the run's fence ({@link RunFence}) and renewing its lease. Batches stay far below the
 * store's 10 MB / 5 s transaction limits: at most {@code batch} items and about {@value
 * #BATCH_BYTES} bytes of definitions and captured metadata. A Table whose full metadata discovery
 * kept is captured in the transaction that publishes it ({@link PublicationCapture}). A failure
 * stops the run with what committed left visible (seed 000: a retry converges); nothing is retired
 * in this phase.
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
  private record BatchDone(long created, long updated, long unchanged,
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
    progress.unchanged.addAndGet(plan.unchanged());
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
      progress.namespacesClaimed.addAndGet(done[0]);
      progress.namespacesCreated.addAndGet(done[1]);
      hook.afterPublishBatch(batchesDone++);
    }
    Set<String> keys = inventory.identityKeys();
    Set<String> captured = new HashSet<>();
    for (List<DesiredRelation> slice : slices(plan.relations())) {
      BatchDone done = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.assertAndRenew(tx);
        long[] counts = new long[3];
        List<DesiredRelation> capturedOf = new ArrayList<>();
        List<PublicationCapture.Made> made = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        for (DesiredRelation desired : slice) {
          Destination.Decision decision = destination.decide(tx, desired, keys);
          if (decision instanceof Destination.Conflict c) {
            conflicts.add(c.description());
          } else if (decision instanceof Destination.Unchanged) {
            counts[2]++;
          } else {
            Optional<MetadataStash.Stashed> stashed = capture.candidate(desired);
            Instant capturedAt = stashed.isPresent() ? capture.now() : null;
            Destination.Applied applied = destination.apply(tx, desired, decision, capturedAt);
            counts[applied.created() ? 0 : 1]++;
            if (stashed.isPresent()) {
              capturedOf.add(desired);
              made.add(capture.capture(tx, applied.relationId(), desired, stashed.get(),
                  capturedAt));
            }
          }
        }
        if (!conflicts.isEmpty()) {
          throw Destination.conflicts(conflicts);
        }
        return new BatchDone(counts[0], counts[1], counts[2], capturedOf, made);
      });
      progress.created.addAndGet(done.created());
      progress.updated.addAndGet(done.updated());
      progress.unchanged.addAndGet(done.unchanged());
      done.capturedOf().forEach(capture::release);
      for (PublicationCapture.Made made : done.captured()) {
        captured.add(made.tableId());
        progress.captured.incrementAndGet();
        if (made.validated()) {
          progress.validated.incrementAndGet();
        }
      }
      hook.afterPublishBatch(batchesDone++);
    }
    return captured;
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
