package io.icegate.overlay.store.testing;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.testing.InvariantChecker;
import io.icegate.core.testing.StoredInvariants;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.relation.ManagedRelations;
import io.icegate.overlay.store.validation.ValidationRecords;
import io.icegate.overlay.store.validation.ValidationState;
import io.icegate.overlay.store.validation.ValidationStatus;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Invariants of Overlay contributions (seed 000, "Catalog overlay"), checked with core's {@link
 * InvariantChecker} on a quiescent store ({@link #checker}):
 *
 * <ul>
 *   <li>every managed Table or View belongs to an existing Overlay of its Catalog, is the target of
 *       that Overlay's index entry for its external identity, has a stored definition whose digest
 *       matches its provenance, and lives in a Namespace its Overlay claims;
 *   <li>every index entry points at an existing managed relation with that Overlay and identity;
 *   <li>every definition chunk belongs to an existing managed relation;
 *   <li>every claim has both index directions, names an existing Namespace and an existing Overlay
 *       targeting that Namespace's Catalog;
 *   <li>every capture pointer belongs to an existing managed Table, names a complete blob whose
 *       bytes digest to the pointer's digest with the pointer's size (and so for its state blob,
 *       if any), has the blob reference hint of each,
 *       and agrees with the Table's captured-at property (one publication, never mixed);
 *   <li>every held mark (issue 21) names an existing managed relation of its Overlay;
 *   <li>every validation key (pointer, allocation, error record, override) belongs to an existing
 *       managed Table; a pointer validated a capture the Table has (not a future one), its state
 *       and error count agree with its records, and the only records are those of its generation
 *       (a retired or abandoned generation left behind is a violation).
 * </ul>
 */
public final class ContributionInvariants implements StoredInvariants {
  private static final ManagedRelations MANAGED = new ManagedRelations();
  private static final ValidationRecords VALIDATIONS = new ValidationRecords();

  /** Core's invariant checker over {@code store} with these invariants added. */
  public static InvariantChecker checker(KvStore store) {
    return InvariantChecker.of(store).with(new ContributionInvariants());
  }

  @Override
  public List<Subspace> subspaces() {
    return List.of(KeySubspace.CLAIMS.subspace(), KeySubspace.MANAGED.subspace(),
        KeySubspace.DEFINITIONS.subspace(), KeySubspace.CAPTURES.subspace(),
        KeySubspace.VALIDATIONS.subspace());
  }

  @Override
  public void check(ReadTransaction tx, Map<String, Resource<?>> byId, List<String> violations) {
    for (Resource<?> resource : byId.values()) {
      Provenance provenance = ManagedRelations.provenanceOf(resource);
      if (provenance != null) {
        checkManaged(tx, byId, resource, provenance, violations);
      }
    }
    for (KeyValue kv : all(tx, KeySubspace.MANAGED.range())) {
      Tuple key = KeySubspace.MANAGED.unpack(kv.key());
      String relationId = new String(kv.value(), StandardCharsets.UTF_8);
      Provenance provenance = Optional.ofNullable(byId.get(relationId))
          .map(ManagedRelations::provenanceOf).orElse(null);
      if (provenance == null
          || !provenance.overlayId().equals(key.getString(1))
          || !provenance.externalId().equals(key.getString(3))) {
        violations.add("managed index entry " + key + " points at " + relationId
            + ", which is not that overlay's relation for that identity");
      }
    }
    for (KeyValue kv : all(tx, KeySubspace.DEFINITIONS.range())) {
      Tuple key = KeySubspace.DEFINITIONS.unpack(kv.key());
      Resource<?> owner = byId.get(key.getString(2));
      if (owner == null || ManagedRelations.provenanceOf(owner) == null) {
        violations.add("definition chunk " + key + " has no managed relation");
      }
    }
    for (KeyValue kv : all(tx, KeySubspace.CLAIMS.range())) {
      checkClaim(tx, byId, KeySubspace.CLAIMS.unpack(kv.key()), violations);
    }
    for (KeyValue kv : all(tx, KeySubspace.CAPTURES.range())) {
      Tuple key = KeySubspace.CAPTURES.unpack(kv.key());
      checkCapture(tx, byId, key.getString(0), key.getString(1), violations);
    }
    for (KeyValue kv : all(tx, KeySubspace.HELD.range())) {
      Tuple key = KeySubspace.HELD.unpack(kv.key());
      Provenance provenance = Optional.ofNullable(byId.get(key.getString(2)))
          .map(ManagedRelations::provenanceOf).orElse(null);
      if (provenance == null || !provenance.overlayId().equals(key.getString(1))) {
        violations.add("held mark " + key + " names no managed relation of that overlay");
      }
    }
    Set<Tuple> validated = new HashSet<>();
    for (KeyValue kv : all(tx, KeySubspace.VALIDATIONS.range())) {
      Tuple key = KeySubspace.VALIDATIONS.unpack(kv.key());
      if (validated.add(Tuple.from(key.getString(0), key.getString(1)))) {
        checkValidation(tx, byId, key.getString(0), key.getString(1), violations);
      }
    }
  }

  private static void checkValidation(ReadTransaction tx, Map<String, Resource<?>> byId,
      String accountId, String tableId, List<String> violations) {
    Resource<?> table = byId.get(tableId);
    if (table == null || !(table.spec() instanceof Table t) || t.provenance() == null) {
      violations.add("validation keys of " + tableId + " have no managed table");
      return;
    }
    Optional<ValidationStatus> pointer = VALIDATIONS.pointer(tx, accountId, tableId);
    List<KeyValue> records = all(tx, KeyLayout.validationErrors(accountId, tableId).range());
    if (pointer.isEmpty()) {
      if (!records.isEmpty()) {
        violations.add(table.ref() + " has " + records.size() + " validation error record(s) "
            + "but no validation pointer");
      }
      return;
    }
    ValidationStatus status = pointer.get();
    long captured = new CapturePointers().get(tx, accountId, tableId)
        .map(CapturePointer::captureGeneration).orElse(0L);
    if (status.captureGeneration() > captured) {
      violations.add(table.ref() + " validated capture " + status.captureGeneration()
          + " but is captured at " + captured);
    }
    long own = records.stream().filter(kv -> KeyLayout.validationErrors(accountId, tableId)
        .unpack(kv.key()).getLong(0) == status.validationGeneration()).count();
    if (own != records.size()) {
      violations.add(table.ref() + " keeps " + (records.size() - own) + " validation error "
          + "record(s) of generations other than its current " + status.validationGeneration());
    }
    if (own != status.errorCount()
        || (status.state() == ValidationState.VALID) != (status.errorCount() == 0)
        || status.state() == ValidationState.PENDING) {
      violations.add(table.ref() + " validation pointer " + status + " disagrees with its "
          + own + " record(s)");
    }
  }

  private static void checkCapture(ReadTransaction tx, Map<String, Resource<?>> byId,
      String accountId, String tableId, List<String> violations) {
    CapturePointer pointer = new CapturePointers().get(tx, accountId, tableId).orElseThrow();
    Resource<?> table = byId.get(tableId);
    if (table == null || !(table.spec() instanceof Table t) || t.provenance() == null) {
      violations.add("capture pointer of " + tableId + " has no managed table");
    } else if (!pointer.capturedAt().toString()
        .equals(t.properties().get(Captures.CAPTURED_AT_PROPERTY))) {
      violations.add(table.ref() + " says captured at "
          + t.properties().get(Captures.CAPTURED_AT_PROPERTY) + " but its pointer "
          + pointer.capturedAt());
    }
    Optional<byte[]> blob = Blobs.read(tx, pointer.digest());
    if (blob.isEmpty() || blob.get().length != pointer.size()
        || !Blobs.digest(blob.get()).equals(pointer.digest())) {
      violations.add("capture pointer of " + tableId + " names blob " + pointer.digest()
          + ", which is missing, incomplete or digests otherwise");
    }
    if (pointer.state() != null) {
      Optional<byte[]> state = Blobs.read(tx, pointer.state().digest());
      if (state.isEmpty() || state.get().length != pointer.state().size()
          || !Blobs.digest(state.get()).equals(pointer.state().digest())) {
        violations.add("capture pointer of " + tableId + " names state blob "
            + pointer.state().digest() + ", which is missing, incomplete or digests otherwise");
      }
    }
    for (String digest : pointer.blobDigests()) {
      if (tx.get(KeyLayout.blobReference(digest, accountId, tableId)) == null) {
        violations.add("capture pointer of " + tableId + " lacks the reference hint of blob "
            + digest);
      }
    }
  }

  private static void checkManaged(ReadTransaction tx, Map<String, Resource<?>> byId,
      Resource<?> relation, Provenance provenance, List<String> violations) {
    String catalogId = relation.spec() instanceof Table t ? t.catalogId()
        : ((View) relation.spec()).catalogId();
    List<String> namespace = relation.spec() instanceof Table t ? t.namespace()
        : ((View) relation.spec()).namespace();
    Resource<?> overlay = byId.get(provenance.overlayId());
    if (overlay == null || !(overlay.spec() instanceof CatalogOverlay o)
        || !o.catalogId().equals(catalogId)) {
      violations.add(relation.ref() + " is managed by missing overlay " + provenance.overlayId());
    }
    Optional<String> indexed = MANAGED.find(tx, relation.accountId(), provenance.overlayId(),
        relation.kind(), provenance.externalId());
    if (!indexed.equals(Optional.of(relation.id()))) {
      violations.add(relation.ref() + " is not the index target of its identity (index: "
          + indexed.orElse("none") + ")");
    }
    Optional<String> digest = MANAGED.definition(tx, relation.accountId(), relation.kind(),
        relation.id()).map(ManagedRelations::digest);
    if (!digest.equals(Optional.of(provenance.definitionDigest()))) {
      violations.add(relation.ref() + " has no definition matching its digest");
    }
    boolean claimed = byId.values().stream().anyMatch(r -> r.spec() instanceof Namespace ns
        && ns.catalogId().equals(catalogId) && ns.path().equals(namespace)
        && tx.get(KeyLayout.claim(r.accountId(), r.id(), provenance.overlayId())) != null);
    if (!claimed) {
      violations.add(relation.ref() + " lives in namespace " + namespace
          + " that its overlay does not claim");
    }
  }

  private static void checkClaim(ReadTransaction tx, Map<String, Resource<?>> byId, Tuple key,
      List<String> violations) {
    String accountId = key.getString(0);
    boolean byNamespace = key.getString(1).equals("namespace");
    String namespaceId = byNamespace ? key.getString(2) : key.getString(3);
    String overlayId = byNamespace ? key.getString(3) : key.getString(2);
    byte[] mirror = byNamespace
        ? tx.get(KeyLayout.claimOfOverlay(accountId, overlayId, namespaceId))
        : tx.get(KeyLayout.claim(accountId, namespaceId, overlayId));
    if (mirror == null) {
      violations.add("claim of overlay " + overlayId + " on namespace " + namespaceId
          + " lacks its other index direction");
    }
    Resource<?> namespace = byId.get(namespaceId);
    Resource<?> overlay = byId.get(overlayId);
    if (!(namespace != null && namespace.spec() instanceof Namespace ns)
        || !(overlay != null && overlay.spec() instanceof CatalogOverlay o)
        || !o.catalogId().equals(ns.catalogId())) {
      violations.add("claim of overlay " + overlayId + " on namespace " + namespaceId
          + " names a missing namespace or overlay, or another catalog");
    }
  }

  private static List<KeyValue> all(ReadTransaction tx, Range range) {
    return tx.getRange(range.begin, range.end);
  }
}
