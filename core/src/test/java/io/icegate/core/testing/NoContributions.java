package io.icegate.core.testing;

import io.icegate.core.model.Resource;
import io.icegate.core.repo.ContributionRules;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.Optional;

/**
 * The {@link ContributionRules} of core's own tests: no Namespace is claimed and a deleted Table
 * or View leaves nothing behind, because nothing in core writes the overlay domain's state. The
 * real rules and their tests are overlay-store's ({@code OverlayStore}, {@code
 * ManagedStorageTest}); tests of modules above core open their repositories through it. A core
 * test that wrote overlay state anyway would not pass unnoticed: {@link InvariantChecker} reports
 * keys in subspaces it was given no checks for.
 */
public enum NoContributions implements ContributionRules {
  RULES;

  @Override
  public Optional<String> claimingOverlay(
      ReadTransaction tx, String accountId, String namespaceId) {
    return Optional.empty();
  }

  @Override
  public void forget(Transaction tx, Resource<?> relation) {}
}
