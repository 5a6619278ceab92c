package io.icegate.core.repo;

import io.icegate.core.durability.DeletionFences;
import io.icegate.core.durability.DependencyCounters;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Integration;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Relation;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.ReadConsistency;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.ReadTransaction.Direction;
import io.icegate.core.store.Transaction;
import java.util.List;

/**
 * How one kind sits in the resource hierarchy: which fences guard its mutations, which parents
 * must exist, what makes it undeletable, which dependency counters it keeps. The repository is
 * generic; everything kind-specific is here. Every read is serializable (the check's absence is
 * load-bearing) and goes to the store.
 */
abstract class KindRules<S extends ResourceSpec> {
  final DeletionFences fences;
  final DependencyCounters counters;

  KindRules(DeletionFences fences, DependencyCounters counters) {
    this.fences = fences;
    this.counters = counters;
  }

  abstract ResourceKind kind();

  abstract Class<S> specType();

  /** Whether names of this kind live in {@code scope}'s family. */
  abstract boolean accepts(NameScope scope);

  /** Fences that must be absent for any mutation of {@code self}. */
  abstract List<ResourceRef> guardingFences(ResourceRef self, S spec);

  /** Fails unless the parents {@code spec} is placed in exist. */
  abstract void assertParentsExist(Transaction tx, ResourceRef self, S spec);

  /** Fails unless {@code next} stays where {@code current} lives (same catalog). */
  void assertSameHome(S current, S next) {}

  /** Fails when {@code resource} may not be deleted now. */
  void assertDeletable(Transaction tx, Resource<S> resource) {}

  /** Fails when {@code resource} may not change its name or scope (e.g. it has children). */
  void assertMovable(Transaction tx, Resource<S> resource) {}

  /** Dependency bookkeeping after a create. */
  void onCreated(Transaction tx, Resource<S> resource) {}

  /** Dependency bookkeeping after a delete. */
  void onDeleted(Transaction tx, Resource<S> resource) {}

  final void assertNoFences(ReadTransaction tx, ResourceRef self, S spec) {
    for (ResourceRef fenced : guardingFences(self, spec)) {
      fences.assertAbsent(tx, fenced);
    }
  }

  static void assertExists(ReadTransaction tx, ResourceRef ref) {
    if (tx.get(KeyLayout.resource(ref)) == null) {
      throw new IcegateException(ErrorCode.NOT_FOUND, ref.kind(), ref.kind().label(), ref.id());
    }
  }

  static boolean anyIn(ReadTransaction tx, com.apple.foundationdb.subspace.Subspace subspace) {
    com.apple.foundationdb.Range range = subspace.range();
    return !ReadConsistency.STRONG
        .view(tx)
        .getRange(range.begin, range.end, 1, Direction.FORWARD)
        .isEmpty();
  }

  static ResourceRef catalogOf(String accountId, String catalogId) {
    return new ResourceRef(accountId, ResourceKind.CATALOG, catalogId);
  }

  /** Accounts: server-wide names; deleted only under their own fence (AccountDeletion). */
  static final class AccountRules extends KindRules<Account> {
    AccountRules(DeletionFences fences, DependencyCounters counters) {
      super(fences, counters);
    }

    @Override
    ResourceKind kind() {
      return ResourceKind.ACCOUNT;
    }

    @Override
    Class<Account> specType() {
      return Account.class;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.AccountWide;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, Account spec) {
      return List.of(self);
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, Account spec) {}

    @Override
    void assertDeletable(Transaction tx, Resource<Account> resource) {
      // The record goes only after the fence is durable, so no create can slip in behind cleanup.
      if (fences.read(tx, resource.ref()).isEmpty()) {
        throw IcegateException.invalidArgument(
            "an account is deleted through account deletion, which fences it first");
      }
    }
  }

  /** Catalogs: per-account names; undeletable while namespaces (counted) depend on them. */
  static final class CatalogRules extends KindRules<Catalog> {
    CatalogRules(DeletionFences fences, DependencyCounters counters) {
      super(fences, counters);
    }

    @Override
    ResourceKind kind() {
      return ResourceKind.CATALOG;
    }

    @Override
    Class<Catalog> specType() {
      return Catalog.class;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.AccountWide;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, Catalog spec) {
      return List.of(ResourceRef.account(self.accountId()), self);
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, Catalog spec) {
      assertExists(tx, ResourceRef.account(self.accountId()));
    }

    @Override
    void assertDeletable(Transaction tx, Resource<Catalog> resource) {
      counters.assertNone(tx, resource.ref());
    }

