package io.icegate.core.overlay;

import com.apple.foundationdb.Range;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.durability.CreateRequest;
import io.icegate.core.durability.DeletionFences;
import io.icegate.core.durability.Fence;
import io.icegate.core.durability.FencedView;
import io.icegate.core.durability.IdempotentCreates;
import io.icegate.core.durability.IdempotentResult;
import io.icegate.core.durability.RequestFingerprint;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.jobs.JobCleanup;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.CreateOutcome;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Listing;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.repo.SpecChange;
import io.icegate.core.store.CommitUnknownResultException;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.KvStoreException;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * CatalogOverlays of an account (seed 000, "Catalog overlay" and "Lifecycle and garbage
 * collection"): create (with Idempotency-Key and {@code onConflict}), get, list, update, delete,
 * and the account-deletion cleanup step.
 *
 * <p>A create publishes the Overlay and increments the Integration's and the Catalog's dependency
 * counters in one transaction that asserts no deletion fence on the account, the Integration or
 * the Catalog (the repository's overlay rules). A delete installs the Overlay's deletion fence in
 * its own transaction (from then on no update, and no reconcile fenced on it, can commit), retires
 * its contributions ({@link ContributionRetirement}), then removes the record, its name, its
 * dependencies and the fence in one transaction. {@code onConflict=replace} does the same to the
 * Overlay holding the name and publishes the new identity in the transaction that removes the old
 * one. Every read a check relies on is serializable ({@link ReadConsistency#STRONG}). Thread-safe.
 */
public final class OverlayService {
  private static final int UNKNOWN_RESULT_ATTEMPTS = 5;
  private static final int REPLACE_ATTEMPTS = 5;

  private final Repositories repositories;
  private final IdempotentCreates creates;
  private final ContributionRetirement retirement;
  private final KvStore store;
  private final DeletionFences fences;

  public OverlayService(Repositories repositories, IdempotentCreates creates,
      ContributionRetirement retirement) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.creates = Objects.requireNonNull(creates, "creates");
    this.retirement = Objects.requireNonNull(retirement, "retirement");
    this.store = repositories.store();
    this.fences = repositories.fences();
  }

  /**
   * Creates an Overlay. {@link OnConflict#REPLACE} fences the Overlay holding the name, retires its
   * contributions, then publishes {@code spec} under a new id in the transaction that removes the
   * old Overlay; if that publication is definitely refused (e.g. the new Catalog is missing), the
   * old Overlay is unfenced again (its retired contributions come back with the next reconcile).
   *
   * @throws IcegateException NOT_FOUND (account, Integration or Catalog), FENCED, ALREADY_EXISTS,
   *     INVALID_ARGUMENT (replace with an Idempotency-Key), the idempotency codes,
   *     COMMIT_STATE_UNKNOWN
   */
  public IdempotentResult<CatalogOverlay> create(String accountId, CatalogOverlay spec,
      CreateRequest request) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    if (request.idempotencyKey() != null) {
      String fingerprint = fingerprint(spec, request.onConflict());
      return creates.create(overlays, request.idempotencyKey(), fingerprint, spec,
          request.onConflict());
    }
    if (request.onConflict() != OnConflict.REPLACE) {
      return new IdempotentResult<>(overlays.create(spec, request.onConflict()), false);
    }
    return new IdempotentResult<>(replace(overlays, spec), false);
  }

  /** The fingerprint of an idempotent overlay create (the request has no secret members). */
  public static String fingerprint(CatalogOverlay spec, OnConflict onConflict) {
    return RequestFingerprint.of(Map.of("request", spec, "onConflict", onConflict));
  }

  /** @throws IcegateException NOT_FOUND */
  public Resource<CatalogOverlay> get(String accountId, String id) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    return store.read(tx -> overlays.require(tx, id));
  }

  /** One page of the account's Overlays in display-name order. */
  public Page<Resource<CatalogOverlay>> list(String accountId, PageRequest page) {
    return repositories.overlays(accountId).list(Listing.of(NameScope.ACCOUNT_WIDE), page,
        ReadConsistency.EVENTUAL_ALLOWED);
  }

  /**
   * Overlay {@code id} with its deletion fence, read in one transaction (an admin's view: a fence
   * on an existing Overlay is a delete, replace or cascade that has not finished).
   *
   * @throws IcegateException NOT_FOUND
   */
  public FencedView<CatalogOverlay> view(String accountId, String id) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    return store.read(tx -> FencedView.of(tx, fences, overlays.require(tx, id)));
  }

  /** {@link #list} with each Overlay's deletion fence, read in the page's transaction. */
  public Page<FencedView<CatalogOverlay>> listViews(String accountId, PageRequest page) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    return store.read(tx -> FencedView.of(tx, fences, overlays.list(tx,
        Listing.of(NameScope.ACCOUNT_WIDE), page, ReadConsistency.EVENTUAL_ALLOWED)));
  }

  /**
   * Applies a patch of name and selection; each {@code null} member keeps its value.
   *
   * @see #update(String, String, ExpectedGeneration, OverlayPatch)
   */
  public Resource<CatalogOverlay> update(String accountId, String id, ExpectedGeneration expected,
      String displayName, String integrationId, String catalogId, List<List<String>> include,
      List<List<String>> exclude) {
    return update(accountId, id, expected,
        OverlayPatch.of(displayName, integrationId, catalogId, include, exclude));
  }

  /**
   * Applies {@code patch}. A changed selection or pause advances the configuration generation; a
   * rename, an interval or a retention change does not (they are read when planning and pruning,
   * so they supersede no running reconcile and invalidate no page token).
   *
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, IMMUTABLE_MEMBER (integrationId,
   *     catalogId), ALREADY_EXISTS, FENCED, INVALID_ARGUMENT (naming the member)
   */
  public Resource<CatalogOverlay> update(String accountId, String id, ExpectedGeneration expected,
      OverlayPatch patch) {
    // Decided on the record the transaction replaces, so a concurrent rename or selection change
    // is not undone by a patch built from an earlier read.
    return repositories.overlays(accountId).update(id, expected, now -> {
      if (patch.integrationId() != null && !patch.integrationId().equals(now.integrationId())) {
        throw new IcegateException(ErrorCode.IMMUTABLE_MEMBER, ResourceKind.OVERLAY,
            "integrationId");
      }
      if (patch.catalogId() != null && !patch.catalogId().equals(now.catalogId())) {
        throw new IcegateException(ErrorCode.IMMUTABLE_MEMBER, ResourceKind.OVERLAY, "catalogId");
      }
      CatalogOverlay next = patch.applyTo(now);
      return new SpecChange<>(next,
          next.configurationDiffers(now) ? ChangeKind.CONFIGURATION : ChangeKind.METADATA);
    });
  }

  /**
   * Deletes Overlay {@code id}: fence, retire its contributions, then remove record, name,
   * dependencies and fence in one transaction. A delete that failed half-way leaves the Overlay
   * fenced (read-only); repeating it resumes.
   *
   * @return the Overlay as it was
   * @throws IcegateException NOT_FOUND, GENERATION_MISMATCH, FENCED (the account is being deleted)
   */
  public Resource<CatalogOverlay> delete(String accountId, String id,
      ExpectedGeneration expected) {
    Resource<CatalogOverlay> fenced = installFence(accountId, id, expected,
        UUID.randomUUID().toString());
    retirement.retire(fenced);
    removeFenced(accountId, id);
    return fenced;
  }

  /**
   * Every Overlay of the account bound to Integration {@code integrationId}, read STRONG (a range
   * read of the account's overlay records, so none committed before the caller's fence is missed).
   */
  public List<Resource<CatalogOverlay>> dependentsOf(String accountId, String integrationId) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    Range range = KeyLayout.resources(accountId, ResourceKind.OVERLAY).range();
    return store.read(tx -> {
      List<Resource<CatalogOverlay>> found = new ArrayList<>();
      for (KeyValue kv : ReadConsistency.STRONG.view(tx).getRange(range.begin, range.end)) {
        Resource<CatalogOverlay> overlay = overlays.codec().read(kv.value());
        if (overlay.spec().integrationId().equals(integrationId)) {
          found.add(overlay);
        }
      }
      return found;
    });
  }

  /**
   * Account deletion's cleanup step (run before the partition is cleared): per transaction, up to
   * a quarter of the key budget of Overlays get {@link
   * ContributionRetirement#retireForAccountDeletion} and are removed with their names, fences and
   * counts. Resumable: removed Overlays are not seen again.
   */
  public CleanupStep accountCleanup() {
    return (tx, accountId, maxKeys) -> {
      ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
      Range range = KeyLayout.resources(accountId, ResourceKind.OVERLAY).range();
      List<KeyValue> batch = ReadConsistency.STRONG.view(tx)
          .getRange(range.begin, range.end, Math.max(1, maxKeys / 4), Direction.FORWARD);
      for (KeyValue kv : batch) {
        Resource<CatalogOverlay> overlay = overlays.codec().read(kv.value());
        retirement.retireForAccountDeletion(tx, overlay);
        JobCleanup.forgetOverlay(tx, accountId, overlay.spec().integrationId(), overlay.id());
        overlays.delete(tx, overlay.id(), ExpectedGeneration.any());
        fences.clear(tx, overlay.ref());
      }
      return batch.size() * 4;
    };
  }

  /**
   * Fences Overlay {@code id} for a delete or cascade in its own transaction, asserting the account
   * is not being deleted (so no fence lands in a partition already cleaned). A fence found there
   * (a failed delete, a replace in progress) is taken over: this operation removes the Overlay, so
   * the fence is now its own and no other operation's failure path may clear it. Re-running it is
   * harmless.
   */
  Resource<CatalogOverlay> installFence(String accountId, String id, ExpectedGeneration expected,
      String operationId) {
    return installFence(accountId, id, expected, operationId, true);
  }

  private Resource<CatalogOverlay> installFence(String accountId, String id,
      ExpectedGeneration expected, String operationId, boolean takeOver) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      fences.assertAbsent(tx, ResourceRef.account(accountId));
      Resource<CatalogOverlay> overlay = overlays.require(tx, id);
      if (!expected.matches(overlay.generation())) {
        throw new IcegateException(ErrorCode.GENERATION_MISMATCH, ResourceKind.OVERLAY,
            ResourceKind.OVERLAY.label(), id, overlay.generation(),
            expected.describe());
      }
      // A replace that finds a fence (a delete running) works under it without owning it, so its
      // failure path (unfenceIfOurs) leaves it in place.
      if (takeOver || fences.read(tx, overlay.ref()).isEmpty()) {
        fences.install(tx, new Fence(overlay.ref(), operationId, repositories.clock().instant(),
            null));
      }
      return overlay;
    });
  }

  /**
   * Removes the fenced Overlay {@code id} with its name, dependencies and fence in one
   * transaction; already gone counts as done (a concurrent delete or cascade finished it). An
   * unknown commit is resolved by re-reading.
   */
  void removeFenced(String accountId, String id) {
    ResourceRepository<CatalogOverlay> overlays = repositories.overlays(accountId);
    ResourceRef ref = overlays.ref(id);
    for (int attempt = 1; ; attempt++) {
      try {
        store.run(tx -> {
          Optional<Resource<CatalogOverlay>> overlay = overlays.get(tx, id);
          if (overlay.isPresent()) {
            JobCleanup.forgetOverlay(tx, accountId, overlay.get().spec().integrationId(), id);
            overlays.delete(tx, id, ExpectedGeneration.any());
          }
          fences.clear(tx, ref);
          return null;
        });
        return;
      } catch (CommitUnknownResultException e) {
        if (overlays.get(id).isEmpty()) {
          return;
        }
        if (attempt >= UNKNOWN_RESULT_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private CreateOutcome<CatalogOverlay> replace(ResourceRepository<CatalogOverlay> overlays,
      CatalogOverlay spec) {
    String accountId = overlays.accountId();
    for (int attempt = 1; attempt <= REPLACE_ATTEMPTS; attempt++) {
      Optional<Resource<CatalogOverlay>> old =
          store.read(tx -> overlays.getByName(tx, NameScope.ACCOUNT_WIDE, spec.displayName()));
      if (old.isEmpty()) {
        try {
          return overlays.create(spec, OnConflict.ERROR);
        } catch (IcegateException e) {
          if (e.code() != ErrorCode.ALREADY_EXISTS) {
            throw e;
          }
          continue; // created meanwhile: replace that one
        }
      }
      assertBindable(accountId, spec);
      String operationId = UUID.randomUUID().toString();
      Resource<CatalogOverlay> fenced;
      try {
        fenced = installFence(accountId, old.get().id(), ExpectedGeneration.any(), operationId,
            false);
      } catch (IcegateException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          continue; // deleted meanwhile
        }
        throw e;
      }
      retirement.retire(fenced);
      CreateOutcome<CatalogOverlay> outcome = publishReplacement(overlays, spec, fenced,
          operationId);
      if (outcome != null) {
        return outcome;
      }
    }
    throw new IcegateException(ErrorCode.STORE_CONTENTION, ResourceKind.OVERLAY);
  }

  /** The replacing transaction; {@code null} when another writer took the name meanwhile. */
  private CreateOutcome<CatalogOverlay> publishReplacement(
      ResourceRepository<CatalogOverlay> overlays, CatalogOverlay spec,
      Resource<CatalogOverlay> fenced, String operationId) {
    String id = ResourceRepository.newId();
    try {
      return store.run(tx -> {
        Optional<Resource<CatalogOverlay>> holder =
            overlays.getByName(tx, NameScope.ACCOUNT_WIDE, spec.displayName());
        if (holder.isEmpty() || !holder.get().id().equals(fenced.id())) {
          return null;
        }
        CreateOutcome<CatalogOverlay> created = overlays.create(tx, id, spec, OnConflict.REPLACE);
        JobCleanup.forgetOverlay(tx, overlays.accountId(), fenced.spec().integrationId(),
            fenced.id());
        fences.clear(tx, fenced.ref());
        return created;
      });
    } catch (CommitUnknownResultException e) {
      Optional<Resource<CatalogOverlay>> stored = overlays.get(id);
      if (stored.isPresent()) {
        return new CreateOutcome<>(stored.get(), CreateOutcome.Disposition.REPLACED);
      }
      // Still fenced: a retried replace fences it again and resumes.
      throw new IcegateException(ErrorCode.COMMIT_STATE_UNKNOWN, ResourceKind.OVERLAY,
          ErrorCode.COMMIT_STATE_UNKNOWN.format("the replacing create of an overlay"), e);
    } catch (IcegateException | KvStoreException e) {
      unfenceIfOurs(fenced.ref(), operationId);
      throw e;
    }
  }

  /** Fails before the old Overlay is disturbed when the new bindings cannot be published. */
  private void assertBindable(String accountId, CatalogOverlay spec) {
    store.read(tx -> {
      fences.assertAbsent(tx, ResourceRef.account(accountId));
      for (ResourceRef ref : List.of(
          new ResourceRef(accountId, ResourceKind.INTEGRATION, spec.integrationId()),
          new ResourceRef(accountId, ResourceKind.CATALOG, spec.catalogId()))) {
        requireRecord(tx, ref);
        fences.assertAbsent(tx, ref);
      }
      return null;
    });
  }

  private static void requireRecord(ReadTransaction tx, ResourceRef ref) {
    if (tx.get(KeyLayout.resource(ref)) == null) {
      throw new IcegateException(ErrorCode.NOT_FOUND, ref.kind(), ref.kind().label(), ref.id());
    }
  }

  private void unfenceIfOurs(ResourceRef ref, String operationId) {
    try {
      store.run(Idempotence.IDEMPOTENT, tx -> {
        Optional<Fence> fence = fences.read(tx, ref);
        if (fence.isPresent() && fence.get().operationId().equals(operationId)) {
          fences.clear(tx, ref);
        }
        return null;
      });
    } catch (RuntimeException e) {
      // The Overlay stays fenced (read-only) until a delete or replace is retried.
    }
  }
}
