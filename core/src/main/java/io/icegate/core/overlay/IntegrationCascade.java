package io.icegate.core.overlay;

import io.icegate.core.credential.CredentialStore;
import io.icegate.core.durability.DeletionFences;
import io.icegate.core.durability.Fence;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.JobCleanup;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import java.util.Objects;
import java.util.UUID;

/**
 * {@code DELETE .../integrations/{id}?cascade=true} (seed 000, "Cascade integration delete"):
 *
 * <ol>
 *   <li>install the Integration's deletion fence in its own transaction (asserting the account is
 *       not being deleted); from its commit on no Overlay can be created on the Integration and
 *       the Integration cannot be updated or rotated (FENCED);
 *   <li>read every dependent Overlay STRONG and delete each as an Overlay delete does: its own
 *       fence, retirement of its contributions ({@link ContributionRetirement}), then record,
 *       name, counts and fence in one transaction;
 *   <li>in one transaction: assert the Integration's dependency counters are zero (STRONG), delete
 *       its record and name, every credential generation, and its fence.
 * </ol>
 *
 * <p>Target Catalogs stay. A cascade that failed part-way leaves the Integration fenced; repeating
 * the delete resumes where it stopped (every step is idempotent). Thread-safe.
 */
public final class IntegrationCascade {
  private static final int UNKNOWN_RESULT_ATTEMPTS = 5;

  private final Repositories repositories;
  private final OverlayService overlays;
  private final ContributionRetirement retirement;
  private final CredentialStore credentials;
  private final KvStore store;
  private final DeletionFences fences;

  public IntegrationCascade(Repositories repositories, OverlayService overlays,
      ContributionRetirement retirement, CredentialStore credentials) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.overlays = Objects.requireNonNull(overlays, "overlays");
    this.retirement = Objects.requireNonNull(retirement, "retirement");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.store = repositories.store();
    this.fences = repositories.fences();
  }

  /**
   * Deletes Integration {@code id} with its Overlays and credentials.
   *
   * @return the Integration as it was when fenced
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, FENCED (the account is being
   *     deleted), COMMIT_STATE_UNKNOWN
   * @throws io.icegate.core.store.KvStoreException a storage failure; repeat the delete
   */
  public Resource<Integration> delete(String accountId, String id, ExpectedGeneration expected) {
    ResourceRepository<Integration> integrations = repositories.integrations(accountId);
    ResourceRef ref = integrations.ref(id);
    String operationId = UUID.randomUUID().toString();
    Resource<Integration> fenced = store.run(Idempotence.IDEMPOTENT, tx -> {
      fences.assertAbsent(tx, ResourceRef.account(accountId));
      Resource<Integration> integration = integrations.require(tx, id);
      if (!expected.matches(integration.generation())) {
        throw new IcegateException(ErrorCode.GENERATION_MISMATCH, ResourceKind.INTEGRATION,
            ResourceKind.INTEGRATION.label(), id, integration.generation(),
            expected.describe());
      }
      fences.install(tx, new Fence(ref, operationId, repositories.clock().instant(), null));
      return integration;
    });
    for (Resource<CatalogOverlay> overlay : overlays.dependentsOf(accountId, id)) {
      Resource<CatalogOverlay> overlayFenced;
      try {
        overlayFenced = overlays.installFence(accountId, overlay.id(), ExpectedGeneration.any(),
            operationId);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          continue; // deleted meanwhile
        }
        throw e;
      }
      retirement.retire(overlayFenced);
      overlays.removeFenced(accountId, overlay.id());
    }
    for (int attempt = 1; ; attempt++) {
      try {
        store.run(tx -> {
          if (integrations.get(tx, id).isPresent()) {
            integrations.delete(tx, id, ExpectedGeneration.any()); // counters zero, read STRONG
          }
          credentials.removeAll(tx, accountId, id);
          JobCleanup.forgetIntegration(tx, accountId, id);
          fences.clear(tx, ref);
          return null;
        });
        return fenced;
      } catch (CommitUnknownResultException e) {
        if (integrations.get(id).isEmpty()) {
          return fenced;
        }
        if (attempt >= UNKNOWN_RESULT_ATTEMPTS) {
          throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, ResourceKind.INTEGRATION,
              ErrorCode.COMMIT_STATE_UNKNOWN.format("the cascade delete of integration " + id), e);
        }
      }
    }
  }
}
