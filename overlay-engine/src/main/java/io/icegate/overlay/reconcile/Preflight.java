package io.icegate.overlay.reconcile;

import io.icegate.core.store.KvStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Phase 2: the complete desired inventory against the target Catalog, read-only. Collects every
 * conflict (a destination path held by a local relation or another Overlay's) and fails with all
 * of them at once; otherwise says what phase 3 must do: the namespace paths lacking a claim, and
 * the relations that are not already stored as desired (those need no write at all).
 *
 * <p>Reads run in short transactions of {@code batch} items, so a large inventory stays under the
 * store's transaction age limit; phase 3 re-derives each decision in its own transaction anyway.
 */
final class Preflight {

  /**
   * Phase 3's work list.
   *
   * @param namespaces namespace paths to create or claim (each with its ancestors), shallow first
   * @param relations relations to create or update
   * @param unchanged relations already stored as desired
   */
  record Plan(List<List<String>> namespaces, List<DesiredRelation> relations, long unchanged) {}

  private final KvStore store;
  private final Destination destination;
  private final int batch;

  Preflight(KvStore store, Destination destination, int batch) {
    this.store = store;
    this.destination = destination;
    this.batch = batch;
  }

  /**
   * @throws io.icegate.core.error.IcegateException RECONCILE_CONFLICT listing every conflict
   */
  Plan check(Inventory inventory) {
    Set<String> keys = inventory.identityKeys();
    List<String> conflicts = new ArrayList<>();
    List<DesiredRelation> work = new ArrayList<>();
    long unchanged = 0;
    List<DesiredRelation> all = inventory.relations();
    for (int from = 0; from < all.size(); from += batch) {
      List<DesiredRelation> slice = all.subList(from, Math.min(all.size(), from + batch));
      List<Destination.Decision> decisions = store.read(tx -> {
        List<Destination.Decision> out = new ArrayList<>();
        for (DesiredRelation desired : slice) {
          out.add(destination.decide(tx, desired, keys));
        }
        return out;
      });
      for (int i = 0; i < slice.size(); i++) {
        Destination.Decision decision = decisions.get(i);
        if (decision instanceof Destination.Conflict c) {
          conflicts.add(c.description());
        } else if (decision instanceof Destination.Unchanged) {
          unchanged++;
        } else {
          work.add(slice.get(i));
        }
      }
    }
    if (!conflicts.isEmpty()) {
      throw Destination.conflicts(conflicts);
    }
    List<List<String>> paths = new ArrayList<>(inventory.namespaces());
    paths.sort(Comparator.comparingInt(List::size));
    List<List<String>> namespaces = new ArrayList<>();
    for (int from = 0; from < paths.size(); from += batch) {
      List<List<String>> slice = paths.subList(from, Math.min(paths.size(), from + batch));
      namespaces.addAll(store.read(tx -> slice.stream()
          .filter(path -> destination.pathNeedsWork(tx, path)).toList()));
    }
    return new Plan(namespaces, work, unchanged);
  }
}
