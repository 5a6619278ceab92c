package io.icegate.overlay.store.capture;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.durability.CleanupStep;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What survives the deletion of a captured Delta table so that the files icegate generated for
 * it can still be found and collected ({@link KeySubspace#GENERATED_DELETED}): per deleted
 * table, its Catalog and the metadata file of its last capture, and when the first collection
 * pass saw it deleted. Written in the transaction that deletes the table ({@code
 * ManagedRelations#forget}), so no deletion path can lose it; read and cleared by overlay-engine's
 * {@code GeneratedFilesCollector}.
 */
public final class DeletedCaptures {
  private static final CapturePointers POINTERS = new CapturePointers();
  private static final CaptureLeases LEASES = new CaptureLeases();

  /**
   * One deleted table awaiting collection.
   *
   * @param goneSeenMillis when a collection pass first saw it deleted (epoch ms), 0 until then:
   *     its last metadata file counts as current until then, so a reader that loaded it just
   *     before the deletion keeps the grace period
   * @param metadataFile the metadata file of its last capture, empty when it had none (a refusal)
   */
  public record DeletedCapture(String accountId, String catalogId, String tableId,
      long goneSeenMillis, String metadataFile) {

    /** Whether a pass already saw it deleted. */
    public boolean seen() {
      return goneSeenMillis > 0;
    }

    byte[] key() {
      return KeyLayout.generatedDeletedTable(accountId, catalogId, tableId);
    }

    byte[] value() {
      byte[] file = metadataFile.getBytes(StandardCharsets.UTF_8);
      return ByteBuffer.allocate(Long.BYTES + file.length).putLong(goneSeenMillis).put(file)
          .array();
    }
  }

  /** Records that table {@code tableId}, last captured as {@code metadataFile}, is deleted. */
  public void record(Transaction tx, String accountId, String catalogId, String tableId,
      String metadataFile) {
    DeletedCapture entry = new DeletedCapture(accountId, catalogId, tableId, 0, metadataFile);
    tx.set(entry.key(), entry.value());
  }

  /** The entry of deleted table {@code tableId} of {@code catalogId}, if one is pending. */
  public Optional<DeletedCapture> get(ReadTransaction tx, String accountId, String catalogId,
      String tableId) {
    byte[] value = tx.get(KeyLayout.generatedDeletedTable(accountId, catalogId, tableId));
    return value == null ? Optional.empty()
        : Optional.of(decode(accountId, catalogId, tableId, value));
  }

  /** {@code entry} as first seen deleted at {@code now}; the entry as stored. */
  public DeletedCapture markSeen(Transaction tx, DeletedCapture entry, long now) {
    DeletedCapture seen = new DeletedCapture(entry.accountId(), entry.catalogId(),
        entry.tableId(), now, entry.metadataFile());
    tx.set(seen.key(), seen.value());
    return seen;
  }

  /** Removes {@code entry}: nothing of its table is left to collect (or it is live again). */
  public void clear(Transaction tx, DeletedCapture entry) {
    tx.clear(entry.key());
  }

  /** Every pending entry of Catalog {@code catalogId}. */
  public List<DeletedCapture> of(ReadTransaction tx, String accountId, String catalogId) {
    Range range = KeyLayout.deletedTablesOf(accountId, catalogId).range();
    List<DeletedCapture> out = new ArrayList<>();
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      String tableId = KeyLayout.deletedTablesOf(accountId, catalogId).unpack(kv.key())
          .getString(0);
      out.add(decode(accountId, catalogId, tableId, kv.value()));
    }
    return out;
  }

  /**
   * The Catalogs with pending entries, as (account id, catalog id), in key order, across all
   * accounts (an account deletion leaves these entries for the collector).
   */
  public List<CatalogRef> catalogs(ReadTransaction tx) {
    Range range = KeySubspace.GENERATED_DELETED.range();
    List<CatalogRef> out = new ArrayList<>();
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      Tuple key = KeySubspace.GENERATED_DELETED.unpack(kv.key());
      if (CaptureLeases.isLease(key)) {
        continue; // a live table's capture in flight: nothing to collect here
      }
      CatalogRef ref = new CatalogRef(key.getString(0), key.getString(1));
      if (out.isEmpty() || !out.get(out.size() - 1).equals(ref)) {
        out.add(ref);
      }
    }
    return out;
  }

  /** A Catalog named by pending entries; it may be deleted. */
  public record CatalogRef(String accountId, String catalogId) {}

  /** The record of deleted Catalog {@code catalogId} (its resource envelope), if kept. */
  public Optional<byte[]> deletedCatalog(ReadTransaction tx, String accountId, String catalogId) {
    return Optional.ofNullable(tx.get(KeyLayout.generatedDeletedCatalog(accountId, catalogId)));
  }

  /** Removes the record of deleted Catalog {@code catalogId}. */
  public void clearDeletedCatalog(Transaction tx, String accountId, String catalogId) {
    tx.clear(KeyLayout.generatedDeletedCatalog(accountId, catalogId));
  }

  /**
   * Records that table {@code tableId} of {@code catalogId} is deleted when a capture wrote or
   * may be writing generated files for it: its capture pointer is a Delta one ({@code pointer}
   * names a metadata file or a state blob), or a capture holds its write lease ({@link
   * CaptureLeases}; a first capture in flight has no pointer yet). Clears the lease: a capture
   * renewing it then finds the table gone and stops writing. For the transaction that deletes
   * the table.
   */
  public void recordIfGenerated(Transaction tx, String accountId, String catalogId,
      String tableId, Optional<CapturePointer> pointer) {
    boolean delta = pointer.filter(p -> p.metadataFile() != null || p.state() != null)
        .isPresent();
    boolean leased = LEASES.get(tx, accountId, catalogId, tableId).isPresent();
    if (delta || leased) {
      record(tx, accountId, catalogId, tableId,
          pointer.map(CapturePointer::metadataFile).orElse(null) == null ? ""
              : pointer.get().metadataFile());
    }
    if (leased) {
      LEASES.clear(tx, accountId, catalogId, tableId);
    }
  }

  /**
   * Account deletion's cleanup step, run before the credentials' step: an account deletion clears
   * its partitions without deleting Tables one by one, so per transaction up to {@code maxKeys}
   * write leases ({@link CaptureLeases}) and then capture pointers are forgotten here, each lease
   * and each Delta pointer leaving its entry as a Table deletion does, and each Catalog of such
   * an entry its record (so the credentials' step keeps its secret, {@code
   * CredentialStore#accountCleanup}). Resumable: forgotten leases and pointers are not seen
   * again; no lease is taken after the account's deletion fence (the capture's renewal asserts
   * it).
   */
  public CleanupStep accountCleanup(Repositories repositories) {
    return (tx, accountId, maxKeys) -> {
      List<CaptureLeases.Lease> leases =
          LEASES.ofAccount(tx, accountId, Math.max(1, maxKeys / 4));
      for (CaptureLeases.Lease lease : leases) {
        // the lease names the Catalog: recorded even when its table is already gone
        recordIfGenerated(tx, accountId, lease.catalogId(), lease.tableId(),
            POINTERS.get(tx, accountId, lease.tableId()));
        keepCatalog(tx, repositories, accountId, lease.catalogId());
      }
      if (!leases.isEmpty()) {
        return leases.size();
      }
      Range range = KeySubspace.CAPTURES.range(Tuple.from(accountId));
      int removed = 0;
      for (KeyValue kv : tx.getRange(range.begin, range.end, Math.max(1, maxKeys / 4),
          ReadTransaction.Direction.FORWARD)) {
        String tableId = KeySubspace.CAPTURES.unpack(kv.key()).getString(1);
        CapturePointer pointer = CapturePointer.fromJson(kv.value());
        Optional<Resource<Table>> table = repositories.tables(accountId).get(tx, tableId);
        if (table.isPresent() && (pointer.metadataFile() != null || pointer.state() != null)) {
          String catalogId = table.get().spec().catalogId();
          record(tx, accountId, catalogId, tableId,
              pointer.metadataFile() == null ? "" : pointer.metadataFile());
          keepCatalog(tx, repositories, accountId, catalogId);
        }
        POINTERS.forget(tx, accountId, tableId);
        removed++;
      }
      return removed;
    };
  }

  /** Keeps Catalog {@code catalogId}'s record (and so its secret) for the collector. */
  private static void keepCatalog(Transaction tx, Repositories repositories, String accountId,
      String catalogId) {
    byte[] catalogKey = KeyLayout.generatedDeletedCatalog(accountId, catalogId);
    if (tx.get(catalogKey) == null) {
      repositories.catalogs(accountId).get(tx, catalogId).ifPresent(catalog ->
          tx.set(catalogKey, repositories.catalogs(accountId).codec().write(catalog)));
    }
  }

  private static DeletedCapture decode(String accountId, String catalogId, String tableId,
      byte[] value) {
    ByteBuffer buffer = ByteBuffer.wrap(value);
    long seen = buffer.getLong();
    return new DeletedCapture(accountId, catalogId, tableId, seen,
        new String(value, Long.BYTES, value.length - Long.BYTES, StandardCharsets.UTF_8));
  }
}
