package io.icegate.overlay.reconcile;

import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Resource;
import io.icegate.core.overlay.ContributionRetirement;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import java.util.Objects;
import java.util.Set;

/**
 * {@link ContributionRetirement} for Overlay delete, replace and Integration cascade (seed 000
 * "Lifecycle and garbage collection"): retires every managed relation of the fenced Overlay,
 * releases all its claims, prunes the Namespaces materialization created that are now unclaimed
 * and empty, and removes its held marks ({@link HeldMarks}). The Catalog, local content and other Overlays' resources stay. Account deletion uses
 * the interface's default (the partition clear removes everything). Idempotent.
 */
public final class OverlayContributions implements ContributionRetirement {
  private final Repositories repositories;
  private final int batch;

  public OverlayContributions(Repositories repositories, int batch) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.batch = batch;
  }

  @Override
  public void retire(Resource<CatalogOverlay> overlay) {
    Destination destination = new Destination(repositories, overlay.accountId(),
        overlay.spec().catalogId(), overlay.spec().integrationId(), overlay.id());
    // The Overlay is fenced, so no run can publish for it any more; nothing else to assert.
    new Retirer(repositories.store(), repositories, destination, tx -> { },
        new ReconcileProgress(), batch).retire(Set.of(), Set.of());
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      new HeldMarks().clearAll(tx, overlay.accountId(), overlay.id());
      return null;
    });
  }
}
