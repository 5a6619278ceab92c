package io.icegate.overlay.reconcile;

import io.icegate.admin.model.IntegrationAuthentication;
import io.icegate.core.credential.SecretValues;
import io.icegate.core.durability.Fence;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.ExpectedGeneration;
import java.time.Instant;
import java.util.Map;

/**
 * What another administrator does to an Overlay's world while a run or a revalidation of it is
 * under way (issue 22's fence sweeps): the deletions whose markers fence it, and the Integration
 * changes whose generations it observed.
 */
enum ConcurrentChange {
  ACCOUNT_DELETE, CATALOG_FENCE, CASCADE, OVERLAY_DELETE, URI_CHANGE, ROTATION;

  /** Whether the change deletes the Overlay (with its account or Integration). */
  boolean deletesOverlay() {
    return this == ACCOUNT_DELETE || this == CASCADE || this == OVERLAY_DELETE;
  }

  /** Makes the change in {@code h}'s account. */
  void apply(ReconcileHarness h, String integration, String catalog, String overlay) {
    switch (this) {
      case ACCOUNT_DELETE -> h.accountDeletion.delete(h.account, ExpectedGeneration.any());
      case CATALOG_FENCE -> h.store.run(tx -> {
        // the marker as a Catalog delete installs it; no delete can commit while an Overlay
        // depends on the Catalog, so it is installed directly (and lifted by afterwards)
        h.repos.fences().install(tx,
            new Fence(catalogRef(h, catalog), "catalog-delete", Instant.EPOCH, null));
        return null;
      });
      case CASCADE -> h.cascade.delete(h.account, integration, ExpectedGeneration.any());
      case OVERLAY_DELETE -> h.overlays.delete(h.account, overlay, ExpectedGeneration.any());
      case URI_CHANGE -> h.integrations.update(h.account, integration, ExpectedGeneration.any(),
          null, null, "http://127.0.0.1:2", null);
      case ROTATION -> h.integrations.rotate(h.account, integration, ExpectedGeneration.any(),
          new IntegrationAuthentication.Bearer(), new SecretValues(Map.of("token", "rotated")));
    }
  }

  /** Lifts what stays of the change that a real operation would not leave: the bare marker. */
  void afterwards(ReconcileHarness h, String catalog) {
    if (this == CATALOG_FENCE) {
      h.store.run(tx -> {
        h.repos.fences().clear(tx, catalogRef(h, catalog));
        return null;
      });
    }
  }

  private static ResourceRef catalogRef(ReconcileHarness h, String catalog) {
    return new ResourceRef(h.account, ResourceKind.CATALOG, catalog);
  }
}
