package io.icegate.core.overlay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.icegate.core.model.ModelJson;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;

/**
 * Stored asynchronous operations ({@link KeyLayout#OPERATIONS}): an opaque JSON document per
 * operation id, written when the operation starts and when it ends, so {@code GET
 * .../operations/{id}} answers from any gateway instance and after a restart. The document's
 * shape belongs to the writer (overlay-engine's reconcile operations). Thread-safe.
 */
public final class OperationRecords {
  private final KvStore store;

  public OperationRecords(KvStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /** Stores (replaces) the document of operation {@code operationId}; idempotent. */
  public void put(String accountId, String operationId, Object document) {
    byte[] bytes;
    try {
      bytes = ModelJson.mapper().writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    store.run(Idempotence.IDEMPOTENT, tx -> {
      tx.set(KeyLayout.operation(accountId, operationId), bytes);
      return null;
    });
  }

  /** The document of operation {@code operationId}, if stored. */
  public Optional<JsonNode> get(String accountId, String operationId) {
    byte[] bytes = store.read(tx -> tx.get(KeyLayout.operation(accountId, operationId)));
    if (bytes == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ModelJson.mapper().readTree(bytes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
