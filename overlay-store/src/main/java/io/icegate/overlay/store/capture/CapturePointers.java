package io.icegate.overlay.store.capture;

import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.util.Optional;

/**
 * The capture pointers in {@link KeySubspace#CAPTURES}, inside the caller's transaction. Setting
 * or clearing a pointer moves the reference hints ({@link KeySubspace#BLOB_MARKERS}) of the blobs
 * it names (metadata, and state if any) in the same transaction, so the chunk collector can find
 * the pointers naming a blob without scanning them all.
 */
public final class CapturePointers {

  /** The pointer of table {@code tableId}, if it was captured. */
  public Optional<CapturePointer> get(ReadTransaction tx, String accountId, String tableId) {
    byte[] value = tx.get(KeyLayout.capture(accountId, tableId));
    return value == null ? Optional.empty() : Optional.of(CapturePointer.fromJson(value));
  }

  /**
   * Points table {@code tableId} at {@code pointer}, replacing and unreferencing any previous: the
   * previous capture's blobs (metadata and state) lose their hints, so a superseded state goes
   * with the capture it belonged to.
   */
  void set(Transaction tx, String accountId, String tableId, CapturePointer pointer) {
    get(tx, accountId, tableId).ifPresent(old -> old.blobDigests().forEach(digest -> tx.clear(
        KeyLayout.blobReference(digest, accountId, tableId))));
    tx.set(KeyLayout.capture(accountId, tableId), pointer.toJson());
    for (String digest : pointer.blobDigests()) {
      tx.set(KeyLayout.blobReference(digest, accountId, tableId), new byte[0]);
    }
  }

  /**
   * Removes table {@code tableId}'s pointer and its reference hint, if any (the Table is deleted
   * or retired); its blob is left to the chunk collector.
   */
  public void forget(Transaction tx, String accountId, String tableId) {
    Optional<CapturePointer> pointer = get(tx, accountId, tableId);
    if (pointer.isPresent()) {
      tx.clear(KeyLayout.capture(accountId, tableId));
      pointer.get().blobDigests().forEach(digest -> tx.clear(
          KeyLayout.blobReference(digest, accountId, tableId)));
    }
  }
}