    @Override
    void onDeleted(Transaction tx, Resource<Catalog> resource) {
      counters.clear(tx, resource.ref());
    }
  }

  /**
   * Integrations: per-account names; undeletable while dependents (overlays, counted) exist. An
   * integration's own fence (cascade delete) guards its mutations.
   */
  static final class IntegrationRules extends KindRules<Integration> {
    IntegrationRules(DeletionFences fences, DependencyCounters counters) {
      super(fences, counters);
    }

    @Override
    ResourceKind kind() {
      return ResourceKind.INTEGRATION;
    }

    @Override
    Class<Integration> specType() {
      return Integration.class;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.AccountWide;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, Integration spec) {
      return List.of(ResourceRef.account(self.accountId()), self);
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, Integration spec) {
      assertExists(tx, ResourceRef.account(self.accountId()));
    }

    @Override
    void assertDeletable(Transaction tx, Resource<Integration> resource) {
      counters.assertNone(tx, resource.ref());
    }

    @Override
    void onDeleted(Transaction tx, Resource<Integration> resource) {
      counters.clear(tx, resource.ref());
    }
  }

  /**
   * CatalogOverlays (seed 000, "Catalog overlay"): account-wide names of their own kind; the
   * Integration and the target Catalog must exist in the account and carry no deletion fence, and
   * the create counts the Overlay on both (in the create's transaction), so deleting either is
   * refused (DEPENDENCY_EXISTS) while the Overlay exists. The bindings are immutable.
   */
  static final class OverlayRules extends KindRules<CatalogOverlay> {
    OverlayRules(DeletionFences fences, DependencyCounters counters) {
      super(fences, counters);
    }

    @Override
    ResourceKind kind() {
      return ResourceKind.OVERLAY;
    }

    @Override
    Class<CatalogOverlay> specType() {
      return CatalogOverlay.class;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.AccountWide;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, CatalogOverlay spec) {
      return List.of(ResourceRef.account(self.accountId()), self,
          integrationOf(self.accountId(), spec.integrationId()),
          catalogOf(self.accountId(), spec.catalogId()));
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, CatalogOverlay spec) {
      assertExists(tx, ResourceRef.account(self.accountId()));
      assertExists(tx, integrationOf(self.accountId(), spec.integrationId()));
      assertExists(tx, catalogOf(self.accountId(), spec.catalogId()));
    }

    @Override
    void assertSameHome(CatalogOverlay current, CatalogOverlay next) {
      if (!current.integrationId().equals(next.integrationId())) {
        throw new IcegateException(ErrorCode.IMMUTABLE_MEMBER, ResourceKind.OVERLAY,
            "integrationId");
      }
      if (!current.catalogId().equals(next.catalogId())) {
        throw new IcegateException(ErrorCode.IMMUTABLE_MEMBER, ResourceKind.OVERLAY, "catalogId");
      }
    }

    @Override
    void onCreated(Transaction tx, Resource<CatalogOverlay> resource) {
      CatalogOverlay spec = resource.spec();
      counters.increment(tx, integrationOf(resource.accountId(), spec.integrationId()),
          ResourceKind.OVERLAY);
      counters.increment(tx, catalogOf(resource.accountId(), spec.catalogId()),
          ResourceKind.OVERLAY);
    }

    @Override
    void onDeleted(Transaction tx, Resource<CatalogOverlay> resource) {
      CatalogOverlay spec = resource.spec();
      counters.decrement(tx, integrationOf(resource.accountId(), spec.integrationId()),
          ResourceKind.OVERLAY);
      counters.decrement(tx, catalogOf(resource.accountId(), spec.catalogId()),
          ResourceKind.OVERLAY);
    }

    private static ResourceRef integrationOf(String accountId, String integrationId) {
      return new ResourceRef(accountId, ResourceKind.INTEGRATION, integrationId);
    }
  }

  /** Namespaces: unique per (catalog, parent path); counted on their catalog. */
  static final class NamespaceRules extends KindRules<Namespace> {
    private final ContributionRules contributions;

    NamespaceRules(
        DeletionFences fences, DependencyCounters counters, ContributionRules contributions) {
      super(fences, counters);
      this.contributions = contributions;
    }

    @Override
    ResourceKind kind() {
      return ResourceKind.NAMESPACE;
    }

    @Override
    Class<Namespace> specType() {
      return Namespace.class;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.InCatalog;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, Namespace spec) {
      return List.of(
          ResourceRef.account(self.accountId()), catalogOf(self.accountId(), spec.catalogId()));
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, Namespace spec) {
      assertExists(tx, catalogOf(self.accountId(), spec.catalogId()));
    }

