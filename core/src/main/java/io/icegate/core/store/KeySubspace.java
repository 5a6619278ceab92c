package io.icegate.core.store;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;

/**
 * The subspaces of the key space, one value each: its tag (the first element of every key in it, a
 * small integer to keep keys short) and what lives there and who writes it. {@link KeyLayout}
 * builds the keys inside them.
 *
 * <p>Changing a tag renders existing stores unreadable: tags are never reused or renumbered
 * ({@code KeySubspaceTest} pins each one). A new subspace takes the next free tag.
 *
 * <p>The overlay domain's subspaces ({@link #CLAIMS}, {@link #MANAGED}, {@link #DEFINITIONS},
 * {@link #CAPTURES}, {@link #BLOB_MARKERS}, {@link #VALIDATIONS}, {@link #BLOBS}, {@link #HELD})
 * are declared here like every other, and written by the classes of the overlay-store module
 * ({@code io.icegate.overlay.store}) named in their comments.
 */
public enum KeySubspace {
  /**
   * Store-wide metadata: {@code (name) -> value}. Holds the layout format version, the
   * page-token HMAC key (generated once, shared by every gateway instance) and the master key
   * check (which key the store's secrets are encrypted with, written by the first gateway start,
   * {@code MasterKeyCheck}). Written by the store bootstrap.
   */
  META(0),

  /**
   * Resource records: {@code (partition, kind, resource id) -> JSON envelope}. Written only by the
   * resource repository, in the same transaction as the name index entry and any receipt.
   */
  RESOURCES(1),

  /**
   * Display-name index: {@code (partition, kind, scope..., name) -> resource id}, one entry per live
   * resource, keeping names unique in their scope; listings are range reads of it, in name order.
   * Tables and views have one index each; the repository checks the sibling kind's entry in the
   * same transaction (one relation-name scope). Written with {@link #RESOURCES}.
   */
  NAME_INDEX(2),

  /**
   * Idempotency records: {@code (partition, operation, idempotency key) -> pending reservation or
   * immutable receipt} (JSON). Written by the idempotent-create protocol: the pending record in its
   * own transaction, the receipt in the transaction that publishes the resource.
   */
  RECEIPTS(3),

  /**
   * Deletion fences: {@code (partition, kind, resource id) -> fence} (JSON). Installed before a
   * multi-transaction delete; every mutation under the fenced resource asserts its absence in its
   * own transaction. An account's fence (root partition) outlives the account: it marks the
   * account as deleted so a repeated delete replays cleanup.
   */
  FENCES(4),

  /**
   * Dependency counters: {@code (partition, kind, resource id, dependent kind) -> count} (8 bytes,
   * big-endian). Changed in the same transaction as the dependent's create or delete, and asserted
   * in the same transaction as the delete they guard.
   */
  COUNTERS(5),

  /**
   * Namespace claims (seed 000, "Catalog overlay"), two entries per claim written together:
   * {@code (account id, "namespace", namespace id, overlay id) -> claim} (JSON) answers "who claims
   * this namespace" for drop and move checks; {@code (account id, "overlay", overlay id, namespace
   * id) -> empty} answers "what does this Overlay claim" for retirement. Written by reconciliation
   * ({@code NamespaceClaims}).
   */
  CLAIMS(6),

  /**
   * Encrypted secrets: {@code (owner resource id, credential generation) -> AES-GCM ciphertext}.
   * Written by the CredentialStore only.
   */
  CREDENTIALS(7),

  /**
   * Content-addressed chunks of large immutable payloads: {@code (sha-256, chunk index) -> bytes}.
   * Written before the pointer transaction that references them, with their marker in {@link
   * #BLOB_MARKERS} ({@code Blobs}).
   */
  BLOBS(8),

  /**
   * API tokens: {@code (sha-256 hex of the token) -> grant} (JSON: account id, role, server-admin
   * flag, name; optional created, expiry and last-used instants). Keyed by digest, never by the
   * token, so lookup needs no account and a leaked store reveals no token. Written by {@link
   * io.icegate.core.auth.ApiTokens} (bootstrap, token issue, revocation, last used).
   */
  TOKENS(9),

  /**
   * Credential orphan candidates: {@code (account id, owner resource id, credential generation) ->
   * JSON note}. Written by the CredentialStore in the transaction that stores a prepared secret
   * and cleared in the transaction that publishes it; set for the old generation when a rotation
   * publishes, cleared when it is retired. Whatever stays after a failure (a commit with unknown
   * result, a failed cleanup) is a generation an orphan reclaimer must check (seed 000).
   */
  CREDENTIAL_CANDIDATES(10),

