package io.icegate.overlay.store.capture;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.Tuple;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A capture's write lease on a Delta table's generated prefix ({@link
 * KeyLayout#generatedWriting}): taken before the capture writes a file under the prefix, in a
 * transaction that reads the table live, and renewed while it writes. It attributes the prefix
 * to the table's Catalog before any capture pointer does (a first capture has none until it
 * publishes), so the transaction that deletes the table turns it into a {@link DeletedCaptures}
 * entry ({@code ManagedRelations#forget}, {@link DeletedCaptures#accountCleanup}); and, read by
 * the collector, it keeps every file of a live table's prefix while it is younger than the
 * grace (a capture still writing will publish files older than that). A publication clears it;
 * the collector clears one older than the grace.
 */
public final class CaptureLeases {

  /**
   * One lease.
   *
   * @param renewedMillis when it was last taken or renewed (epoch ms)
   */
  public record Lease(String accountId, String catalogId, String tableId, long renewedMillis) {}

  /** Takes or renews the lease of table {@code tableId} of {@code catalogId} at {@code now}. */
  public void renew(Transaction tx, String accountId, String catalogId, String tableId,
      long now) {
    tx.set(KeyLayout.generatedWriting(accountId, catalogId, tableId),
        ByteBuffer.allocate(Long.BYTES).putLong(now).array());
  }

  /** The lease of table {@code tableId} of {@code catalogId}, if one is held. */
  public Optional<Lease> get(ReadTransaction tx, String accountId, String catalogId,
      String tableId) {
    byte[] value = tx.get(KeyLayout.generatedWriting(accountId, catalogId, tableId));
    return value == null ? Optional.empty() : Optional.of(new Lease(accountId, catalogId,
        tableId, ByteBuffer.wrap(value).getLong()));
  }

  /** Removes the lease of table {@code tableId} of {@code catalogId}, if any. */
  public void clear(Transaction tx, String accountId, String catalogId, String tableId) {
    tx.clear(KeyLayout.generatedWriting(accountId, catalogId, tableId));
  }

  /** Up to {@code limit} leases of account {@code accountId}, every Catalog's, in key order. */
  public List<Lease> ofAccount(ReadTransaction tx, String accountId, int limit) {
    Range range = KeyLayout.generatedDeletedOf(accountId).range();
    List<Lease> out = new ArrayList<>();
    // the account's entries and Catalog records share the range: skip them, keep the leases
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      Tuple key = KeyLayout.generatedDeletedOf(accountId).unpack(kv.key());
      if (key.size() == 3 && key.getString(1).equals("writing")) {
        out.add(new Lease(accountId, key.getString(0), key.getString(2),
            ByteBuffer.wrap(kv.value()).getLong()));
        if (out.size() >= limit) {
          break;
        }
      }
    }
    return out;
  }

  /** Whether {@code key}, of {@link KeySubspace#GENERATED_DELETED}, is a lease. */
  static boolean isLease(Tuple key) {
    return key.size() == 4 && key.getString(2).equals("writing");
  }
}
