package io.icegate.core.durability;

import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.time.Instant;
import java.util.Optional;

/**
 * Deletion fences keyed by {@link ResourceRef} (account today; catalog, integration, overlay
 * later), stored under {@link io.icegate.core.store.KeyLayout#FENCES}. A multi-transaction delete
 * installs its fence in its own transaction first; every mutation the fence guards calls {@link
 * #assertAbsent} inside its own transaction, a serializable read, so a mutation racing the
 * installation either commits before it (and is cleaned up) or conflicts and then sees the fence.
 * Thread-safe; every method works inside the caller's transaction.
 */
public final class DeletionFences {

  public DeletionFences() {}

  /** The fence on {@code ref}, if any (serializable read). */
  public Optional<Fence> read(ReadTransaction tx, ResourceRef ref) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /**
   * Fails unless no fence is installed on {@code ref}.
   *
   * @throws io.icegate.core.error.IcegateException FENCED
   */
  public void assertAbsent(ReadTransaction tx, ResourceRef ref) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Installs (or overwrites) the fence on {@code ref}. */
  public void install(Transaction tx, Fence fence) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Records that cleanup under {@code ref} completed at {@code when}; no-op without a fence. */
  public void markCleaned(Transaction tx, ResourceRef ref, Instant when) {
    throw new UnsupportedOperationException("not implemented yet");
  }

  /** Removes the fence on {@code ref}. */
  public void clear(Transaction tx, ResourceRef ref) {
    throw new UnsupportedOperationException("not implemented yet");
  }
}
