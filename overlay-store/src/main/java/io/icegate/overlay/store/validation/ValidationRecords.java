package io.icegate.overlay.store.validation;

import com.apple.foundationdb.Range;
import com.apple.foundationdb.subspace.Subspace;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.icegate.core.model.ModelJson;
import io.icegate.core.store.KeyLayout;
import io.icegate.core.store.KeySubspace;
import io.icegate.core.store.KeyValue;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The keys of {@link KeySubspace#VALIDATIONS}, inside the caller's transaction: pointers,
 * generation allocation, error records and overrides. Publication order and fencing are {@link
 * TableValidations}'s business; this class only reads and writes keys.
 */
public final class ValidationRecords {

  /** The stored pointer of table {@code tableId}, as published (VALID or FAILED). */
  public Optional<ValidationStatus> pointer(ReadTransaction tx, String accountId, String tableId) {
    byte[] value = tx.get(KeyLayout.validationPointer(accountId, tableId));
    return value == null ? Optional.empty() : Optional.of(read(value, ValidationStatus.class));
  }

  void setPointer(Transaction tx, String accountId, String tableId, ValidationStatus status) {
    tx.set(KeyLayout.validationPointer(accountId, tableId), json(status));
  }

  /**
   * The latest allocation of table {@code tableId}: generation and the publication's nonce.
   *
   * @param generation the highest validation generation handed out
   * @param nonce the random id of the publication it was handed to
   */
  record Allocation(long generation, String nonce) {}

  /** The latest allocation of table {@code tableId}, if any. */
  Optional<Allocation> allocation(ReadTransaction tx, String accountId, String tableId) {
    byte[] value = tx.get(KeyLayout.validationAllocated(accountId, tableId));
    if (value == null) {
      return Optional.empty();
    }
    ByteBuffer buffer = ByteBuffer.wrap(value);
    long generation = buffer.getLong();
    byte[] nonce = new byte[buffer.remaining()];
    buffer.get(nonce);
    return Optional.of(new Allocation(generation, new String(nonce, StandardCharsets.UTF_8)));
  }

  /**
   * Hands out the next validation generation of table {@code tableId} to the publication {@code
   * nonce}: above both the highest handed out and the current pointer's. Concurrent allocations
   * conflict on the allocation key, so no two publications ever get the same generation; the
   * nonce lets a publication recognise its own switch after a commit with unknown result.
   */
  long allocate(Transaction tx, String accountId, String tableId, String nonce) {
    long allocated = allocation(tx, accountId, tableId).map(Allocation::generation).orElse(0L);
    long current = pointer(tx, accountId, tableId)
        .map(ValidationStatus::validationGeneration).orElse(0L);
    long next = Math.max(allocated, current) + 1;
    byte[] id = nonce.getBytes(StandardCharsets.UTF_8);
    tx.set(KeyLayout.validationAllocated(accountId, tableId),
        ByteBuffer.allocate(Long.BYTES + id.length).putLong(next).put(id).array());
    return next;
  }

  /** Writes {@code errors} as records {@code firstSeq, firstSeq + 1, ...} of {@code generation}. */
  void writeErrors(Transaction tx, String accountId, String tableId, long generation,
      int firstSeq, List<ValidationError> errors) {
    for (int i = 0; i < errors.size(); i++) {
      tx.set(KeyLayout.validationError(accountId, tableId, generation, firstSeq + i),
          json(errors.get(i)));
    }
  }

  /** Clears every error record of {@code generation}. */
  void clearGeneration(Transaction tx, String accountId, String tableId, long generation) {
    Range range = KeyLayout.validationErrors(accountId, tableId, generation).range();
    tx.clearRange(range.begin, range.end);
  }

  /**
   * Clears the error records of every generation below {@code generation}: the sets a switch to
   * {@code generation} retires, and leftovers of publications that never switched. Newer
   * generations may belong to a publication still writing, so they stay.
   */
  void clearBelow(Transaction tx, String accountId, String tableId, long generation) {
    Range below = KeyLayout.validationErrorsBelow(accountId, tableId, generation);
    tx.clearRange(below.begin, below.end);
  }

  /**
   * Up to {@code limit} error records of {@code generation} with a seq above {@code afterSeq}
   * ({@code -1}: from the first), in seq order.
   *
   * @return (seq, record) pairs
   */
  public List<Numbered> errors(ReadTransaction tx, String accountId, String tableId,
      long generation, int afterSeq, int limit) {
    Subspace records = KeyLayout.validationErrors(accountId, tableId, generation);
    byte[] begin = afterSeq < 0
        ? records.range().begin
        : strictlyAfter(KeyLayout.validationError(accountId, tableId, generation, afterSeq));
    List<Numbered> found = new ArrayList<>();
    for (KeyValue kv : tx.getRange(begin, records.range().end, limit,
        ReadTransaction.Direction.FORWARD)) {
      int seq = (int) records.unpack(kv.key()).getLong(0);
      found.add(new Numbered(seq, read(kv.value(), ValidationError.class)));
    }
    return found;
  }

  /** An error record and its seq within its generation. */
  public record Numbered(int seq, ValidationError error) {}

  /** The override of table {@code tableId}, if set. */
  public Optional<VisibilityOverride> override(ReadTransaction tx, String accountId,
      String tableId) {
    byte[] value = tx.get(KeyLayout.visibilityOverride(accountId, tableId));
    return value == null ? Optional.empty() : Optional.of(read(value, VisibilityOverride.class));
  }

  void setOverride(Transaction tx, String accountId, String tableId, VisibilityOverride value) {
    tx.set(KeyLayout.visibilityOverride(accountId, tableId), json(value));
  }

  void clearOverride(Transaction tx, String accountId, String tableId) {
    tx.clear(KeyLayout.visibilityOverride(accountId, tableId));
  }

  /**
   * Removes everything validation keeps for table {@code tableId} (pointer, allocation, every
   * generation's records, override): the Table is deleted or retired. One range clear.
   */
  public void forget(Transaction tx, String accountId, String tableId) {
    Range all = KeyLayout.validations(accountId, tableId).range();
    tx.clearRange(all.begin, all.end);
  }

  private static byte[] strictlyAfter(byte[] key) {
    byte[] next = java.util.Arrays.copyOf(key, key.length + 1); // key + 0x00
    return next;
  }

  private static byte[] json(Object value) {
    try {
      return ModelJson.mapper().writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a validation record always serializes", e);
    }
  }

  private static <T> T read(byte[] json, Class<T> type) {
    try {
      return ModelJson.mapper().readValue(json, type);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable " + type.getSimpleName(), e);
    }
  }
}
