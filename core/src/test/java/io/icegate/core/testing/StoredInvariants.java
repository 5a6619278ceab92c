package io.icegate.core.testing;

import com.apple.foundationdb.subspace.Subspace;
import io.icegate.core.model.Resource;
import io.icegate.core.store.ReadTransaction;
import java.util.List;
import java.util.Map;

/**
 * Invariants of keys a module above core writes beside the resources (overlay-store's {@code
 * ContributionInvariants}), checked by {@link InvariantChecker#with} on the same snapshot as
 * core's own.
 */
public interface StoredInvariants {

  /** The subspaces whose keys these invariants account for. */
  List<Subspace> subspaces();

  /**
   * Adds a readable line to {@code violations} for every broken invariant.
   *
   * @param byId every resource record of the store, by id
   */
  void check(ReadTransaction tx, Map<String, Resource<?>> byId, List<String> violations);
}
