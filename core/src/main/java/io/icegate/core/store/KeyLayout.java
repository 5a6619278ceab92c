package io.icegate.core.store;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.NameScope;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import java.util.List;

/**
 * Every key icegate writes, built in one place. The subspaces and their tags are {@link
 * KeySubspace}; keys inside them are FoundationDB tuples, so they sort by their elements in every
 * driver. Nobody builds keys by hand elsewhere: repositories ask this class for the keys and
 * subspaces they own.
 *
 * <p><b>Partitions.</b> Every subspace that holds account data starts its keys with a partition:
 * the account id for everything inside an account, {@link #ROOT_PARTITION} for accounts themselves
 * (their records, server-wide name index, receipts of account creates and account fences). So
 * deleting an account's descendants is a range clear of one prefix per subspace ({@link
 * #accountPartitions}), and listing accounts is a range read of the root partition.
 *
 * <p>Kinds appear in keys as {@link ResourceKind#tag()}. A {@link NameScope} appears as no
 * elements ({@link NameScope.AccountWide}) or as {@code (catalog id, nested tuple of the path)}
 * ({@link NameScope.InCatalog}); the nested tuple keeps segment boundaries, so ["a.b"] and
 * ["a","b"] are different keys, and the children of one parent form one contiguous range.
 */
public final class KeyLayout {

  /** The partition of accounts themselves (account ids are UUIDs, so never empty). */
  public static final String ROOT_PARTITION = "";

  /** Name of the page-token HMAC key in {@link KeySubspace#META}. */
  public static final String META_PAGE_TOKEN_KEY = "page-token-hmac-key";

  /** Name of the master key check in {@link KeySubspace#META} ({@code MasterKeyCheck}). */
  public static final String META_MASTER_KEY_CHECK = "master-key-check";

  private KeyLayout() {}

  /** The partition {@code ref}'s keys live in: the root partition for accounts. */
  public static String partitionOf(ResourceRef ref) {
    return ref.kind() == ResourceKind.ACCOUNT ? ROOT_PARTITION : ref.accountId();
  }

  /** The grant of the token whose SHA-256 hex digest is {@code digest}. */
  public static byte[] token(String digest) {
    return KeySubspace.TOKENS.pack(Tuple.from(digest));
  }

  /** The encrypted secret of {@code ownerId} at {@code generation}. */
  public static byte[] credential(String ownerId, long generation) {
    return KeySubspace.CREDENTIALS.pack(Tuple.from(ownerId, generation));
  }

  /** Every credential generation of {@code ownerId}, in generation order. */
  public static Subspace credentials(String ownerId) {
    return KeySubspace.CREDENTIALS.get(Tuple.from(ownerId));
  }

  /** The orphan-candidate note of {@code ownerId}'s generation {@code generation}. */
  public static byte[] credentialCandidate(String accountId, String ownerId, long generation) {
    return KeySubspace.CREDENTIAL_CANDIDATES.pack(Tuple.from(accountId, ownerId, generation));
  }

  /** Every orphan-candidate note of account {@code accountId}. */
  public static Subspace credentialCandidates(String accountId) {
    return KeySubspace.CREDENTIAL_CANDIDATES.get(Tuple.from(accountId));
  }

  /** Every orphan-candidate note of owner {@code ownerId} in account {@code accountId}. */
  public static Subspace credentialCandidates(String accountId, String ownerId) {
    return KeySubspace.CREDENTIAL_CANDIDATES.get(Tuple.from(accountId, ownerId));
  }

  /** A store-wide metadata entry. */
  public static byte[] meta(String name) {
    return KeySubspace.META.pack(Tuple.from(name));
  }

  /** The record of resource {@code ref}. */
  public static byte[] resource(ResourceRef ref) {
    return KeySubspace.RESOURCES.pack(Tuple.from(partitionOf(ref), ref.kind().tag(), ref.id()));
  }

  /** All records of one kind in one partition (for scans and invariant checks). */
  public static Subspace resources(String partition, ResourceKind kind) {
    return KeySubspace.RESOURCES.get(Tuple.from(partition, kind.tag()));
  }

  /** The name-index entry of {@code name} among resources of {@code kind} in {@code scope}. */
  public static byte[] name(String partition, ResourceKind kind, NameScope scope, String name) {
    return names(partition, kind, scope).pack(Tuple.from(name));
  }

  /** The name-index entries of {@code kind} in {@code scope}: a listing is a range read of it. */
  public static Subspace names(String partition, ResourceKind kind, NameScope scope) {
    return KeySubspace.NAME_INDEX.get(
        Tuple.from(partition, kind.tag()).addAll(scopeElements(scope)));
  }

