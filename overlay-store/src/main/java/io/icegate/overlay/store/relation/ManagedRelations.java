package io.icegate.overlay.store.relation;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.model.Provenance;
import io.icegate.core.model.Relation;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.Blobs;
import io.icegate.overlay.store.capture.CapturePointers;
import io.icegate.overlay.store.capture.DeletedCaptures;
import io.icegate.overlay.store.validation.ValidationRecords;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The storage of managed Tables and Views beside their resource records: the managed-relation
 * index ({@link KeySubspace#MANAGED}: an Overlay's relations by the provider's identity) and the
 * chunked definitions ({@link KeySubspace#DEFINITIONS}: Iceberg metadata JSON without snapshots,
 * seed 000 "a definition too large for one value is stored in chunks").
 *
 * <p>Every method works in the caller's transaction, so a relation record, its index entry and
 * its definition are published and retired together. {@link #forget} runs in every relation
 * delete (the repository's delete rules call it through {@code OverlayStore}), so no path
 * leaves an orphaned definition.
 */
public final class ManagedRelations {
  /** Bytes per definition chunk; below the store's 100 kB value limit with room to spare. */
  public static final int CHUNK_BYTES = 64 * 1024;

  private static final CapturePointers CAPTURES = new CapturePointers();
  private static final ValidationRecords VALIDATIONS = new ValidationRecords();
  private static final DeletedCaptures DELETED = new DeletedCaptures();

  /**
   * One managed-relation index entry.
   *
   * @param kind TABLE or VIEW
   * @param externalId the provider's identity (stable id or path-derived)
   * @param relationId the icegate resource id
   */
  public record Entry(ResourceKind kind, String externalId, String relationId) {}

  /** Lowercase hex SHA-256 of {@code definition}: the {@link Provenance#definitionDigest()}. */
  public static String digest(byte[] definition) {
    return Blobs.digest(definition);
  }

  /** Replaces the stored definition of a relation with {@code definition}, in chunks. */
  public void writeDefinition(
      Transaction tx, String accountId, ResourceKind kind, String relationId, byte[] definition) {
    Range all = KeyLayout.definition(accountId, kind, relationId).range();
    tx.clearRange(all.begin, all.end);
    for (int offset = 0, index = 0; offset < definition.length; offset += CHUNK_BYTES, index++) {
      int end = Math.min(definition.length, offset + CHUNK_BYTES);
      tx.set(KeyLayout.definitionChunk(accountId, kind, relationId, index),
          Arrays.copyOfRange(definition, offset, end));
    }
  }

  /**
   * The stored definition of a relation, reassembled; empty when none is stored (a local relation,
   * or one deleted meanwhile).
   */
  public Optional<byte[]> definition(
      ReadTransaction tx, String accountId, ResourceKind kind, String relationId) {
    Range all = KeyLayout.definition(accountId, kind, relationId).range();
    List<KeyValue> chunks = tx.getRange(all.begin, all.end);
    if (chunks.isEmpty()) {
      return Optional.empty();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(chunks.size() * CHUNK_BYTES);
    for (KeyValue chunk : chunks) {
      out.writeBytes(chunk.value());
    }
    return Optional.of(out.toByteArray());
  }

  /** Points {@code overlayId}'s index entry for {@code externalId} at {@code relationId}. */
  public void index(
      Transaction tx, String accountId, String overlayId, ResourceKind kind, String externalId,
      String relationId) {
    tx.set(
        KeyLayout.managed(accountId, overlayId, kind, externalId),
        relationId.getBytes(StandardCharsets.UTF_8));
  }

  /** Removes {@code overlayId}'s index entry for {@code externalId}, if any. */
  public void unindex(
      Transaction tx, String accountId, String overlayId, ResourceKind kind, String externalId) {
    tx.clear(KeyLayout.managed(accountId, overlayId, kind, externalId));
  }

  /** The relation id {@code overlayId} materialized for {@code externalId}, if any. */
  public Optional<String> find(
      ReadTransaction tx, String accountId, String overlayId, ResourceKind kind,
      String externalId) {
    byte[] id = tx.get(KeyLayout.managed(accountId, overlayId, kind, externalId));
    return id == null ? Optional.empty() : Optional.of(new String(id, StandardCharsets.UTF_8));
  }

  /**
   * Up to {@code limit} index entries of {@code overlayId} after {@code afterKey} (exclusive;
   * {@code null} from the start), in key order (kind, then external id). Retirement pages through
   * them so no transaction reads an unbounded range.
   *
   * @param limit at most this many entries; 0 for all
   */
  public List<Entry> managedBy(
      ReadTransaction tx, String accountId, String overlayId, Entry after, int limit) {
    Subspace entries = KeyLayout.managedBy(accountId, overlayId);
    Range all = entries.range();
    byte[] begin =
        after == null
            ? all.begin
            : strictlyAfter(KeyLayout.managed(accountId, overlayId, after.kind(), after.externalId()));
    List<Entry> found = new ArrayList<>();
    for (KeyValue kv : tx.getRange(begin, all.end, limit, ReadTransaction.Direction.FORWARD)) {
      Tuple key = entries.unpack(kv.key());
      found.add(new Entry(
          ResourceKind.ofTag((int) key.getLong(0)),
          key.getString(1),
          new String(kv.value(), StandardCharsets.UTF_8)));
    }
    return found;
  }

  /**
   * Removes what belongs to a deleted relation: its definition chunks, its capture pointer (the
   * captured blob is left to the chunk collector; a Delta capture's generated files, and those a
   * capture holding the table's write lease may have written, are recorded for the
   * generated-files collector, {@link DeletedCaptures}), its validation pointer, error
   * records and visibility override and, when it is managed and the index still points at it,
   * its index entry. Harmless for a local relation.
   */
  public void forget(Transaction tx, Resource<?> relation) {
    Range chunks = KeyLayout.definition(relation.accountId(), relation.kind(), relation.id()).range();
    tx.clearRange(chunks.begin, chunks.end);
    if (relation.kind() == ResourceKind.TABLE) {
      // the generated files of a Delta capture outlive the pointer, and a first capture in
      // flight has written some before it has one (its write lease says so): name them for the
      // collector
      DELETED.recordIfGenerated(tx, relation.accountId(), ((Relation) relation.spec()).catalogId(),
          relation.id(), CAPTURES.get(tx, relation.accountId(), relation.id()));
      CAPTURES.forget(tx, relation.accountId(), relation.id());
      VALIDATIONS.forget(tx, relation.accountId(), relation.id());
    }
    Provenance provenance = provenanceOf(relation);
    if (provenance == null) {
      return;
    }
    byte[] key =
        KeyLayout.managed(
            relation.accountId(), provenance.overlayId(), relation.kind(), provenance.externalId());
    byte[] indexed = tx.get(key);
    if (indexed != null && relation.id().equals(new String(indexed, StandardCharsets.UTF_8))) {
      tx.clear(key);
    }
  }

  /** The provenance of a Table or View resource, or {@code null} for a local one or another kind. */
  public static Provenance provenanceOf(Resource<?> relation) {
    return relation.spec() instanceof Relation r ? r.provenance() : null;
  }

  private static byte[] strictlyAfter(byte[] key) {
    return Arrays.copyOf(key, key.length + 1); // key + 0x00 is the first key after key
  }
}
