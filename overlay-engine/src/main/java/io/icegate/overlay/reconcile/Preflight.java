package io.icegate.overlay.reconcile;

import io.icegate.access.model.CatalogObjectKind;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.core.store.KvStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Phase 2: the complete desired inventory against the target Catalog, read-only. Collects every
 * conflict (a destination path held by a local relation or another Overlay's) and fails with all
 * of them at once; otherwise says what phase 3 must do: the namespace paths lacking a claim, the
 * relations that are not already stored as desired (those need no write at all), and among them
 * the path handovers between this Overlay's own identities ({@link PathHandovers}), which no
 * history of the Overlay's own objects can turn into a conflict.
 *
 * <p>Reads run in short transactions of {@code batch} items, so a large inventory stays under the
 * store's transaction age limit; phase 3 re-derives each decision in its own transaction anyway.
 */
final class Preflight {

  /**
   * Phase 3's work list.
   *
   * @param namespaces namespace paths to create or claim (each with its ancestors), shallow first
   * @param relations relations to create or update whose paths need no handover
   * @param handovers components of path handovers, each published in one transaction ({@link
   *     PathHandovers})
   * @param unchanged relations already stored as desired
   * @param keep identity keys that are not stale: the desired ones and those of held objects
   *     (what was materialized of them stays as it was); phase 3 decides against them and phase 4
   *     retires only this Overlay's relations outside them
   * @param blocked desired relations held because their path is held by a held object's relation
   * @param heldRelations this Overlay's relations that stand for held objects (kept as they are,
   *     marked held: {@link HeldMarks}), by relation id
   */
  record Plan(List<List<String>> namespaces, List<DesiredRelation> relations,
      List<PathHandovers.Component> handovers, long unchanged, Set<String> keep,
      List<HeldObject> blocked, Map<String, HeldObject> heldRelations) {

    Plan {
      heldRelations = Map.copyOf(heldRelations);
      namespaces = List.copyOf(namespaces);
      relations = List.copyOf(relations);
      handovers = List.copyOf(handovers);
      keep = Set.copyOf(keep);
      blocked = List.copyOf(blocked);
    }
  }

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
    Protection protection = protect(inventory.held(), inventory.identityKeys());
    Set<String> protectedKeys = new HashSet<>(protection.keys());
    Set<String> keys = new HashSet<>(inventory.identityKeys());
    keys.addAll(protectedKeys);
    List<String> conflicts = new ArrayList<>();
    Map<String, Destination.Decision> decided = new LinkedHashMap<>();
    Map<String, DesiredRelation> byKey = new LinkedHashMap<>();
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
        if (decisions.get(i) instanceof Destination.Conflict c) {
          conflicts.add(c.description());
        }
        decided.put(slice.get(i).identityKey(), decisions.get(i));
        byKey.put(slice.get(i).identityKey(), slice.get(i));
      }
    }
    List<HeldObject> blocked = blockedByHeld(decided, byKey, protectedKeys);
    Map<String, HeldObject> heldRelations = new LinkedHashMap<>(protection.relations());
    protect(blocked, Set.of()).relations().forEach(heldRelations::putIfAbsent);
    PathHandovers handovers = new PathHandovers();
    decided.forEach((key, decision) -> {
      if (decision instanceof Destination.Handover h) {
        handovers.add(byKey.get(key), h.holderKey(), writeBytes(byKey.get(key), decision));
      } else if (stale(decision) != null) {
        handovers.add(byKey.get(key), null, writeBytes(byKey.get(key), decision));
      }
    });
    for (String holder : handovers.missingHolders()) {
      if (decided.get(holder) instanceof Destination.Unchanged) {
        // Its desired path is its current one, which another desired relation also wants.
        conflicts.add(byKey.get(holder).displayPath() + ": the upstream lists two objects at this"
            + " path");
      } else {
        handovers.addHolder(byKey.get(holder), writeBytes(byKey.get(holder), decided.get(holder)));
      }
    }
    if (!conflicts.isEmpty()) {
      throw Destination.conflicts(conflicts);
    }
    List<PathHandovers.Component> components = handovers.components();
    List<DesiredRelation> work = new ArrayList<>();
    long unchanged = 0;
    for (Map.Entry<String, Destination.Decision> e : decided.entrySet()) {
      if (handovers.involves(e.getKey())) {
        continue;
      }
      if (e.getValue() instanceof Destination.Unchanged) {
        unchanged++;
      } else {
        work.add(byKey.get(e.getKey()));
      }
    }
    List<List<String>> paths = new ArrayList<>(inventory.namespaces());
    paths.sort(Comparator.comparingInt(List::size));
    List<List<String>> namespaces = new ArrayList<>();
    for (int from = 0; from < paths.size(); from += batch) {
      List<List<String>> slice = paths.subList(from, Math.min(paths.size(), from + batch));
      namespaces.addAll(store.read(tx -> slice.stream()
          .filter(path -> destination.pathNeedsWork(tx, path)).toList()));
    }
    return new Plan(namespaces, work, components, unchanged, keys, blocked, heldRelations);
  }

  /**
   * What held objects protect: the identity keys, each held object's own (when its load told it)
   * and that of this Overlay's relation at its path (found by path, since a failed load tells no
   * identity); and those relations by id, with the held object each stands for.
   */
  private record Protection(Set<String> keys, Map<String, HeldObject> relations) {}

  private Protection protect(List<HeldObject> held, Set<String> desired) {
    Set<String> keys = new HashSet<>();
    Map<String, HeldObject> relations = new LinkedHashMap<>();
    for (int from = 0; from < held.size(); from += batch) {
      List<HeldObject> slice = held.subList(from, Math.min(held.size(), from + batch));
      store.read(tx -> {
        for (HeldObject h : slice) {
          List<Resource<?>> found = new ArrayList<>();
          if (h.identityKey() != null) {
            keys.add(h.identityKey());
            destination.ownRelation(tx, h.identityKey()).ifPresent(found::add);
          }
          if (h.name() != null && RepresentationLimits.namespaceProblem(h.namespace()) == null
              && RepresentationLimits.nameProblem(CatalogObjectKind.TABLE, h.name()) == null) {
            // a desired identity's relation there is not the held object's: it moves away
            destination.ownHolderAt(tx, h.namespace(), h.name())
                .filter(r -> !desired.contains(Destination.keyOf(r))).ifPresent(found::add);
          }
          for (Resource<?> relation : found) {
            keys.add(Destination.keyOf(relation));
            relations.putIfAbsent(relation.id(), h);
          }
        }
        return null;
      });
    }
    return new Protection(keys, relations);
  }

  /**
   * Desired relations whose path is held by a held object's relation cannot be placed: they are
   * held too (and protect their own relation in turn), until nothing more is blocked. Removed from
   * {@code decided}.
   */
  private static List<HeldObject> blockedByHeld(Map<String, Destination.Decision> decided,
      Map<String, DesiredRelation> byKey, Set<String> protectedKeys) {
    List<HeldObject> blocked = new ArrayList<>();
    boolean more = true;
    while (more) {
      more = false;
      for (var it = decided.entrySet().iterator(); it.hasNext(); ) {
        var e = it.next();
        if (e.getValue() instanceof Destination.Handover h
            && protectedKeys.contains(h.holderKey())) {
          DesiredRelation d = byKey.get(e.getKey());
          blocked.add(HeldObject.of(d.kind() == ResourceKind.TABLE ? "table" : "view",
              d.namespace(), d.name(), ErrorCode.PATH_HELD_BY_HELD_OBJECT,
              ManagedRelations.provenanceOf(h.holder()).upstreamDisplayPath(), d.identityKey()));
          protectedKeys.add(e.getKey());
          it.remove();
          more = true;
        }
      }
    }
    return blocked;
  }

  private static Resource<?> stale(Destination.Decision decision) {
    return decision instanceof Destination.Create c ? c.stale()
        : decision instanceof Destination.Update u ? u.stale() : null;
  }

  /** What publishing {@code desired} writes, roughly: its record and keys, a changed definition. */
  private static long writeBytes(DesiredRelation desired, Destination.Decision decision) {
    boolean sameDefinition = decision instanceof Destination.Update u
        && desired.digest().equals(ManagedRelations.provenanceOf(u.existing()).definitionDigest());
    return PathHandovers.RECORD_BYTES + (sameDefinition ? 0 : desired.definition().length);
  }
}
