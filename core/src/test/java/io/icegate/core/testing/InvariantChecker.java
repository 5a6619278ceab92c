package io.icegate.core.testing;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.model.Account;
import io.icegate.core.model.Catalog;
import io.icegate.core.model.CatalogOverlay;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.Namespace;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.ResourceSpec;
import io.icegate.core.model.Table;
import io.icegate.core.model.View;
import io.icegate.core.repo.ResourceCodec;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the store-wide invariants of the durability contract on one consistent snapshot of a
 * quiescent store (run it after every operation of a test has returned, retries included):
 *
 * <ul>
 *   <li>every resource record has its name-index entry and every entry its record (no orphaned
 *       name, no unnamed resource);
 *   <li>nothing lives in the partition of an account that is gone: each partition belongs to an
 *       existing, unfenced account (no resource behind a fence; a fenced account with a record
 *       means a delete did not finish);
 *   <li>every dependency counter equals the real count of its dependents (namespaces per catalog,
 *       overlays per catalog and per integration) and belongs to an existing owner;
 *   <li>no Overlay whose Integration or target Catalog is gone;
 *   <li>no resource behind a fence: nothing in a deleted catalog, no Overlay bound to a fenced
 *       Integration or Catalog; no Integration or Overlay fence outlives its record, and none is
 *       left on an existing record (a delete or cascade that did not finish);
 *   <li>receipt-in-batch: a pending reservation never has a published resource under its reserved
 *       id, a receipt of a created resource holds the resource it reserved, and a recorded
 *       rejection has nothing published under its reservation.
 * </ul>
 *
 * <p>Replays of receipts are checked by {@link ReplayLedger}. Overlay contributions (managed
 * relations, their index and definitions, namespace claims, captures, validations) by the
 * {@link StoredInvariants} of overlay-store given to {@link #with}; without them, any key in
 * those subspaces is itself a violation, so a test cannot leave them unchecked by mistake.
 * Credentials: every stored generation is referenced by its owner (integration, catalog) or noted
 * as an orphan candidate; every referenced generation is stored and readable; and, for a scenario
 * that ends with its owners' reclaiming publications ({@link #settled}), no generation is noted
 * but never removed.
 */
public final class InvariantChecker {
  /**
   * Subspaces written above core (overlay-store): their keys are checked by {@link
   * StoredInvariants} covering them, or reported.
   */
  private static final List<Subspace> CHECKED_ABOVE_CORE = List.of(KeySubspace.CLAIMS.subspace(),
      KeySubspace.MANAGED.subspace(), KeySubspace.DEFINITIONS.subspace(),
      KeySubspace.CAPTURES.subspace(), KeySubspace.VALIDATIONS.subspace());

  private final KvStore store;
  private final io.icegate.core.credential.CredentialStore credentials;
  private final List<StoredInvariants> extra;
  private final boolean settled;

  private InvariantChecker(KvStore store, io.icegate.core.credential.CredentialStore credentials,
      List<StoredInvariants> extra, boolean settled) {
    this.store = store;
    this.credentials = credentials;
    this.extra = extra;
    this.settled = settled;
  }

  /**
   * This checker, also requiring that no credential generation is noted as an orphan candidate:
   * for a store at rest after every owner's last publication ran past the stale age of what
   * faults left noted (CredentialPublication.STALE_AFTER), so everything noted was removed.
   */
  public InvariantChecker settled() {
    return new InvariantChecker(store, credentials, extra, true);
  }

  /**
   * This checker, also decrypting every referenced credential generation with {@code
   * credentials} (its master key).
   */
  public InvariantChecker withCredentials(io.icegate.core.credential.CredentialStore credentials) {
    return new InvariantChecker(store, credentials, extra, settled);
  }

  /** This checker, also checking {@code invariants} of a module above core. */
  public InvariantChecker with(StoredInvariants invariants) {
    List<StoredInvariants> all = new ArrayList<>(extra);
    all.add(invariants);
    return new InvariantChecker(store, credentials, List.copyOf(all), settled);
  }

  /** A checker over {@code store}. */
  public static InvariantChecker of(KvStore store) {
    return new InvariantChecker(store, null, List.of(), false);
  }

  /** Fails with every violation found. */
  public void assertClean() {
    List<String> violations = violations();
    if (!violations.isEmpty()) {
      throw new AssertionError(violations.size() + " invariant violation(s):\n  "
          + String.join("\n  ", violations.subList(0, Math.min(50, violations.size()))));
    }
  }

  /** Every violation found, as readable lines. */
  public List<String> violations() {
    return store.read(this::check);
  }

  /**
   * How many keys account {@code accountId} still has anywhere: its partitions, its record and
   * name-index entry. Zero after a completed deletion.
   */
  public long keysOfAccount(String accountId) {
    return store.read(tx -> {
      long keys = 0;
      for (Subspace subspace : KeyLayout.accountPartitions(accountId)) {
        keys += all(tx, subspace.range()).size();
      }
      if (tx.get(KeyLayout.resource(ResourceRef.account(accountId))) != null) {
        keys++;
      }
      for (KeyValue kv : all(tx, KeyLayout.names(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT)
          .range())) {
        if (new String(kv.value(), StandardCharsets.UTF_8).equals(accountId)) {
          keys++;
        }
      }
      return keys;
    });
  }

  private List<String> check(ReadTransaction tx) {
    List<String> violations = new ArrayList<>();
    Map<String, Resource<?>> byId = new HashMap<>();
    Set<String> partitions = new HashSet<>();
    Map<String, Long> namespacesPerCatalog = new HashMap<>();
    Map<String, Long> overlaysPerOwner = new HashMap<>();

    for (KeyValue kv : all(tx, KeySubspace.RESOURCES.range())) {
      Tuple key = KeySubspace.RESOURCES.unpack(kv.key());
      String partition = key.getString(0);
      ResourceKind kind = ResourceKind.ofTag((int) key.getLong(1));
      String id = key.getString(2);
      partitions.add(partition);
      Resource<?> resource = codec(kind).read(kv.value());
      byId.put(id, resource);
      if (!resource.id().equals(id) || resource.kind() != kind) {
        violations.add("record under " + kind.label() + " " + id + " holds " + resource.ref());
      }
      boolean root = partition.equals(KeyLayout.ROOT_PARTITION);
      if (root != (kind == ResourceKind.ACCOUNT)
          || (!root && !resource.accountId().equals(partition))) {
        violations.add(resource.ref() + " is stored in partition '" + partition + "'");
      }
      byte[] name = nameKey(partition, resource);
      byte[] indexed = tx.get(name);
      if (indexed == null || !new String(indexed, StandardCharsets.UTF_8).equals(id)) {
        violations.add(resource.ref() + " named '" + resource.name() + "' has no name-index entry");
      }
      if (resource.spec() instanceof Namespace ns) {
        namespacesPerCatalog.merge(ns.catalogId(), 1L, Long::sum);
      }
      if (resource.spec() instanceof CatalogOverlay overlay) {
        overlaysPerOwner.merge(overlay.integrationId(), 1L, Long::sum);
        overlaysPerOwner.merge(overlay.catalogId(), 1L, Long::sum);
      }
    }
    checkOverlays(tx, byId, overlaysPerOwner, violations);
    checkAboveCore(tx, byId, violations);

    for (KeyValue kv : all(tx, KeySubspace.NAME_INDEX.range())) {
      Tuple key = KeySubspace.NAME_INDEX.unpack(kv.key());
      String partition = key.getString(0);
      partitions.add(partition);
      ResourceKind kind = ResourceKind.ofTag((int) key.getLong(1));
      String id = new String(kv.value(), StandardCharsets.UTF_8);
      Resource<?> resource = byId.get(id);
      if (resource == null || resource.kind() != kind
          || !Arrays.equals(nameKey(partition, resource), kv.key())) {
        violations.add("orphaned name-index entry " + key + " -> " + kind.label() + " " + id);
      }
    }

    for (KeyValue kv : all(tx, KeySubspace.COUNTERS.range())) {
      Tuple key = KeySubspace.COUNTERS.unpack(kv.key());
      String partition = key.getString(0);
      partitions.add(partition);
      String ownerId = key.getString(2);
      ResourceKind dependent = ResourceKind.ofTag((int) key.getLong(3));
      long value = ByteBuffer.wrap(kv.value()).getLong();
      if (!byId.containsKey(ownerId)) {
        violations.add("counter of " + dependent.label() + "s on missing owner " + ownerId);
      }
      long actual = switch (dependent) {
        case NAMESPACE -> namespacesPerCatalog.getOrDefault(ownerId, 0L);
        case OVERLAY -> overlaysPerOwner.getOrDefault(ownerId, 0L);
        default -> -1;
      };
      if (value != actual) {
        violations.add("counter of " + dependent.label() + "s on " + ownerId + " is " + value
            + ", real count " + actual);
      }
    }
    for (Map.Entry<String, Long> e : namespacesPerCatalog.entrySet()) {
      Resource<?> catalog = byId.get(e.getKey());
      if (catalog == null) {
        violations.add(e.getValue() + " namespace(s) in missing catalog " + e.getKey());
        continue;
      }
      byte[] counter = tx.get(KeyLayout.counter(catalog.ref(), ResourceKind.NAMESPACE));
      if (counter == null) {
        violations.add("catalog " + e.getKey() + " has " + e.getValue()
            + " namespace(s) but no counter");
      }
    }

    for (KeyValue kv : all(tx, KeySubspace.RECEIPTS.range())) {
      Tuple key = KeySubspace.RECEIPTS.unpack(kv.key());
      partitions.add(key.getString(0));
      JsonNode record = json(kv.value());
      String reserved = record.path("reservedId").asText();
      JsonNode receipt = record.path("receipt");
      if (receipt.isMissingNode() || receipt.isNull()) {
        if (byId.containsKey(reserved)) {
          violations.add("pending reservation " + key + " but resource " + reserved
              + " was published without its receipt");
        }
      } else if (receipt.hasNonNull("errorCode") && byId.containsKey(reserved)) {
        violations.add("receipt " + key + " records a rejection, yet resource " + reserved
            + " was published under its reservation");
      } else if (receipt.hasNonNull("resource")
          && !"EXISTING".equals(receipt.path("disposition").asText())
          && !receipt.path("resource").path("id").asText().equals(reserved)) {
        violations.add("receipt " + key + " records a resource other than its reservation");
      }
    }

    checkCredentials(tx, byId, partitions, violations);
    JobInvariants.check(tx, byId, partitions, violations);
    ClaimInvariants.check(tx, byId, violations);

    for (KeyValue kv : all(tx, KeySubspace.FENCES.range())) {
      partitions.add(KeySubspace.FENCES.unpack(kv.key()).getString(0));
    }
    for (String partition : partitions) {
      if (partition.equals(KeyLayout.ROOT_PARTITION)) {
        continue;
      }
      ResourceRef account = ResourceRef.account(partition);
      boolean exists = tx.get(KeyLayout.resource(account)) != null;
      boolean fenced = tx.get(KeyLayout.fence(account)) != null;
      if (!exists) {
        violations.add((fenced ? "keys behind the deletion fence of account "
            : "keys of unknown account ") + partition);
      }
    }
    for (KeyValue kv : all(tx, KeyLayout.fences(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT)
        .range())) {
      String id = KeyLayout.fences(KeyLayout.ROOT_PARTITION, ResourceKind.ACCOUNT)
          .unpack(kv.key()).getString(0);
      if (byId.containsKey(id)) {
        violations.add("account " + id + " is fenced but its record exists (a delete did not"
            + " finish)");
      } else if (json(kv.value()).path("cleanedAt").isNull()) {
        violations.add("account " + id + " is deleted but its cleanup did not finish");
      }
    }
    return violations;
  }

  /** The invariants given to {@link #with}; keys in a subspace none of them covers are reported. */
  private void checkAboveCore(ReadTransaction tx, Map<String, Resource<?>> byId,
      List<String> violations) {
    Set<Subspace> covered = new HashSet<>();
    for (StoredInvariants invariants : extra) {
      covered.addAll(invariants.subspaces());
      invariants.check(tx, byId, violations);
    }
    for (Subspace subspace : CHECKED_ABOVE_CORE) {
      int keys = covered.contains(subspace) ? 0 : all(tx, subspace.range()).size();
      if (keys > 0) {
        violations.add(keys + " key(s) under " + subspace + " that no invariants were given for "
            + "(check with overlay-store's ContributionInvariants)");
      }
    }
  }

  /**
   * Overlay invariants (seed 000, "Catalog overlay", "Fenced dependencies and cascades"): each
   * Overlay's Integration and Catalog exist in its account and carry no fence, and each owner
   * with Overlays has its counter; a Catalog fence (kept after a catalog delete) has no record or
   * resource under it; an Integration or Overlay fence is removed with its record, so any such
   * fence on a quiescent store is a delete that did not finish or a fence behind which nothing
   * should remain.
   */
  private static void checkOverlays(ReadTransaction tx, Map<String, Resource<?>> byId,
      Map<String, Long> overlaysPerOwner, List<String> violations) {
    for (Resource<?> resource : byId.values()) {
      if (!(resource.spec() instanceof CatalogOverlay overlay)) {
        continue;
      }
      for (ResourceRef owner : List.of(
          new ResourceRef(resource.accountId(), ResourceKind.INTEGRATION, overlay.integrationId()),
          new ResourceRef(resource.accountId(), ResourceKind.CATALOG, overlay.catalogId()))) {
        Resource<?> found = byId.get(owner.id());
        if (found == null || !found.ref().equals(owner)) {
          violations.add(resource.ref() + " is bound to missing " + owner);
        } else if (tx.get(KeyLayout.counter(owner, ResourceKind.OVERLAY)) == null) {
          violations.add(owner + " has overlays but no overlay counter");
        }
        if (tx.get(KeyLayout.fence(owner)) != null) {
          violations.add(resource.ref() + " lives behind the deletion fence of " + owner);
        }
      }
    }
    for (KeyValue kv : all(tx, KeySubspace.FENCES.range())) {
      Tuple key = KeySubspace.FENCES.unpack(kv.key());
      ResourceKind kind = ResourceKind.ofTag((int) key.getLong(1));
      if (kind == ResourceKind.ACCOUNT) {
        continue;
      }
      String id = key.getString(2);
      boolean exists = byId.containsKey(id);
      if (kind == ResourceKind.CATALOG) {
        if (exists) {
          violations.add("catalog " + id + " is fenced but its record exists");
        }
        for (Resource<?> r : byId.values()) {
          if (r.spec() instanceof Namespace ns && ns.catalogId().equals(id)
              || r.spec() instanceof Table t && t.catalogId().equals(id)
              || r.spec() instanceof View v && v.catalogId().equals(id)) {
            violations.add(r.ref() + " was created behind the deletion fence of catalog " + id);
          }
        }
      } else {
        violations.add(kind.label() + " " + id + (exists
            ? " is still fenced: its delete did not finish"
            : " is deleted but its fence remains"));
      }
    }
  }

  /**
   * Credential invariants (seed 000, credential publication): every stored generation is the one
   * its owner references or is noted as an orphan candidate; every generation an integration or
   * catalog references is stored and, when a CredentialStore was given, decrypts; candidate notes
   * live only in existing accounts.
   */
  private void checkCredentials(ReadTransaction tx, Map<String, Resource<?>> byId,
      Set<String> partitions, List<String> violations) {
    Set<String> candidates = new HashSet<>();
    for (KeyValue kv : all(tx, KeySubspace.CREDENTIAL_CANDIDATES.range())) {
      Tuple key = KeySubspace.CREDENTIAL_CANDIDATES.unpack(kv.key());
      partitions.add(key.getString(0));
      candidates.add(key.getString(1) + "#" + key.getLong(2));
      if (settled) {
        violations.add("credential generation " + key.getLong(2) + " of " + key.getString(1)
            + " is noted as an orphan candidate but was never removed");
      }
    }
    // a deleted Catalog whose tables' generated files await collection keeps its secret
    Map<String, Resource<?>> deletedCatalogs = new HashMap<>();
    for (KeyValue kv : all(tx, KeySubspace.GENERATED_DELETED.range())) {
      Tuple key = KeySubspace.GENERATED_DELETED.unpack(kv.key());
      if (key.getString(2).equals("catalog")) {
        deletedCatalogs.put(key.getString(1), codec(ResourceKind.CATALOG).read(kv.value()));
        Range pending = KeyLayout.deletedTablesOf(key.getString(0), key.getString(1)).range();
        if (all(tx, pending).isEmpty()) {
          violations.add("deleted catalog " + key.getString(1)
              + " is kept for generated-file collection but no table of it is pending");
        }
      } else if (key.getString(2).equals("writing") && !byId.containsKey(key.getString(3))) {
        // the deleting transaction turns a capture's write lease into a pending entry
        violations.add("table " + key.getString(3) + " is deleted but a capture's write lease "
            + "on its generated files is left (no entry for the collector)");
      }
    }
    for (KeyValue kv : all(tx, KeySubspace.CREDENTIALS.range())) {
      Tuple key = KeySubspace.CREDENTIALS.unpack(kv.key());
      String owner = key.getString(0);
      long generation = key.getLong(1);
      Resource<?> holder = byId.containsKey(owner) ? byId.get(owner) : deletedCatalogs.get(owner);
      if (referencedGeneration(holder) != generation
          && !candidates.contains(owner + "#" + generation)) {
        violations.add("credential generation " + generation + " of " + owner
            + " is neither referenced by its owner nor an orphan candidate");
      }
    }
    for (Resource<?> resource : byId.values()) {
      long generation = referencedGeneration(resource);
      if (generation <= 0) {
        continue;
      }
      if (tx.get(KeyLayout.credential(resource.id(), generation)) == null) {
        violations.add(resource.ref() + " references credential generation " + generation
            + ", which is not stored");
      } else if (credentials != null) {
        try {
          credentials.read(tx, resource.id(), generation);
        } catch (RuntimeException e) {
          violations.add(resource.ref() + " credential generation " + generation
              + " is not readable: " + e.getMessage());
        }
      }
    }
  }

  private static long referencedGeneration(Resource<?> resource) {
    if (resource == null) {
      return -1;
    }
    if (resource.spec() instanceof io.icegate.core.model.Integration integration) {
      return integration.credentialGeneration();
    }
    if (resource.spec() instanceof Catalog catalog) {
      return catalog.credentialGeneration();
    }
    return -1;
  }

  private static byte[] nameKey(String partition, Resource<?> resource) {
    ResourceSpec spec = resource.spec();
    return KeyLayout.name(partition, spec.kind(), spec.nameScope(), spec.displayName());
  }

  private static List<KeyValue> all(ReadTransaction tx, Range range) {
    return tx.getRange(range.begin, range.end);
  }

  private static JsonNode json(byte[] bytes) {
    try {
      return ModelJson.mapper().readTree(bytes);
    } catch (IOException e) {
      throw new AssertionError("unreadable stored JSON", e);
    }
  }

  private static ResourceCodec<?> codec(ResourceKind kind) {
    return switch (kind) {
      case ACCOUNT -> new ResourceCodec<>(Account.class);
      case CATALOG -> new ResourceCodec<>(Catalog.class);
      case NAMESPACE -> new ResourceCodec<>(Namespace.class);
      case TABLE -> new ResourceCodec<>(Table.class);
      case VIEW -> new ResourceCodec<>(View.class);
      case INTEGRATION -> new ResourceCodec<>(io.icegate.core.model.Integration.class);
      case OVERLAY -> new ResourceCodec<>(CatalogOverlay.class);
    };
  }
}
