package io.icegate.overlay.store;

import io.icegate.core.model.Resource;
import io.icegate.core.repo.ContributionRules;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.time.Clock;
import java.util.Optional;

/**
 * The overlay domain's integrity rules as the resource repositories ask them ({@link
 * ContributionRules}): a Namespace claimed by an Overlay ({@link NamespaceClaims}) is not dropped
 * or moved, and a deleted Table or View takes its definition, index entry, capture pointer and
 * validation records with it ({@link ManagedRelations#forget}). Stateless.
 *
 * <p>{@link #repositories} is how a process opens its repositories, so these rules are never left
 * out.
 */
public final class OverlayStore implements ContributionRules {
  private final NamespaceClaims claims = new NamespaceClaims();
  private final ManagedRelations managed = new ManagedRelations();

  /** The repositories of {@code store}, with these rules; {@code clock} stamps records. */
  public static Repositories repositories(KvStore store, Clock clock) {
    return new Repositories(store, clock, new OverlayStore());
  }

  @Override
  public Optional<String> claimingOverlay(
      ReadTransaction tx, String accountId, String namespaceId) {
    return claims.anyClaimOn(tx, accountId, namespaceId).map(NamespaceClaims.Claim::overlayId);
  }

  @Override
  public void forget(Transaction tx, Resource<?> relation) {
    managed.forget(tx, relation);
  }
}
