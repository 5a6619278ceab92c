package io.icegate.overlay.reconcile;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.OnConflict;
import io.icegate.core.repo.Repositories;
import io.icegate.core.repo.ResourceRepository;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.claim.NamespaceClaims;
import io.icegate.overlay.store.relation.ManagedRelations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One Overlay's view of its target Catalog, inside the caller's transaction: what a desired
 * relation needs ({@link #decide}), doing it ({@link #apply}), and the namespace work around it.
 * Every decision is re-derived from the store in the transaction that acts on it, so a batch
 * applied twice (a retried unknown commit) leaves the same state as applying it once.
 */
final class Destination {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final NamespaceClaims CLAIMS = new NamespaceClaims();
  /** The start of a relation's transaction-private name while a handover cycle is broken. */
  static final String ASIDE_PREFIX = "icegate-handover-";

  /** What a desired relation needs. */
  sealed interface Decision permits Unchanged, Create, Update, Handover, Conflict {}

  /** Stored as desired: no write. */
  record Unchanged(String relationId) implements Decision {}

  /**
   * Create it; {@code stale} is this Overlay's relation holding the path whose identity is no
   * longer desired (an upstream drop and re-create under the same name), deleted first.
   */
  record Create(Resource<?> stale) implements Decision {}

  /** Update {@code existing} (definition, provenance or path changed); {@code stale} as above. */
  record Update(Resource<?> existing, Resource<?> stale) implements Decision {}

  /**
   * The destination path is held by {@code holder}, this Overlay's relation of another identity
   * that is still desired ({@code holderKey}, its {@link DesiredRelation#identityKey()}) and so
   * moves away in this run: the path is handed over ({@link PathHandovers}).
   */
  record Handover(Resource<?> holder, String holderKey) implements Decision {}

  /** The destination path has another writer. */
  record Conflict(String description) implements Decision {}

  private final Repositories repositories;
  private final String accountId;
  private final String catalogId;
  private final String integrationId;
  private final String overlayId;

  Destination(Repositories repositories, String accountId, String catalogId, String integrationId,
      String overlayId) {
    this.repositories = repositories;
    this.accountId = accountId;
    this.catalogId = catalogId;
    this.integrationId = integrationId;
    this.overlayId = overlayId;
  }

  String accountId() {
    return accountId;
  }

  String catalogId() {
    return catalogId;
  }

  String overlayId() {
    return overlayId;
  }

  /**
   * What {@code desired} needs now.
   *
   * @param desiredKeys identity keys of the whole inventory: this Overlay's relation at the path
   *     whose key is not among them is stale and may give way
   */
  Decision decide(ReadTransaction tx, DesiredRelation desired, Set<String> desiredKeys) {
    Optional<Resource<?>> indexed = MANAGED
        .find(tx, accountId, overlayId, desired.kind(), desired.externalId())
        .flatMap(id -> relation(tx, desired.kind(), id));
    Optional<Resource<?>> holder = holderOf(tx, desired.namespace(), desired.name());
    Resource<?> stale = null;
    if (holder.isPresent() && (indexed.isEmpty() || !holder.get().id().equals(indexed.get().id()))) {
      Provenance held = ManagedRelations.provenanceOf(holder.get());
      String path = desired.displayPath();
      if (held == null) {
        return new Conflict(path + ": a local " + holder.get().kind().label() + " holds the path");
      }
      if (!held.overlayId().equals(overlayId)) {
        return new Conflict(path + ": " + holder.get().kind().label()
            + " managed by overlay " + held.overlayId() + " holds the path");
      }
      String holderKey = holder.get().kind().tag() + "/" + held.externalId();
      // A holder the index does not name for its identity is an orphan, not that identity's
      // relation: it gives way like a stale one, so no stored state can block the path for good.
      if (desiredKeys.contains(holderKey) && MANAGED.find(tx, accountId, overlayId,
          holder.get().kind(), held.externalId()).equals(Optional.of(holder.get().id()))) {
        return new Handover(holder.get(), holderKey);
      }
      stale = holder.get();
    }
    if (indexed.isEmpty()) {
      return new Create(stale);
    }
    Resource<?> existing = indexed.get();
    Provenance wanted = desired.provenance(integrationId, overlayId);
    if (stale == null && wanted.equals(ManagedRelations.provenanceOf(existing))
        && samePath(existing, desired)) {
      return new Unchanged(existing.id());
    }
    return new Update(existing, stale);
  }

  /**
   * This Overlay's relation at {@code namespace}.{@code name}, if this Overlay's relation holds
   * that path (the earlier materialization of a held object).
   */
  Optional<Resource<?>> ownHolderAt(ReadTransaction tx, List<String> namespace, String name) {
    return holderOf(tx, namespace, name).filter(holder -> {
      Provenance p = ManagedRelations.provenanceOf(holder);
      return p != null && p.overlayId().equals(overlayId);
    });
  }

  /** This Overlay's relation of identity {@code identityKey}, if it materialized one. */
  Optional<Resource<?>> ownRelation(ReadTransaction tx, String identityKey) {
    int slash = identityKey.indexOf('/');
    ResourceKind kind = ResourceKind.ofTag(Integer.parseInt(identityKey.substring(0, slash)));
    return MANAGED.find(tx, accountId, overlayId, kind, identityKey.substring(slash + 1))
        .flatMap(id -> relation(tx, kind, id));
  }

  /** The identity key of a managed relation ({@link DesiredRelation#identityKey()}). */
  static String keyOf(Resource<?> relation) {
    return relation.kind().tag() + "/" + ManagedRelations.provenanceOf(relation).externalId();
  }

  /**
   * What {@link #apply} did.
   *
   * @param relationId the created or updated Table or View
   * @param created whether it was created (else updated)
   * @param retired whether a stale holder of the path was deleted first (a handover)
   */
  record Applied(String relationId, boolean created, boolean retired) {}

  /**
   * Carries out {@code decision} for {@code desired}.
   *
   * @param capturedAt for a Table captured in this same transaction ({@link PublicationCapture}),
   *     its captured-at property; {@code null}: an updated Table keeps the one it has
   */
  Applied apply(Transaction tx, DesiredRelation desired, Decision decision, Instant capturedAt) {
    Resource<?> stale = decision instanceof Create c ? c.stale()
        : decision instanceof Update u ? u.stale() : null;
    if (stale != null) {
      repository(stale.kind()).delete(tx, stale.id(), ExpectedGeneration.any());
    }
    Provenance provenance = desired.provenance(integrationId, overlayId);
    Map<String, String> captured = capturedAt == null ? null
        : Map.of(Captures.CAPTURED_AT_PROPERTY, capturedAt.toString());
    if (decision instanceof Update u) {
      Resource<?> existing = u.existing();
      String digestBefore = ManagedRelations.provenanceOf(existing).definitionDigest();
      if (desired.kind() == ResourceKind.TABLE) {
        repositories.tables(accountId).update(tx, existing.id(), ExpectedGeneration.any(),
            table(desired, provenance, captured == null ? capturedAt(existing) : captured),
            ChangeKind.CONFIGURATION);
      } else {
        repositories.views(accountId).update(tx, existing.id(), ExpectedGeneration.any(),
            view(desired, provenance), ChangeKind.CONFIGURATION);
      }
      if (!digestBefore.equals(desired.digest())) {
        MANAGED.writeDefinition(tx, accountId, desired.kind(), existing.id(), desired.definition());
      }
      return new Applied(existing.id(), false, stale != null);
    }
    String id = ResourceRepository.newId();
    if (desired.kind() == ResourceKind.TABLE) {
      repositories.tables(accountId).create(tx, id,
          table(desired, provenance, captured == null ? Map.of() : captured), OnConflict.ERROR);
    } else {
      repositories.views(accountId).create(tx, id, view(desired, provenance), OnConflict.ERROR);
    }
    MANAGED.writeDefinition(tx, accountId, desired.kind(), id, desired.definition());
    MANAGED.index(tx, accountId, overlayId, desired.kind(), desired.externalId(), id);
    return new Applied(id, true, stale != null);
  }

  /**
   * Renames {@code holder} to a name of its own namespace that no relation has, inside {@code
   * tx}: a cycle of path handovers is broken this way and the holder placed at its final path
   * later in the same transaction, so no reader ever sees the temporary name. The name is
   * {@value #ASIDE_PREFIX} plus the resource id (within the 255-character name limit, no control
   * characters), with a counter appended in the unlikely case that it is taken.
   */
  void moveAside(Transaction tx, Resource<?> holder) {
    NameScope scope = holder.spec().nameScope();
    String name = ASIDE_PREFIX + holder.id();
    for (int n = 1; holderOf(tx, ((NameScope.InCatalog) scope).path(), name).isPresent(); n++) {
      name = ASIDE_PREFIX + holder.id() + "-" + n;
    }
    repository(holder.kind()).rename(tx, holder.id(), ExpectedGeneration.any(), scope, name);
  }

  /**
   * Every index entry of this Overlay ({@link ManagedRelations#managedBy}), in pages of {@code
   * batch} read each in its own short transaction, handed to {@code page} in key order.
   */
  void forEachManagedPage(KvStore store, int batch,
      java.util.function.Consumer<List<ManagedRelations.Entry>> page) {
    ManagedRelations.Entry after = null;
    while (true) {
      ManagedRelations.Entry from = after;
      List<ManagedRelations.Entry> entries =
          store.read(tx -> MANAGED.managedBy(tx, accountId, overlayId, from, batch));
      if (entries.isEmpty()) {
        return;
      }
      after = entries.get(entries.size() - 1);
      page.accept(entries);
    }
  }

  /** What {@link #claimPath} would do: whether any prefix of {@code path} lacks our claim. */
  boolean pathNeedsWork(ReadTransaction tx, List<String> path) {
    for (int depth = 1; depth <= path.size(); depth++) {
      Optional<Resource<Namespace>> ns = namespace(tx, path.subList(0, depth));
      if (ns.isEmpty() || tx.get(KeyLayout.claim(accountId, ns.get().id(), overlayId)) == null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Creates every missing namespace of {@code path} (root first) and claims every one.
   *
   * @return {claims written, namespaces created}
   */
  int[] claimPath(Transaction tx, List<String> path) {
    int claimed = 0;
    int created = 0;
    for (int depth = 1; depth <= path.size(); depth++) {
      List<String> prefix = List.copyOf(path.subList(0, depth));
      Optional<Resource<Namespace>> ns = namespace(tx, prefix);
      boolean create = ns.isEmpty();
      String id = create
          ? repositories.namespaces(accountId).create(tx, new Namespace(catalogId, prefix, Map.of()))
              .id()
          : ns.get().id();
      created += create ? 1 : 0;
      claimed += CLAIMS.claim(tx, accountId, id, overlayId, create) ? 1 : 0;
    }
    return new int[] {claimed, created};
  }

  Optional<Resource<Namespace>> namespace(ReadTransaction tx, List<String> path) {
    return repositories.namespaces(accountId).getByName(tx,
        NameScope.inCatalog(catalogId, path.subList(0, path.size() - 1)),
        path.get(path.size() - 1));
  }

  /** Whether namespace {@code path} holds any namespace, table or view. */
  boolean hasChildren(ReadTransaction tx, List<String> path) {
    NameScope children = NameScope.inCatalog(catalogId, path);
    for (ResourceKind kind : List.of(ResourceKind.NAMESPACE, ResourceKind.TABLE,
        ResourceKind.VIEW)) {
      var range = KeyLayout.names(accountId, kind, children).range();
      if (!tx.getRange(range.begin, range.end, 1, ReadTransaction.Direction.FORWARD).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  Optional<Resource<?>> relation(ReadTransaction tx, ResourceKind kind, String id) {
    return repository(kind).get(tx, id).map(r -> (Resource<?>) r);
  }

  ResourceRepository<?> repository(ResourceKind kind) {
    return switch (kind) {
      case TABLE -> repositories.tables(accountId);
      case VIEW -> repositories.views(accountId);
      default -> throw new IllegalArgumentException("not a relation kind: " + kind);
    };
  }

  /** Every path of {@code namespaces} and all their ancestors. */
  static Set<List<String>> withAncestors(List<List<String>> namespaces) {
    Set<List<String>> all = new java.util.HashSet<>();
    for (List<String> path : namespaces) {
      for (int depth = 1; depth <= path.size(); depth++) {
        all.add(List.copyOf(path.subList(0, depth)));
      }
    }
    return all;
  }

  static IcegateException conflicts(List<String> descriptions) {
    return new IcegateException(ErrorCode.RECONCILE_CONFLICT, ResourceKind.OVERLAY,
        ErrorCode.RECONCILE_CONFLICT.format(descriptions.size()), null,
        new ArrayList<>(descriptions));
  }

  private Optional<Resource<?>> holderOf(ReadTransaction tx, List<String> namespace, String name) {
    NameScope scope = NameScope.inCatalog(catalogId, namespace);
    Optional<Resource<?>> table =
        repositories.tables(accountId).getByName(tx, scope, name).map(r -> (Resource<?>) r);
    return table.isPresent() ? table
        : repositories.views(accountId).getByName(tx, scope, name).map(r -> (Resource<?>) r);
  }

  private static boolean samePath(Resource<?> existing, DesiredRelation desired) {
    NameScope scope = existing.spec().nameScope();
    return existing.name().equals(desired.name()) && scope instanceof NameScope.InCatalog in
        && in.path().equals(desired.namespace());
  }

  private Table table(DesiredRelation desired, Provenance provenance,
      Map<String, String> properties) {
    return new Table(catalogId, desired.namespace(), desired.name(), null, properties, provenance);
  }

  /**
   * The capture time an updated Table keeps: its capture pointer is untouched by the update, and
   * the property must keep agreeing with it until the capture phase moves both.
   */
  private static Map<String, String> capturedAt(Resource<?> existing) {
    String at = existing.spec() instanceof Table t
        ? t.properties().get(Captures.CAPTURED_AT_PROPERTY) : null;
    return at == null ? Map.of() : Map.of(Captures.CAPTURED_AT_PROPERTY, at);
  }

  private View view(DesiredRelation desired, Provenance provenance) {
    return new View(catalogId, desired.namespace(), desired.name(), null, Map.of(), provenance);
  }
}