  /**
   * The managed-relation index: {@code (account id, overlay id, kind, external id) -> relation id}.
   * One entry per Table or View an Overlay materialized, keyed by the provider's identity, so a
   * reconcile finds the resource of an upstream object after an upstream rename, and retirement
   * lists an Overlay's relations with one range read. Written with the relation's record ({@code
   * ManagedRelations}).
   */
  MANAGED(11),

  /**
   * Definitions of managed relations: {@code (account id, kind, relation id, chunk index) ->
   * bytes}, the Iceberg table or view metadata (without snapshots) the gateway serves, split into
   * chunks below the value limit. Written and cleared in the relation record's transaction.
   */
  DEFINITIONS(12),

  /**
   * Reconcile runs: {@code (account id, overlay id) -> run record} (JSON: run generation, state,
   * holder operation id, start time, lease expiry). One record per Overlay; a run writes it in its
   * first publishing transaction, taking the next generation, and every later publication of that
   * run asserts it is still its own, so an older run can no longer publish or retire; a run that
   * changes nothing never writes it. Written by {@link io.icegate.core.overlay.ReconcileRuns}.
   */
  RUNS(13),

  /**
   * Asynchronous operations: {@code (account id, operation id) -> operation} (JSON: the Overlay,
   * state, phase, counts, and the final report or problem). Written when an asynchronous reconcile
   * starts and when it ends ({@link io.icegate.core.overlay.OperationRecords}).
   */
  OPERATIONS(14),

  /**
   * Capture pointers: {@code (account id, table id) -> pointer} (JSON: capture generation, upstream
   * metadata location, blob digest and size, capture time; for Delta captures also icegate's
   * metadata file and the digest and size of the capture's state blob: the Delta state and change
   * record the capturer keeps and never serves). One per captured managed Table; the captured
   * metadata and state themselves live in {@link #BLOBS}, written before the pointer transaction
   * that names them. Written by {@code Captures} in a fenced transaction that
   * asserts the capture generation it read; cleared with the Table ({@code
   * ManagedRelations#forget}).
   */
  CAPTURES(15),

  /**
   * Blob bookkeeping beside {@link #BLOBS}: {@code (sha-256) -> marker} (JSON: write time, size,
   * chunk count), refreshed by every write of the blob; and {@code (sha-256, account id, table
   * id) -> empty}, a reference hint set in the pointer transaction that names the blob (as the
   * capture's metadata or its state). The
   * chunk collector ({@code CaptureChunkCollector}) deletes a blob only
   * when no hint leads to a pointer naming it and its marker is older than the grace period.
   */
  BLOB_MARKERS(16),

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
  VALIDATIONS(17),

  /**
   * Held marks (issue 21, "Held objects"): {@code (account id, overlay id, relation id) -> mark}
   * (JSON: code, message, since). A relation an Overlay materialized earlier whose upstream object
   * is held this run keeps its state and gets a mark; written by overlay-engine's {@code HeldMarks}
   * inside the run's fenced transactions, removed once the object is published again, the
   * relation retired or the Overlay's contributions retired.
   */
  HELD(18),

  /**
   * Upstream jobs (issue 27): {@code (account id, integration id) -> job} (JSON {@link
   * io.icegate.core.jobs.UpstreamJob}: planned generations, participants, epoch, lease), at most
   * one per Integration, never a field of its record. Written by {@link
   * io.icegate.core.jobs.UpstreamJobs}; removed by {@link io.icegate.core.jobs.JobCleanup}.
   */
  JOBS(19),

  /**
   * Scheduler state (issue 27): {@code (account id, integration id) -> state} (JSON {@link
   * io.icegate.core.jobs.SchedulerState}) and {@code (account id, integration id, overlay id) ->
   * that Overlay's last round}. Written when a round ends; removed like {@link #JOBS}.
   */
  SCHEDULES(20),

  /**
   * Generated-file collection (issue 26, "Where generated files live"): {@code (account id, table
   * id, metadata file) -> last seen} (8 bytes, big-endian epoch milliseconds), a metadata file
   * icegate wrote for a captured Delta table and when a collection pass last saw it as the
   * table's current capture. The files it references stay for the grace period after that (a
   * reader may still hold it); an entry older than the grace is cleared. Written only by
   * overlay-engine's {@code GeneratedFilesCollector}, inside the transaction that reads the
   * capture pointer it decides on; cleared with the account.
   */
  GENERATED(21),

