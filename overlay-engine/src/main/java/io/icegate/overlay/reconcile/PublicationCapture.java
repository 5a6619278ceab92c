package io.icegate.overlay.reconcile;

import io.icegate.core.model.ResourceKind;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.Captures;
import io.icegate.overlay.store.validation.TableValidations;
import java.time.Instant;
import java.util.Optional;

/**
 * Capture inside the publication transaction (issue 8's bench: a first reconcile of 10,000 tables
 * spent more in separate capture and validation transactions, each reading the just-published
 * Table again, than in publication itself). A Table that publication creates or updates, and
 * whose full metadata the run's discovery kept for the observed upstream metadata location
 * ({@link MetadataStash}), gets its blob and capture pointer in the same fenced transaction that
 * writes the Table, with the Table's captured-at property set in that write; when the metadata
 * has no current snapshot there is no file to check, so its clean validation is published there
 * too. Anything else (metadata not kept, too large for one transaction, a snapshot to validate)
 * is left to the capture and validation steps after retirement, which treat a Table captured here
 * like one they captured themselves.
 *
 * <p>Seed 000 ("Refresh and reconciliation ownership"): results are still published per
 * destination Table under the run's fence; only the transaction they share is new.
 */
final class PublicationCapture {
  /** Metadata bytes captured in a publication transaction at most; larger goes the long way. */
  static final int MAX_BYTES = Publisher.BATCH_BYTES;

  /** A capture made in a publication transaction. */
  record Made(String tableId, boolean validated) {}

  private final Captures captures;
  private final TableValidations validations;
  private final MetadataStash stash;
  private final String accountId;

  PublicationCapture(Repositories repositories, String accountId, MetadataStash stash) {
    this.captures = new Captures(repositories);
    this.validations = new TableValidations(repositories);
    this.stash = stash;
    this.accountId = accountId;
  }

  /** The kept metadata {@code desired} can be captured with in its publication, if any. */
  Optional<MetadataStash.Stashed> candidate(DesiredRelation desired) {
    if (desired.kind() != ResourceKind.TABLE) {
      return Optional.empty();
    }
    return stash.peek(desired.namespace(), desired.name(), desired.upstreamMetadataLocation())
        .filter(s -> s.json().length <= MAX_BYTES);
  }

  /** Bytes {@code desired}'s publication adds to its transaction for its capture. */
  long bytes(DesiredRelation desired) {
    return candidate(desired).map(s -> (long) s.json().length).orElse(0L);
  }

  /** The capture time to stamp on a Table captured now. */
  Instant now() {
    return captures.now();
  }

  /**
   * Writes the capture of Table {@code tableId}, just created or updated in {@code tx} with
   * captured-at {@code capturedAt}, and its clean validation when the metadata has no snapshot.
   */
  Made capture(Transaction tx, String tableId, DesiredRelation desired,
      MetadataStash.Stashed stashed, Instant capturedAt) {
    CapturePointer pointer = captures.captureIn(tx, accountId, tableId,
        desired.upstreamMetadataLocation(), stashed.json(), capturedAt);
    if (stashed.snapshotless()) {
      validations.publishCleanIn(tx, accountId, tableId, pointer.captureGeneration());
    }
    return new Made(tableId, stashed.snapshotless());
  }

  /** After the transaction committed: the stash need not keep {@code desired}'s metadata. */
  void release(DesiredRelation desired) {
    stash.forget(desired.namespace(), desired.name());
  }
}
