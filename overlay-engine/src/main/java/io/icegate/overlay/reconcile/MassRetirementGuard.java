package io.icegate.overlay.reconcile;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.ResourceKind;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.core.store.KvStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Issue 21: a run that would retire every relation its Overlay holds, or every relation under one
 * of its include paths, is far more often a mistake (an Integration pointed at another upstream
 * catalog, a typo in Unity's {@code catalog}, a selection edited wrongly) than an upstream that
 * really dropped everything. Checked after preflight, before anything is published, over the
 * Overlay's managed index (read-only, in pages); the retirements counted are those of phase 4 and
 * the stale holders a handover would retire in phase 3.
 */
final class MassRetirementGuard {
  private final KvStore store;
  private final Destination destination;
  private final int batch;

  MassRetirementGuard(KvStore store, Destination destination, int batch) {
    this.store = store;
    this.destination = destination;
    this.batch = batch;
  }

  /** One relation of the Overlay: where it lives and whether the run would retire it. */
  private record Counted(List<String> namespace, boolean stale) {}

  /**
   * @param keep identity keys the run keeps ({@link Preflight.Plan#keep()})
   * @param includes the Overlay's include paths (empty: the whole upstream)
   * @throws IcegateException MASS_RETIREMENT_UNCONFIRMED naming each scope that would be emptied
   */
  void check(Set<String> keep, List<List<String>> includes) {
    List<Counted> relations = relations(keep);
    long stale = relations.stream().filter(Counted::stale).count();
    if (stale == 0) {
      return;
    }
    List<String> scopes = new ArrayList<>();
    if (stale == relations.size()) {
      scopes.add("all " + stale + " relation(s) of the overlay would be retired");
    }
    for (List<String> include : includes) {
      List<Counted> under = relations.stream().filter(r -> r.namespace().size() >= include.size()
          && r.namespace().subList(0, include.size()).equals(include)).toList();
      if (!under.isEmpty() && under.stream().allMatch(Counted::stale)) {
        scopes.add("all " + under.size() + " relation(s) under include path "
            + String.join(".", include) + " would be retired");
      }
    }
    if (!scopes.isEmpty()) {
      throw new IcegateException(ErrorCode.MASS_RETIREMENT_UNCONFIRMED, ResourceKind.OVERLAY,
          ErrorCode.MASS_RETIREMENT_UNCONFIRMED.format(stale, relations.size()), null, scopes);
    }
  }

  private List<Counted> relations(Set<String> keep) {
    List<Counted> out = new ArrayList<>();
    destination.forEachManagedPage(store, batch, page -> out.addAll(store.read(tx -> {
      List<Counted> found = new ArrayList<>();
      for (ManagedRelations.Entry entry : page) {
        Optional<List<String>> namespace = destination.relation(tx, entry.kind(),
            entry.relationId()).map(r -> ((NameScope.InCatalog) r.spec().nameScope()).path());
        namespace.ifPresent(ns -> found.add(new Counted(ns,
            !keep.contains(entry.kind().tag() + "/" + entry.externalId()))));
      }
      return found;
    })));
    return out;
  }
}
