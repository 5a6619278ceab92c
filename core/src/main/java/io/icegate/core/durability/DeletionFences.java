package io.icegate.core.durability;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Optional;

/**
 * Deletion fences keyed by {@link ResourceRef} (account today; catalog, integration, overlay
 * later), stored under {@link KeySubspace#FENCES}. A multi-transaction delete installs its fence in
 * its own transaction first; every mutation the fence guards calls {@link #assertAbsent} inside its
 * own transaction, a serializable read, so a mutation racing the installation either commits
 * before it (and is cleaned up) or conflicts and then sees the fence. Thread-safe; every method
 * works inside the caller's transaction.
 */
public final class DeletionFences {

  public DeletionFences() {}

  /** The fence on {@code ref}, if any (serializable read). */
  public Optional<Fence> read(ReadTransaction tx, ResourceRef ref) {
    byte[] bytes = tx.get(KeyLayout.fence(ref));
    if (bytes == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ModelJson.mapper().readValue(bytes, Fence.class));
    } catch (IOException e) {
      throw new UncheckedIOException("stored fence of " + ref + " is not readable", e);
    }
  }

  /**
   * Fails unless no fence is installed on {@code ref}. A fence whose cleanup has finished stays as
   * the record that {@code ref} was deleted (an account's): for its users the resource is gone,
   * so the answer is the one a missing resource gets (404), not the 409 of a delete still running.
   *
   * @throws IcegateException FENCED while the delete runs, NOT_FOUND once it finished
   */
  public void assertAbsent(ReadTransaction tx, ResourceRef ref) {
    Optional<Fence> fence = read(tx, ref);
    if (fence.isPresent()) {
      ErrorCode code = fence.get().cleaned() ? ErrorCode.NOT_FOUND : ErrorCode.FENCED;
      throw new IcegateException(code, ref.kind(), ref.kind().label(), ref.id());
    }
  }

  /** Installs (or overwrites) the fence on {@code fence.ref()}. */
  public void install(Transaction tx, Fence fence) {
    try {
      tx.set(KeyLayout.fence(fence.ref()), ModelJson.mapper().writeValueAsBytes(fence));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize a fence", e);
    }
  }

  /** Records that cleanup under {@code ref} completed at {@code when}; no-op without a fence. */
  public void markCleaned(Transaction tx, ResourceRef ref, Instant when) {
    Optional<Fence> fence = read(tx, ref);
    if (fence.isPresent() && !fence.get().cleaned()) {
      Fence f = fence.get();
      install(tx, new Fence(f.ref(), f.operationId(), f.installedAt(), when));
    }
  }

  /** Removes the fence on {@code ref}. */
  public void clear(Transaction tx, ResourceRef ref) {
    tx.clear(KeyLayout.fence(ref));
  }
}
