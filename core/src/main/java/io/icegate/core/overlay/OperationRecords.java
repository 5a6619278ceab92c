package io.icegate.core.overlay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.durability.DeletionFences;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Stored asynchronous operations ({@link KeySubspace#OPERATIONS}): an opaque JSON document per
 * operation id, written when the operation starts and when it ends, so {@code GET
 * .../operations/{id}} answers from any gateway instance and after a restart. The document's
 * shape belongs to the writer (overlay-engine's reconcile operations), which also re-stores a
 * running operation as a heartbeat ({@link #replaceIf}). Thread-safe.
 */
public final class OperationRecords {
  private final KvStore store;
  private final DeletionFences fences = new DeletionFences();

  public OperationRecords(KvStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * Stores (replaces) the document of operation {@code operationId}; idempotent. Like every
   * write under an account, refused once the account's deletion fence is installed (an operation
   * ending after the account's deletion would leave a key its cleanup has walked past).
   *
   * @throws IcegateException FENCED
   */
  public void put(String accountId, String operationId, Object document) {
    byte[] bytes = encode(document);
    store.run(Idempotence.IDEMPOTENT, tx -> {
      fences.assertAbsent(tx, ResourceRef.account(accountId));
      tx.set(KeyLayout.operation(accountId, operationId), bytes);
      return null;
    });
  }

  /**
   * Stores {@code document} as operation {@code operationId} only if a document is stored and
   * {@code current} accepts it, read in the same transaction (a compare-and-set: two processes
   * that both decide from what they read cannot overwrite each other's later write unseen).
   * Retried on an unknown commit result, when the retry reads the document its first attempt
   * stored; {@code current} should then refuse it, so the outcome is as if applied once.
   *
   * @return whether this call's last attempt stored the document ({@code false} also when a
   *     retry found its own earlier commit)
   * @throws IcegateException FENCED, as {@link #put}
   */
  public boolean replaceIf(String accountId, String operationId, Predicate<JsonNode> current,
      Object document) {
    byte[] bytes = encode(document);
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      fences.assertAbsent(tx, ResourceRef.account(accountId));
      byte[] stored = tx.get(KeyLayout.operation(accountId, operationId));
      if (stored == null || !current.test(decode(stored))) {
        return false;
      }
      tx.set(KeyLayout.operation(accountId, operationId), bytes);
      return true;
    });
  }

  /** The document of operation {@code operationId}, if stored. */
  public Optional<JsonNode> get(String accountId, String operationId) {
    byte[] bytes = store.read(tx -> tx.get(KeyLayout.operation(accountId, operationId)));
    return bytes == null ? Optional.empty() : Optional.of(decode(bytes));
  }

  private static byte[] encode(Object document) {
    try {
      return ModelJson.mapper().writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode decode(byte[] bytes) {
    try {
      return ModelJson.mapper().readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
