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
 * Every key icegate writes, described once. Each subspace is a FoundationDB tuple-layer prefix
 * (a small integer, to keep keys short); keys inside it are tuples, so they sort by their elements
 * in every driver. Nobody builds keys by hand elsewhere: repositories ask this class for the
 * subspace they own and pack tuples under it.
 *
 * <p>Changing a tag renders existing stores unreadable: tags are never reused or renumbered.
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
 *
 * <p>The overlay domain's subspaces ({@link #CLAIMS}, {@link #MANAGED}, {@link #DEFINITIONS},
 * {@link #CAPTURES}, {@link #BLOB_MARKERS}, {@link #VALIDATIONS}, {@link #BLOBS}) are declared here
 * like every other, and written by the classes of the overlay-store module ({@code
 * io.icegate.overlay.store}) named in their comments.
 */
public final class KeyLayout {

  /**
   * Store-wide metadata: {@code (name) -> value}. Holds the layout format version and the
   * page-token HMAC key (generated once, shared by every gateway instance). Written by the store
   * bootstrap.
   */
  public static final Subspace META = subspace(0);

  /**
   * Resource records: {@code (partition, kind, resource id) -> JSON envelope}. Written only by the
   * resource repository, in the same transaction as the name index entry and any receipt.
   */
  public static final Subspace RESOURCES = subspace(1);

  /**
   * Display-name index: {@code (partition, kind, scope..., name) -> resource id}, one entry per live
   * resource, keeping names unique in their scope; listings are range reads of it, in name order.
   * Tables and views have one index each; the repository checks the sibling kind's entry in the
   * same transaction (one relation-name scope). Written with {@link #RESOURCES}.
   */
  public static final Subspace NAME_INDEX = subspace(2);

  /**
   * Idempotency records: {@code (partition, operation, idempotency key) -> pending reservation or
   * immutable receipt} (JSON). Written by the idempotent-create protocol: the pending record in its
   * own transaction, the receipt in the transaction that publishes the resource.
   */
  public static final Subspace RECEIPTS = subspace(3);

  /**
   * Deletion fences: {@code (partition, kind, resource id) -> fence} (JSON). Installed before a
   * multi-transaction delete; every mutation under the fenced resource asserts its absence in its
   * own transaction. An account's fence (root partition) outlives the account: it marks the
   * account as deleted so a repeated delete replays cleanup.
   */
  public static final Subspace FENCES = subspace(4);

  /**
   * Dependency counters: {@code (partition, kind, resource id, dependent kind) -> count} (8 bytes,
   * big-endian). Changed in the same transaction as the dependent's create or delete, and asserted
   * in the same transaction as the delete they guard.
   */
  public static final Subspace COUNTERS = subspace(5);

  /**
   * Namespace claims (seed 000, "Catalog overlay"), two entries per claim written together:
   * {@code (account id, "namespace", namespace id, overlay id) -> claim} (JSON) answers "who claims
   * this namespace" for drop and move checks; {@code (account id, "overlay", overlay id, namespace
   * id) -> empty} answers "what does this Overlay claim" for retirement. Written by reconciliation
   * ({@code NamespaceClaims}).
   */
  public static final Subspace CLAIMS = subspace(6);

  /**
   * The managed-relation index: {@code (account id, overlay id, kind, external id) -> relation id}.
   * One entry per Table or View an Overlay materialized, keyed by the provider's identity, so a
   * reconcile finds the resource of an upstream object after an upstream rename, and retirement
   * lists an Overlay's relations with one range read. Written with the relation's record ({@code
   * ManagedRelations}).
   */
  public static final Subspace MANAGED = subspace(11);

  /**
   * Definitions of managed relations: {@code (account id, kind, relation id, chunk index) ->
   * bytes}, the Iceberg table or view metadata (without snapshots) the gateway serves, split into
   * chunks below the value limit. Written and cleared in the relation record's transaction.
   */
  public static final Subspace DEFINITIONS = subspace(12);

  /**
   * Reconcile runs: {@code (account id, overlay id) -> run record} (JSON: run generation, state,
   * holder operation id, start time, lease expiry). One record per Overlay; a run writes it in its
   * first publishing transaction, taking the next generation, and every later publication of that
   * run asserts it is still its own, so an older run can no longer publish or retire; a run that
   * changes nothing never writes it. Written by {@link io.icegate.core.overlay.ReconcileRuns}.
   */
  public static final Subspace RUNS = subspace(13);

  /**
   * Asynchronous operations: {@code (account id, operation id) -> operation} (JSON: the Overlay,
   * state, phase, counts, and the final report or problem). Written when an asynchronous reconcile
   * starts and when it ends ({@link io.icegate.core.overlay.OperationRecords}).
   */
  public static final Subspace OPERATIONS = subspace(14);

  /**
   * Capture pointers: {@code (account id, table id) -> pointer} (JSON: capture generation, upstream
   * metadata location, blob digest and size, capture time). One per captured managed Table; the
   * captured metadata itself lives in {@link #BLOBS}, written before the pointer transaction that
   * names it. Written by {@code Captures} in a fenced transaction that
   * asserts the capture generation it read; cleared with the Table ({@code
   * ManagedRelations#forget}).
   */
  public static final Subspace CAPTURES = subspace(15);

  /**
   * Blob bookkeeping beside {@link #BLOBS}: {@code (sha-256) -> marker} (JSON: write time, size,
   * chunk count), refreshed by every write of the blob; and {@code (sha-256, account id, table
   * id) -> empty}, a reference hint set in the pointer transaction that names the blob. The
   * chunk collector ({@code CaptureChunkCollector}) deletes a blob only
   * when no hint leads to a pointer naming it and its marker is older than the grace period.
   */
  public static final Subspace BLOB_MARKERS = subspace(16);

  /**
   * Validation state of managed Tables (issue 10, "Validation"), four kinds of key per table:
   * {@code (account id, table id, "pointer") -> status} (JSON {@code
   * ValidationStatus}: validation generation, the capture generation it
   * validated, state, error count, validation time); {@code (account id, table id, "allocated") ->
   * highest validation generation handed out} (8 bytes, big-endian), so two concurrent
   * publications never write their error records under the same generation; {@code (account id,
   * table id, "errors", validation generation, seq) -> error record} (JSON); {@code (account id,
   * table id, "override") -> visibility override} (JSON). Error records of a new generation are
   * written before the transaction that switches the pointer to it, which also clears every
   * older generation. Written by {@code TableValidations}; the whole
   * table's range is cleared with the Table ({@code
   * ManagedRelations#forget}) and with its account.
   */
  public static final Subspace VALIDATIONS = subspace(17);

  /**
   * Held marks (issue 21, "Held objects"): {@code (account id, overlay id, relation id) -> mark}
   * (JSON: code, message, since). A relation an Overlay materialized earlier whose upstream object
   * is held this run keeps its state and gets a mark; written by overlay-engine's {@code HeldMarks}
   * inside the run's fenced transactions, removed once the object is published again, the
   * relation retired or the Overlay's contributions retired.
   */
  public static final Subspace HELD = subspace(18);

  /**
   * Upstream jobs (issue 27): {@code (account id, integration id) -> job} (JSON {@link
   * io.icegate.core.jobs.UpstreamJob}: planned generations, participants, epoch, lease), at most
   * one per Integration, never a field of its record. Written by {@link
   * io.icegate.core.jobs.UpstreamJobs}; removed by {@link io.icegate.core.jobs.JobCleanup}.
   */
  public static final Subspace JOBS = subspace(19);

  /**
   * Scheduler state (issue 27): {@code (account id, integration id) -> state} (JSON {@link
   * io.icegate.core.jobs.SchedulerState}) and {@code (account id, integration id, overlay id) ->
   * that Overlay's last round}. Written when a round ends; removed like {@link #JOBS}.
   */
  public static final Subspace SCHEDULES = subspace(20);

  /**
   * Generated-file collection (issue 26, "Where generated files live"): {@code (account id, table
   * id, metadata file) -> last seen} (8 bytes, big-endian epoch milliseconds), a metadata file
   * icegate wrote for a captured Delta table and when a collection pass last saw it as the
   * table's current capture. The files it references stay for the grace period after that (a
   * reader may still hold it); an entry older than the grace is cleared. Written only by
   * overlay-engine's {@code GeneratedFilesCollector}, inside the transaction that reads the
   * capture pointer it decides on; cleared with the account.
   */
  public static final Subspace GENERATED = subspace(21);

  /**
   * Encrypted secrets: {@code (owner resource id, credential generation) -> AES-GCM ciphertext}.
   * Written by the CredentialStore only.
   */
  public static final Subspace CREDENTIALS = subspace(7);

  /**
   * Credential orphan candidates: {@code (account id, owner resource id, credential generation) ->
   * JSON note}. Written by the CredentialStore in the transaction that stores a prepared secret
   * and cleared in the transaction that publishes it; set for the old generation when a rotation
   * publishes, cleared when it is retired. Whatever stays after a failure (a commit with unknown
   * result, a failed cleanup) is a generation an orphan reclaimer must check (seed 000).
   */
  public static final Subspace CREDENTIAL_CANDIDATES = subspace(10);

  /**
   * Content-addressed chunks of large immutable payloads: {@code (sha-256, chunk index) -> bytes}.
   * Written before the pointer transaction that references them, with their marker in {@link
   * #BLOB_MARKERS} ({@code Blobs}).
   */
  public static final Subspace BLOBS = subspace(8);

  /**
   * API tokens: {@code (sha-256 hex of the token) -> grant} (JSON: account id, role, server-admin
   * flag, name; optional created, expiry and last-used instants). Keyed by digest, never by the
   * token, so lookup needs no account and a leaked store reveals no token. Written by {@link
   * io.icegate.core.auth.ApiTokens} (bootstrap, token issue, revocation, last used).
   */
  public static final Subspace TOKENS = subspace(9);

  /**
   * Scratch space for the store self-check ({@code icegate store-check}), the conformance suite and
   * benchmarks; never read by the product.
   */
  public static final Subspace SCRATCH = subspace(127);

  /** The partition of accounts themselves (account ids are UUIDs, so never empty). */
  public static final String ROOT_PARTITION = "";

  /** Name of the page-token HMAC key in {@link #META}. */
  public static final String META_PAGE_TOKEN_KEY = "page-token-hmac-key";

  private KeyLayout() {}

  /** The partition {@code ref}'s keys live in: the root partition for accounts. */
  public static String partitionOf(ResourceRef ref) {
    return ref.kind() == ResourceKind.ACCOUNT ? ROOT_PARTITION : ref.accountId();
  }

  /** The grant of the token whose SHA-256 hex digest is {@code digest}. */
  public static byte[] token(String digest) {
    return TOKENS.pack(Tuple.from(digest));
  }

  /** The encrypted secret of {@code ownerId} at {@code generation}. */
  public static byte[] credential(String ownerId, long generation) {
    return CREDENTIALS.pack(Tuple.from(ownerId, generation));
  }

  /** Every credential generation of {@code ownerId}, in generation order. */
  public static Subspace credentials(String ownerId) {
    return CREDENTIALS.get(Tuple.from(ownerId));
  }

  /** The orphan-candidate note of {@code ownerId}'s generation {@code generation}. */
  public static byte[] credentialCandidate(String accountId, String ownerId, long generation) {
    return CREDENTIAL_CANDIDATES.pack(Tuple.from(accountId, ownerId, generation));
  }

  /** Every orphan-candidate note of account {@code accountId}. */
  public static Subspace credentialCandidates(String accountId) {
    return CREDENTIAL_CANDIDATES.get(Tuple.from(accountId));
  }

  /** A store-wide metadata entry. */
  public static byte[] meta(String name) {
    return META.pack(Tuple.from(name));
  }

  /** The record of resource {@code ref}. */
  public static byte[] resource(ResourceRef ref) {
    return RESOURCES.pack(Tuple.from(partitionOf(ref), ref.kind().tag(), ref.id()));
  }

  /** All records of one kind in one partition (for scans and invariant checks). */
  public static Subspace resources(String partition, ResourceKind kind) {
    return RESOURCES.get(Tuple.from(partition, kind.tag()));
  }

  /** The name-index entry of {@code name} among resources of {@code kind} in {@code scope}. */
  public static byte[] name(String partition, ResourceKind kind, NameScope scope, String name) {
    return names(partition, kind, scope).pack(Tuple.from(name));
  }

  /** The name-index entries of {@code kind} in {@code scope}: a listing is a range read of it. */
  public static Subspace names(String partition, ResourceKind kind, NameScope scope) {
    return NAME_INDEX.get(Tuple.from(partition, kind.tag()).addAll(scopeElements(scope)));
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
    return NAME_INDEX.get(Tuple.from(partition, kind.tag(), catalogId));
  }

  /** Every name-index entry of {@code kind} in one partition (for invariant checks). */
  public static Subspace names(String partition, ResourceKind kind) {
    return NAME_INDEX.get(Tuple.from(partition, kind.tag()));
  }

  /** The claim of {@code overlayId} on namespace {@code namespaceId}. */
  public static byte[] claim(String accountId, String namespaceId, String overlayId) {
    return CLAIMS.pack(Tuple.from(accountId, "namespace", namespaceId, overlayId));
  }

  /** Every claim on namespace {@code namespaceId}, in overlay-id order. */
  public static Subspace claimsOnNamespace(String accountId, String namespaceId) {
    return CLAIMS.get(Tuple.from(accountId, "namespace", namespaceId));
  }

  /** The reverse entry of {@code overlayId}'s claim on {@code namespaceId}. */
  public static byte[] claimOfOverlay(String accountId, String overlayId, String namespaceId) {
    return CLAIMS.pack(Tuple.from(accountId, "overlay", overlayId, namespaceId));
  }

  /** Every namespace {@code overlayId} claims (reverse entries), in namespace-id order. */
  public static Subspace claimsOfOverlay(String accountId, String overlayId) {
    return CLAIMS.get(Tuple.from(accountId, "overlay", overlayId));
  }

  /** The managed-relation index entry of {@code externalId} for {@code overlayId}. */
  public static byte[] managed(
      String accountId, String overlayId, ResourceKind kind, String externalId) {
    return MANAGED.pack(Tuple.from(accountId, overlayId, kind.tag(), externalId));
  }

  /** Every managed-relation index entry of {@code overlayId}. */
  public static Subspace managedBy(String accountId, String overlayId) {
    return MANAGED.get(Tuple.from(accountId, overlayId));
  }

  /** The reconcile-run record of {@code overlayId}. */
  public static byte[] run(String accountId, String overlayId) {
    return RUNS.pack(Tuple.from(accountId, overlayId));
  }

  /** The upstream job of Integration {@code integrationId}. */
  public static byte[] job(String accountId, String integrationId) {
    return JOBS.pack(Tuple.from(accountId, integrationId));
  }

  /** Scheduler state of {@code integrationId}: its own at {@code pack()}, an Overlay's below. */
  public static Subspace schedules(String accountId, String integrationId) {
    return SCHEDULES.get(Tuple.from(accountId, integrationId));
  }

  /** The held mark of relation {@code relationId} of Overlay {@code overlayId}. */
  public static byte[] held(String accountId, String overlayId, String relationId) {
    return HELD.pack(Tuple.from(accountId, overlayId, relationId));
  }

  /** Every held mark of Overlay {@code overlayId}. */
  public static Subspace heldBy(String accountId, String overlayId) {
    return HELD.get(Tuple.from(accountId, overlayId));
  }

  /** The capture pointer of table {@code tableId}. */
  public static byte[] capture(String accountId, String tableId) {
    return CAPTURES.pack(Tuple.from(accountId, tableId));
  }

  /** When a collection pass last saw {@code metadataFile} as table {@code tableId}'s capture. */
  public static byte[] generatedSeen(String accountId, String tableId, String metadataFile) {
    return GENERATED.pack(Tuple.from(accountId, tableId, metadataFile));
  }

  /** Every generated-file collection entry of table {@code tableId}. */
  public static Subspace generatedOf(String accountId, String tableId) {
    return GENERATED.get(Tuple.from(accountId, tableId));
  }

  /** Every validation key of table {@code tableId}: pointer, allocation, errors, override. */
  public static Subspace validations(String accountId, String tableId) {
    return VALIDATIONS.get(Tuple.from(accountId, tableId));
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

  /** Every chunk of blob {@code digest}, in chunk order. */
  public static Subspace blobChunks(String digest) {
    return BLOBS.get(Tuple.from(digest));
  }

  /** The marker of blob {@code digest}. */
  public static byte[] blobMarker(String digest) {
    return BLOB_MARKERS.pack(Tuple.from(digest));
  }

  /** The reference hints of blob {@code digest} (its marker itself lies outside this range). */
  public static Subspace blobReferences(String digest) {
    return BLOB_MARKERS.get(Tuple.from(digest));
  }

  /** The reference hint saying table {@code tableId}'s pointer names blob {@code digest}. */
  public static byte[] blobReference(String digest, String accountId, String tableId) {
    return BLOB_MARKERS.pack(Tuple.from(digest, accountId, tableId));
  }

  /** The record of asynchronous operation {@code operationId}. */
  public static byte[] operation(String accountId, String operationId) {
    return OPERATIONS.pack(Tuple.from(accountId, operationId));
  }

  /** Every definition chunk of relation {@code relationId}, in chunk order. */
  public static Subspace definition(String accountId, ResourceKind kind, String relationId) {
    return DEFINITIONS.get(Tuple.from(accountId, kind.tag(), relationId));
  }

  /** The idempotency record of {@code key} for {@code operation} in {@code partition}. */
  public static byte[] receipt(String partition, String operation, String key) {
    return RECEIPTS.pack(Tuple.from(partition, operation, key));
  }

  /** Every idempotency record of a partition (sweeping, cleanup, invariant checks). */
  public static Subspace receipts(String partition) {
    return RECEIPTS.get(Tuple.from(partition));
  }

  /** The deletion fence of {@code ref}. */
  public static byte[] fence(ResourceRef ref) {
    return FENCES.pack(Tuple.from(partitionOf(ref), ref.kind().tag(), ref.id()));
  }

  /** Every fence of one kind in one partition (resuming interrupted deletions). */
  public static Subspace fences(String partition, ResourceKind kind) {
    return FENCES.get(Tuple.from(partition, kind.tag()));
  }

  /** The counter of {@code dependent}-kind resources that depend on {@code owner}. */
  public static byte[] counter(ResourceRef owner, ResourceKind dependent) {
    return counters(owner).pack(Tuple.from(dependent.tag()));
  }

  /** Every dependency counter of {@code owner}. */
  public static Subspace counters(ResourceRef owner) {
    return COUNTERS.get(Tuple.from(partitionOf(owner), owner.kind().tag(), owner.id()));
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
        RESOURCES.get(partition),
        NAME_INDEX.get(partition),
        RECEIPTS.get(partition),
        CLAIMS.get(partition),
        MANAGED.get(partition),
        DEFINITIONS.get(partition),
        RUNS.get(partition),
        OPERATIONS.get(partition),
        CAPTURES.get(partition),
        VALIDATIONS.get(partition),
        HELD.get(partition),
        JOBS.get(partition),
        SCHEDULES.get(partition),
        GENERATED.get(partition),
        FENCES.get(partition),
        COUNTERS.get(partition));
  }

  private static Tuple scopeElements(NameScope scope) {
    // Java 17 has no pattern switch; NameScope is sealed, so these two cases are all of them.
    if (scope instanceof NameScope.InCatalog in) {
      return Tuple.from(in.catalogId(), Tuple.fromList(in.path()));
    }
    return new Tuple();
  }

  private static Subspace subspace(int tag) {
    return new Subspace(Tuple.from(tag));
  }
}
