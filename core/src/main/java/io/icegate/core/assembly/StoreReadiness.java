package io.icegate.core.assembly;

import io.icegate.core.model.NameScope;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.ReadConsistency;
import java.util.Objects;

/**
 * Whether the store serves reads: the first page (one entry) of the account listing, which every
 * request starts from and which the bootstrap always fills. A range read of the accounts' name
 * index through the repositories, so it exercises what requests read rather than a key nobody
 * writes.
 */
public final class StoreReadiness {
  private final Repositories repositories;

  public StoreReadiness(Repositories repositories) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
  }

  /**
   * Reads the first account strongly.
   *
   * @throws RuntimeException whatever the store throws when it cannot answer
   */
  public void check() {
    repositories.accounts().list(Listing.of(NameScope.ACCOUNT_WIDE), PageRequest.first(1),
        ReadConsistency.STRONG);
  }
}