  /**
   * The name-index entries of {@code kind} in {@code scope} whose name starts with {@code prefix}
   * (every entry for an empty prefix). Tuple-encoded strings keep the prefix order of their UTF-8
   * bytes while they hold no NUL, which names never do (they exclude control characters).
   */
  public static Range names(String partition, ResourceKind kind, NameScope scope, String prefix) {
    Subspace names = names(partition, kind, scope);
    if (prefix.isEmpty()) {
      return names.range();
    }
    byte[] packed = names.pack(Tuple.from(prefix));
    byte[] begin = java.util.Arrays.copyOf(packed, packed.length - 1); // drop the string terminator
    return new Range(begin, ByteArrayUtil.strinc(begin));
  }

  /**
   * Every name-index entry of {@code kind} in catalog {@code catalogId}, whatever the path: e.g.
   * "does this catalog still hold namespaces".
   */
  public static Subspace namesInCatalog(String partition, ResourceKind kind, String catalogId) {
    return KeySubspace.NAME_INDEX.get(Tuple.from(partition, kind.tag(), catalogId));
  }

  /** Every name-index entry of {@code kind} in one partition (for invariant checks). */
  public static Subspace names(String partition, ResourceKind kind) {
    return KeySubspace.NAME_INDEX.get(Tuple.from(partition, kind.tag()));
  }

  /** The claim of {@code overlayId} on namespace {@code namespaceId}. */
  public static byte[] claim(String accountId, String namespaceId, String overlayId) {
    return KeySubspace.CLAIMS.pack(Tuple.from(accountId, "namespace", namespaceId, overlayId));
  }

  /** Every claim on namespace {@code namespaceId}, in overlay-id order. */
  public static Subspace claimsOnNamespace(String accountId, String namespaceId) {
    return KeySubspace.CLAIMS.get(Tuple.from(accountId, "namespace", namespaceId));
  }

  /** The reverse entry of {@code overlayId}'s claim on {@code namespaceId}. */
  public static byte[] claimOfOverlay(String accountId, String overlayId, String namespaceId) {
    return KeySubspace.CLAIMS.pack(Tuple.from(accountId, "overlay", overlayId, namespaceId));
  }

  /** Every namespace {@code overlayId} claims (reverse entries), in namespace-id order. */
  public static Subspace claimsOfOverlay(String accountId, String overlayId) {
    return KeySubspace.CLAIMS.get(Tuple.from(accountId, "overlay", overlayId));
  }

  /** The managed-relation index entry of {@code externalId} for {@code overlayId}. */
  public static byte[] managed(
      String accountId, String overlayId, ResourceKind kind, String externalId) {
    return KeySubspace.MANAGED.pack(Tuple.from(accountId, overlayId, kind.tag(), externalId));
  }

  /** Every managed-relation index entry of {@code overlayId}. */
  public static Subspace managedBy(String accountId, String overlayId) {
    return KeySubspace.MANAGED.get(Tuple.from(accountId, overlayId));
  }

  /** The reconcile-run record of {@code overlayId}. */
  public static byte[] run(String accountId, String overlayId) {
    return KeySubspace.RUNS.pack(Tuple.from(accountId, overlayId));
  }

  /** The upstream job of Integration {@code integrationId}. */
  public static byte[] job(String accountId, String integrationId) {
    return KeySubspace.JOBS.pack(Tuple.from(accountId, integrationId));
  }

  /** Scheduler state of {@code integrationId}: its own at {@code pack()}, an Overlay's below. */
  public static Subspace schedules(String accountId, String integrationId) {
    return KeySubspace.SCHEDULES.get(Tuple.from(accountId, integrationId));
  }

  /** When a collection pass last saw {@code metadataFile} as table {@code tableId}'s capture. */
  public static byte[] generatedSeen(String accountId, String tableId, String metadataFile) {
    return KeySubspace.GENERATED.pack(Tuple.from(accountId, tableId, metadataFile));
  }

  /** Every generated-file collection entry of table {@code tableId}. */
  public static Subspace generatedOf(String accountId, String tableId) {
    return KeySubspace.GENERATED.get(Tuple.from(accountId, tableId));
  }

  /** The pending-collection entry of deleted table {@code tableId} of {@code catalogId}. */
  public static byte[] generatedDeletedTable(String accountId, String catalogId, String tableId) {
    return deletedTablesOf(accountId, catalogId).pack(Tuple.from(tableId));
  }

  /** Every pending-collection entry of a deleted table of {@code catalogId}. */
  public static Subspace deletedTablesOf(String accountId, String catalogId) {
    return KeySubspace.GENERATED_DELETED.get(Tuple.from(accountId, catalogId, "table"));
  }

