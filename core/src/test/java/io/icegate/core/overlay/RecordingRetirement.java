package io.icegate.core.overlay;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Resource;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.Transaction;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ContributionRetirement} that records which Overlays it was asked to retire and checks
 * the precondition the hook is promised: the Overlay's deletion fence is installed unless the
 * Overlay is already gone (or, for account deletion, the account's fence is installed). Reconciliation will retire real contributions; until then
 * this is what the lifecycle tests observe.
 */
public final class RecordingRetirement implements ContributionRetirement {
  public final Set<String> retired = ConcurrentHashMap.newKeySet();
  public final Set<String> retiredForAccountDeletion = ConcurrentHashMap.newKeySet();
  public final Set<String> unfenced = ConcurrentHashMap.newKeySet();
  private final io.icegate.core.store.KvStore store;

  public RecordingRetirement(io.icegate.core.store.KvStore store) {
    this.store = store;
  }

  @Override
  public void retire(Resource<CatalogOverlay> overlay) {
    // A concurrent delete of the same Overlay may have finished (record and fence gone): benign.
    if (store.read(tx -> tx.get(KeyLayout.fence(overlay.ref())) == null
        && tx.get(KeyLayout.resource(overlay.ref())) != null)) {
      unfenced.add(overlay.id());
    }
    retired.add(overlay.id());
  }

  @Override
  public void retireForAccountDeletion(Transaction tx, Resource<CatalogOverlay> overlay) {
    if (tx.get(KeyLayout.fence(io.icegate.core.model.ResourceRef.account(overlay.accountId())))
        == null) {
      unfenced.add(overlay.id());
    }
    retiredForAccountDeletion.add(overlay.id());
  }
}
