package io.icegate.overlay.store.relation;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The stored definition of a managed relation (seed 000, "Materialized metadata"): Iceberg table
 * or view metadata without snapshots, kept beside the relation's record ({@link
 * ManagedRelations}). Stored as canonical JSON ({@link #toBytes()}: members and map entries
 * sorted), so the same upstream state always yields the same bytes and the same digest: an
 * unchanged re-run compares digests and writes nothing.
 */
public sealed interface RelationDefinition permits TableDefinition, ViewDefinition {

  /** The canonical JSON bytes that are stored and digested. */
  default byte[] toBytes() {
    try {
      return ModelJson.mapper().writeValueAsBytes(this);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads stored bytes as a definition of {@code type}.
   *
   * @throws UncheckedIOException when the bytes are not such a definition
   */
  static <D extends RelationDefinition> D fromBytes(byte[] bytes, Class<D> type) {
    try {
      return ModelJson.mapper().readValue(bytes, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