  /**
   * The write lease of a capture on table {@code tableId}'s generated prefix under {@code
   * catalogId}'s warehouse: taken before it writes a file there, while the table is live.
   */
  public static byte[] generatedWriting(String accountId, String catalogId, String tableId) {
    return KeySubspace.GENERATED_DELETED.pack(Tuple.from(accountId, catalogId, "writing",
        tableId));
  }

  /** Every pending-collection entry, write lease and deleted Catalog record of an account. */
  public static Subspace generatedDeletedOf(String accountId) {
    return KeySubspace.GENERATED_DELETED.get(Tuple.from(accountId));
  }

  /** The record of deleted Catalog {@code catalogId}, kept while its tables' files are pending. */
  public static byte[] generatedDeletedCatalog(String accountId, String catalogId) {
    return KeySubspace.GENERATED_DELETED.pack(Tuple.from(accountId, catalogId, "catalog"));
  }

  /** The scheduler state of Integration {@code integrationId}. */
  public static byte[] schedule(String accountId, String integrationId) {
    return schedules(accountId, integrationId).pack();
  }

  /** The last round of Overlay {@code overlayId} under Integration {@code integrationId}. */
  public static byte[] overlaySchedule(String accountId, String integrationId, String overlayId) {
    return schedules(accountId, integrationId).pack(Tuple.from(overlayId));
  }

  /** The held mark of relation {@code relationId} of Overlay {@code overlayId}. */
  public static byte[] held(String accountId, String overlayId, String relationId) {
    return KeySubspace.HELD.pack(Tuple.from(accountId, overlayId, relationId));
  }

  /** Every held mark of Overlay {@code overlayId}. */
  public static Subspace heldBy(String accountId, String overlayId) {
    return KeySubspace.HELD.get(Tuple.from(accountId, overlayId));
  }

  /** The capture pointer of table {@code tableId}. */
  public static byte[] capture(String accountId, String tableId) {
    return KeySubspace.CAPTURES.pack(Tuple.from(accountId, tableId));
  }

  /** Every validation key of table {@code tableId}: pointer, allocation, errors, override. */
  public static Subspace validations(String accountId, String tableId) {
    return KeySubspace.VALIDATIONS.get(Tuple.from(accountId, tableId));
  }

  /** The validation pointer of table {@code tableId}. */
  public static byte[] validationPointer(String accountId, String tableId) {
    return validations(accountId, tableId).pack(Tuple.from("pointer"));
  }

  /** The highest validation generation handed out for table {@code tableId}. */
  public static byte[] validationAllocated(String accountId, String tableId) {
    return validations(accountId, tableId).pack(Tuple.from("allocated"));
  }

  /** The visibility override of table {@code tableId}. */
  public static byte[] visibilityOverride(String accountId, String tableId) {
    return validations(accountId, tableId).pack(Tuple.from("override"));
  }

  /** Every error record of table {@code tableId}, all generations, in (generation, seq) order. */
  public static Subspace validationErrors(String accountId, String tableId) {
    return validations(accountId, tableId).get(Tuple.from("errors"));
  }

  /** The error records of table {@code tableId}'s validation generation {@code generation}. */
  public static Subspace validationErrors(String accountId, String tableId, long generation) {
    return validationErrors(accountId, tableId).get(Tuple.from(generation));
  }

  /**
   * Error record {@code seq} of table {@code tableId}'s validation generation {@code generation}.
   */
  public static byte[] validationError(
      String accountId, String tableId, long generation, int seq) {
    return validationErrors(accountId, tableId, generation).pack(Tuple.from(seq));
  }

  /**
   * The error records of table {@code tableId}'s validation generations below {@code generation}.
   */
  public static Range validationErrorsBelow(String accountId, String tableId, long generation) {
    Subspace all = validationErrors(accountId, tableId);
    return new Range(all.range().begin, all.pack(Tuple.from(generation)));
  }

  /** Every chunk of blob {@code digest}, in chunk order. */
  public static Subspace blobChunks(String digest) {
    return KeySubspace.BLOBS.get(Tuple.from(digest));
  }

  /** Chunk {@code index} of blob {@code digest}. */
  public static byte[] blobChunk(String digest, int index) {
    return blobChunks(digest).pack(Tuple.from(index));
  }

  /** The marker of blob {@code digest}. */
  public static byte[] blobMarker(String digest) {
    return KeySubspace.BLOB_MARKERS.pack(Tuple.from(digest));
  }

  /** The reference hints of blob {@code digest} (its marker itself lies outside this range). */
  public static Subspace blobReferences(String digest) {
    return KeySubspace.BLOB_MARKERS.get(Tuple.from(digest));
  }

  /** The reference hint saying table {@code tableId}'s pointer names blob {@code digest}. */
  public static byte[] blobReference(String digest, String accountId, String tableId) {
    return KeySubspace.BLOB_MARKERS.pack(Tuple.from(digest, accountId, tableId));
  }