  /**
   * Generated files of deleted Tables and Catalogs awaiting collection (issue 26, "a deleted
   * Catalog's or Table's generated files are collected after the grace period"): what must
   * survive a deletion so the files can still be found and reached. {@code (account id, catalog
   * id, "table", table id) -> deleted table} (8 bytes big-endian epoch milliseconds of the first
   * collection pass that saw it deleted, 0 until then; then the UTF-8 metadata file of its last
   * capture), written by overlay-store's {@code ManagedRelations#forget} in the transaction that
   * deletes a Table whose capture had a generated metadata file; {@code (account id, catalog id,
   * "catalog") -> the deleted Catalog's resource envelope} (its warehouse and storage settings),
   * written by {@code CatalogService#delete} in the deleting transaction when table entries of
   * the Catalog are pending, which then keeps the Catalog's storage secret for the collector.
   * Cleared by overlay-engine's {@code GeneratedFilesCollector} once nothing is left under the
   * table's prefix (and, for the Catalog entry, with the secret once no table entry is left).
   * {@code (account id, catalog id, "writing", table id) -> write lease} (8 bytes big-endian
   * epoch milliseconds it was last renewed): a capture's claim on a live table's prefix, taken
   * (by overlay-engine's Delta capture, in a transaction that reads the table live) before it
   * writes a file there, so that a table deleted while its first capture is in flight, which has
   * no capture pointer yet, still leaves a table entry: the deleting transaction turns the lease
   * into one; a publication clears it, the collector clears a stale one.
   * Not part of the account's partitions: it outlives an account deletion on purpose.
   */
  GENERATED_DELETED(22),

  /**
   * Warehouse claims (the isolation of accounts' warehouses): {@code (scheme, authority,
   * segment..., null, account id, catalog id) -> empty}, one per Catalog with a warehouse, keyed
   * by the warehouse's normal form ({@code io.icegate.core.catalog.WarehousePath}). The {@code
   * null} ends the segments (it sorts before every string), so the claims on one path are the range
   * under {@code (path..., null)} and the claims on that path or inside it the range under {@code
   * (path...)}; {@code s3://b/w} and {@code s3://b/wx} differ in a whole segment and never share a
   * range. A create reads the claims on every ancestor of its warehouse and those on or inside it
   * in the transaction that writes its own claim, refusing one of another account (so two
   * concurrent creates conflict). Written by {@link io.icegate.core.catalog.WarehouseClaims} in
   * the Catalog create's transaction, and at gateway start for Catalogs stored before claims
   * ({@code WarehouseClaimBackfill}); removed by {@code WarehouseClaims} in the transaction of the
   * Catalog's delete, of a replacing create (the retired Catalog's) and by account deletion (a
   * cleanup step: claims are keyed by warehouse, so they are not part of the account's
   * partitions).
   */
  WAREHOUSE_CLAIMS(23),

  /**
   * Scratch space for the store self-check ({@code icegate store-check}), the conformance suite and
   * benchmarks; never read by the product.
   */
  SCRATCH(127);

  private final int tag;
  private final Subspace subspace;

  KeySubspace(int tag) {
    this.tag = tag;
    this.subspace = new Subspace(Tuple.from(tag));
  }

  /** The tag every key of this subspace starts with. */
  public int tag() {
    return tag;
  }

  /** This subspace as the tuple layer's prefix. */
  public Subspace subspace() {
    return subspace;
  }

  /** The key of {@code elements} in this subspace. */
  public byte[] pack(Tuple elements) {
    return subspace.pack(elements);
  }

  /** The elements of {@code key}, a key of this subspace, without the tag. */
  public Tuple unpack(byte[] key) {
    return subspace.unpack(key);
  }

  /** The nested subspace of keys that start with {@code elements}. */
  public Subspace get(Tuple elements) {
    return subspace.get(elements);
  }

  /** Every key of this subspace. */
  public Range range() {
    return subspace.range();
  }

  /** Every key of this subspace that starts with {@code elements}. */
  public Range range(Tuple elements) {
    return subspace.range(elements);
  }

  /** Whether {@code key} lies in this subspace. */
  public boolean contains(byte[] key) {
    return subspace.contains(key);
  }
}
