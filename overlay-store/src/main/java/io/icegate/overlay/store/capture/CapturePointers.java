package io.icegate.overlay.store.capture;

import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.Optional;

/**
 * The capture pointers in {@link KeySubspace#CAPTURES}, inside the caller's transaction. Setting
 * or clearing a pointer moves its blob reference hint ({@link KeySubspace#BLOB_MARKERS}) in the
 * same transaction, so the chunk collector can find the pointers naming a blob without scanning
 * them all.
 */
public final class CapturePointers {

  /** The pointer of table {@code tableId}, if it was captured. */
  public Optional<CapturePointer> get(ReadTransaction tx, String accountId, String tableId) {
    byte[] value = tx.get(KeyLayout.capture(accountId, tableId));
    return value == null ? Optional.empty() : Optional.of(CapturePointer.fromJson(value));
  }

  /** Points table {@code tableId} at {@code pointer}, replacing and unreferencing any previous. */
  void set(Transaction tx, String accountId, String tableId, CapturePointer pointer) {
    get(tx, accountId, tableId).ifPresent(old -> tx.clear(
        KeyLayout.blobReference(old.digest(), accountId, tableId)));
    tx.set(KeyLayout.capture(accountId, tableId), pointer.toJson());
    tx.set(KeyLayout.blobReference(pointer.digest(), accountId, tableId), new byte[0]);
  }

  /**
   * Removes table {@code tableId}'s pointer and its reference hint, if any (the Table is deleted
   * or retired); its blob is left to the chunk collector.
   */
  public void forget(Transaction tx, String accountId, String tableId) {
    Optional<CapturePointer> pointer = get(tx, accountId, tableId);
    if (pointer.isPresent()) {
      tx.clear(KeyLayout.capture(accountId, tableId));
      tx.clear(KeyLayout.blobReference(pointer.get().digest(), accountId, tableId));
    }
  }
}