  /** The record of asynchronous operation {@code operationId}. */
  public static byte[] operation(String accountId, String operationId) {
    return KeySubspace.OPERATIONS.pack(Tuple.from(accountId, operationId));
  }

  /** Every definition chunk of relation {@code relationId}, in chunk order. */
  public static Subspace definition(String accountId, ResourceKind kind, String relationId) {
    return KeySubspace.DEFINITIONS.get(Tuple.from(accountId, kind.tag(), relationId));
  }

  /** Chunk {@code index} of relation {@code relationId}'s definition. */
  public static byte[] definitionChunk(
      String accountId, ResourceKind kind, String relationId, int index) {
    return definition(accountId, kind, relationId).pack(Tuple.from(index));
  }

  /** The idempotency record of {@code key} for {@code operation} in {@code partition}. */
  public static byte[] receipt(String partition, String operation, String key) {
    return KeySubspace.RECEIPTS.pack(Tuple.from(partition, operation, key));
  }

  /** Every idempotency record of a partition (sweeping, cleanup, invariant checks). */
  public static Subspace receipts(String partition) {
    return KeySubspace.RECEIPTS.get(Tuple.from(partition));
  }

  /**
   * The claim of Catalog {@code catalogId} of account {@code accountId} on the warehouse whose
   * normal form is {@code path} ({@code (scheme, authority, segment...)}).
   */
  public static byte[] warehouseClaim(Tuple path, String accountId, String catalogId) {
    return KeySubspace.WAREHOUSE_CLAIMS.pack(path.addObject(null).add(accountId).add(catalogId));
  }

  /** Every claim on exactly the warehouse {@code path}, of any account. */
  public static Subspace warehouseClaimsOn(Tuple path) {
    return KeySubspace.WAREHOUSE_CLAIMS.get(path.addObject(null));
  }

  /** Every claim on the warehouse {@code path} or on a path inside it, of any account. */
  public static Subspace warehouseClaimsUnder(Tuple path) {
    return KeySubspace.WAREHOUSE_CLAIMS.get(path);
  }

  /** The deletion fence of {@code ref}. */
  public static byte[] fence(ResourceRef ref) {
    return KeySubspace.FENCES.pack(Tuple.from(partitionOf(ref), ref.kind().tag(), ref.id()));
  }

  /** Every fence of one kind in one partition (resuming interrupted deletions). */
  public static Subspace fences(String partition, ResourceKind kind) {
    return KeySubspace.FENCES.get(Tuple.from(partition, kind.tag()));
  }

  /** The counter of {@code dependent}-kind resources that depend on {@code owner}. */
  public static byte[] counter(ResourceRef owner, ResourceKind dependent) {
    return counters(owner).pack(Tuple.from(dependent.tag()));
  }

  /** Every dependency counter of {@code owner}. */
  public static Subspace counters(ResourceRef owner) {
    return KeySubspace.COUNTERS.get(
        Tuple.from(partitionOf(owner), owner.kind().tag(), owner.id()));
  }

  /**
   * Every prefix that holds keys of account {@code accountId}'s descendants, in the order account
   * cleanup clears them. The order does not matter for safety (the account fence stops every
   * mutation in the partition first); fences and counters go last so a half-done cleanup still
   * shows what it guarded. Subspaces keyed otherwise (credentials, blobs) are cleaned by
   * cleanup steps of their own: a blob whose pointers went with the account is left to the chunk
   * collector.
   */
  public static List<Subspace> accountPartitions(String accountId) {
    Tuple partition = Tuple.from(accountId);
    return List.of(
        KeySubspace.RESOURCES.get(partition),
        KeySubspace.NAME_INDEX.get(partition),
        KeySubspace.RECEIPTS.get(partition),
        KeySubspace.CLAIMS.get(partition),
        KeySubspace.MANAGED.get(partition),
        KeySubspace.DEFINITIONS.get(partition),
        KeySubspace.RUNS.get(partition),
        KeySubspace.OPERATIONS.get(partition),
        KeySubspace.CAPTURES.get(partition),
        KeySubspace.VALIDATIONS.get(partition),
        KeySubspace.HELD.get(partition),
        KeySubspace.JOBS.get(partition),
        KeySubspace.SCHEDULES.get(partition),
        KeySubspace.GENERATED.get(partition),
        KeySubspace.FENCES.get(partition),
        KeySubspace.COUNTERS.get(partition));
  }

  private static Tuple scopeElements(NameScope scope) {
    // Java 17 has no pattern switch; NameScope is sealed, so these two cases are all of them.
    if (scope instanceof NameScope.InCatalog in) {
      return Tuple.from(in.catalogId(), Tuple.fromList(in.path()));
    }
    return new Tuple();
  }

}