    @Override
    void assertSameHome(Namespace current, Namespace next) {
      if (!current.catalogId().equals(next.catalogId())) {
        throw IcegateException.invalidArgument("a namespace cannot move to another catalog");
      }
    }

    @Override
    void assertDeletable(Transaction tx, Resource<Namespace> resource) {
      assertUnclaimed(tx, resource);
      assertEmpty(tx, resource);
    }

    @Override
    void assertMovable(Transaction tx, Resource<Namespace> resource) {
      assertUnclaimed(tx, resource);
      // Children name their namespace by path (its name is the last segment), so renaming or
      // moving a non-empty namespace would orphan them.
      assertEmpty(tx, resource);
    }

    /** Seed 000: a claimed Namespace cannot be dropped or moved while an Overlay uses it. */
    private void assertUnclaimed(Transaction tx, Resource<Namespace> resource) {
      contributions
          .claimingOverlay(tx, resource.accountId(), resource.id())
          .ifPresent(overlayId -> {
            throw new IcegateException(
                ErrorCode.NAMESPACE_CLAIMED,
                ResourceKind.NAMESPACE,
                String.join(".", resource.spec().path()),
                overlayId);
          });
    }

    @Override
    void onCreated(Transaction tx, Resource<Namespace> resource) {
      counters.increment(
          tx, catalogOf(resource.accountId(), resource.spec().catalogId()), ResourceKind.NAMESPACE);
    }

    @Override
    void onDeleted(Transaction tx, Resource<Namespace> resource) {
      counters.decrement(
          tx, catalogOf(resource.accountId(), resource.spec().catalogId()), ResourceKind.NAMESPACE);
    }

    private static void assertEmpty(Transaction tx, Resource<Namespace> resource) {
      Namespace ns = resource.spec();
      NameScope children = NameScope.inCatalog(ns.catalogId(), ns.path());
      for (ResourceKind child :
          List.of(ResourceKind.NAMESPACE, ResourceKind.TABLE, ResourceKind.VIEW)) {
        if (anyIn(tx, KeyLayout.names(resource.accountId(), child, children))) {
          throw new IcegateException(
              ErrorCode.NAMESPACE_NOT_EMPTY, ResourceKind.NAMESPACE, String.join(".", ns.path()));
        }
      }
    }
  }

  /** Tables and views: one relation-name scope per namespace, which must exist. */
  static final class RelationRules<S extends Relation> extends KindRules<S> {
    private final ResourceKind kind;
    private final Class<S> specType;
    private final ContributionRules contributions;

    RelationRules(
        ResourceKind kind, Class<S> specType, DeletionFences fences, DependencyCounters counters,
        ContributionRules contributions) {
      super(fences, counters);
      this.kind = kind;
      this.specType = specType;
      this.contributions = contributions;
    }

    @Override
    ResourceKind kind() {
      return kind;
    }

    @Override
    Class<S> specType() {
      return specType;
    }

    @Override
    boolean accepts(NameScope scope) {
      return scope instanceof NameScope.InCatalog;
    }

    @Override
    List<ResourceRef> guardingFences(ResourceRef self, S spec) {
      return List.of(
          ResourceRef.account(self.accountId()), catalogOf(self.accountId(), spec.catalogId()));
    }

    @Override
    void assertParentsExist(Transaction tx, ResourceRef self, S spec) {
      String catalogId = spec.catalogId();
      assertExists(tx, catalogOf(self.accountId(), catalogId));
      List<String> namespace = ((NameScope.InCatalog) spec.nameScope()).path();
      NameScope parent =
          NameScope.inCatalog(catalogId, namespace.subList(0, namespace.size() - 1));
      byte[] entry =
          KeyLayout.name(
              self.accountId(),
              ResourceKind.NAMESPACE,
              parent,
              namespace.get(namespace.size() - 1));
      if (tx.get(entry) == null) {
        throw new IcegateException(
            ErrorCode.NOT_FOUND,
            ResourceKind.NAMESPACE,
            ResourceKind.NAMESPACE.label(),
            String.join(".", namespace));
      }
    }

    @Override
    void onDeleted(Transaction tx, Resource<S> resource) {
      contributions.forget(tx, resource);
    }

    @Override
    void assertSameHome(S current, S next) {
      if (!current.catalogId().equals(next.catalogId())) {
        throw IcegateException.invalidArgument("a " + kind.label() + " cannot move to another catalog");
      }
    }

  }
}
