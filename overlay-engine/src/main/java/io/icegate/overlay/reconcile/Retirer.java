package io.icegate.overlay.reconcile;

import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Phase 4, and Overlay retirement: deletes the Overlay's managed relations whose identity is not in
 * {@code keep}, releases its claims on namespaces outside {@code keepNamespaces}, and deletes each
 * released Namespace that materialization created and that holds nothing (deepest first, so a
 * pruned child lets its parent go too). Never touches local content or another Overlay's
 * relations: it only walks this Overlay's index and claims.
 *
 * <p>Works in batched transactions, each first running {@code guard} (the run's fence for a
 * reconcile; nothing for a fenced Overlay being deleted). Every step re-reads what it acts on, so
 * it is safe to repeat after any failure.
 */
final class Retirer {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final NamespaceClaims CLAIMS = new NamespaceClaims();

  private final KvStore store;
  private final Repositories repositories;
  private final Destination destination;
  private final Consumer<Transaction> guard;
  private final ReconcileProgress progress;
  private final int batch;

  Retirer(KvStore store, Repositories repositories, Destination destination,
      Consumer<Transaction> guard, ReconcileProgress progress, int batch) {
    this.store = store;
    this.repositories = repositories;
    this.destination = destination;
    this.guard = guard;
    this.progress = progress;
    this.batch = batch;
  }

  /**
   * @param keep identity keys ({@link DesiredRelation#identityKey()}) still desired
   * @param keepNamespaces namespace paths still claimed (the selected ones and their ancestors)
   */
  void retire(Set<String> keep, Set<List<String>> keepNamespaces) {
    retireRelations(keep);
    releaseClaims(keepNamespaces);
  }

  private void retireRelations(Set<String> keep) {
    String account = destination.accountId();
    String overlay = destination.overlayId();
    destination.forEachManagedPage(store, batch, page -> {
      List<ManagedRelations.Entry> stale = page.stream()
          .filter(e -> !keep.contains(e.kind().tag() + "/" + e.externalId())).toList();
      if (stale.isEmpty()) {
        return;
      }
      long retired = store.run(Idempotence.IDEMPOTENT, tx -> {
        guard.accept(tx);
        long n = 0;
        for (ManagedRelations.Entry entry : stale) {
          Optional<String> id = MANAGED.find(tx, account, overlay, entry.kind(), entry.externalId());
          if (id.isEmpty()) {
            continue;
          }
          if (destination.relation(tx, entry.kind(), id.get()).isPresent()) {
            destination.repository(entry.kind()).delete(tx, id.get(), ExpectedGeneration.any());
            n++;
          } else {
            MANAGED.unindex(tx, account, overlay, entry.kind(), entry.externalId());
          }
        }
        return n;
      });
      progress.add(ReconcileCount.RETIRED, retired);
    });
  }

  /** A claim to release: the namespace's id and path ({@code null} when its record is gone). */
  private record Release(String namespaceId, List<String> path) {
    int depth() {
      return path == null ? 0 : path.size();
    }
  }

  private void releaseClaims(Set<List<String>> keepNamespaces) {
    String account = destination.accountId();
    String overlay = destination.overlayId();
    List<Release> release = store.read(tx -> {
      List<Release> out = new ArrayList<>();
      for (String id : CLAIMS.claimedBy(tx, account, overlay)) {
        Optional<Resource<Namespace>> ns = repositories.namespaces(account).get(tx, id);
        List<String> path = ns.map(n -> n.spec().path()).orElse(null);
        if (path == null || !keepNamespaces.contains(path)) {
          out.add(new Release(id, path));
        }
      }
      return out;
    });
    release.sort(Comparator.comparingInt(Release::depth).reversed());
    for (int from = 0; from < release.size(); from += batch) {
      List<Release> slice = release.subList(from, Math.min(release.size(), from + batch));
      long pruned = store.run(Idempotence.IDEMPOTENT, tx -> {
        guard.accept(tx);
        long n = 0;
        for (Release r : slice) {
          boolean prunable = CLAIMS.release(tx, account, r.namespaceId(), overlay);
          if (prunable && r.path() != null
              && repositories.namespaces(account).get(tx, r.namespaceId()).isPresent()
              && !destination.hasChildren(tx, r.path())) {
            repositories.namespaces(account).delete(tx, r.namespaceId(), ExpectedGeneration.any());
            n++;
          }
        }
        return n;
      });
      progress.add(ReconcileCount.NAMESPACES_PRUNED, pruned);
    }
  }
}
