package io.icegate.overlay.reconcile;

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
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The held marks of {@link KeySubspace#HELD} (issue 21): a relation an Overlay materialized earlier
 * whose upstream object a run held keeps its state unchanged, and its mark says why and since
 * when, for the admin table view ({@code held: {code, message, since}}). A run writes marks only
 * where they are missing or say something else, so a re-run holding the same objects writes
 * nothing; a mark goes once its relation is published again, retired, or the Overlay's
 * contributions are retired.
 */
public final class HeldMarks {

  /**
   * One mark.
   *
   * @param code the held object's code ({@link HeldObject#code()})
   * @param message its message
   * @param since when a run first held it with that code
   */
  public record Mark(String code, String message, Instant since) {}

  /** The mark of relation {@code relationId} of Overlay {@code overlayId}, if it is held. */
  public Optional<Mark> get(ReadTransaction tx, String accountId, String overlayId,
      String relationId) {
    byte[] value = tx.get(KeyLayout.held(accountId, overlayId, relationId));
    return value == null ? Optional.empty() : Optional.of(read(value));
  }

  /** Every mark of Overlay {@code overlayId}, by relation id. */
  Map<String, Mark> markedBy(ReadTransaction tx, String accountId, String overlayId) {
    Subspace marks = KeyLayout.heldBy(accountId, overlayId);
    Range range = marks.range();
    Map<String, Mark> out = new java.util.LinkedHashMap<>();
    for (KeyValue kv : tx.getRange(range.begin, range.end)) {
      out.put(marks.unpack(kv.key()).getString(0), read(kv.value()));
    }
    return out;
  }

  /**
   * The writes that make {@code held} (relation id to its held object) the marks of the Overlay:
   * a mark for each, keeping its {@code since} while the code stays the same, and no other mark.
   *
   * @return whether anything needs writing (so an unchanged run opens no write transaction)
   */
  boolean needsWork(ReadTransaction tx, String accountId, String overlayId,
      Map<String, HeldObject> held) {
    Map<String, Mark> now = markedBy(tx, accountId, overlayId);
    if (!now.keySet().equals(held.keySet())) {
      return true;
    }
    return held.entrySet().stream().anyMatch(e -> !same(now.get(e.getKey()), e.getValue()));
  }

  /** Makes {@code held} the Overlay's marks in {@code tx} (see {@link #needsWork}). */
  void publish(Transaction tx, String accountId, String overlayId, Map<String, HeldObject> held,
      Instant at) {
    Map<String, Mark> now = markedBy(tx, accountId, overlayId);
    for (String relationId : now.keySet()) {
      if (!held.containsKey(relationId)) {
        tx.clear(KeyLayout.held(accountId, overlayId, relationId));
      }
    }
    held.forEach((relationId, object) -> {
      Mark before = now.get(relationId);
      if (!same(before, object)) {
        Instant since = before != null && before.code().equals(object.code().name())
            ? before.since() : at;
        tx.set(KeyLayout.held(accountId, overlayId, relationId),
            write(new Mark(object.code().name(), object.message(), since)));
      }
    });
  }

  /** Removes every mark of Overlay {@code overlayId} (its contributions are retired). */
  void clearAll(Transaction tx, String accountId, String overlayId) {
    Range range = KeyLayout.heldBy(accountId, overlayId).range();
    tx.clearRange(range.begin, range.end);
  }

  private static boolean same(Mark mark, HeldObject object) {
    return mark != null && mark.code().equals(object.code().name())
        && mark.message().equals(object.message());
  }

  private static byte[] write(Mark mark) {
    try {
      return ModelJson.mapper().writeValueAsBytes(mark);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a held mark always serializes", e);
    }
  }

  private static Mark read(byte[] value) {
    try {
      return ModelJson.mapper().readValue(value, Mark.class);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable held mark", e);
    }
  }
}
