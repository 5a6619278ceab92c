package io.icegate.overlay.store.validation;

import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.model.ResourceRef;
import io.icegate.core.model.Table;
import io.icegate.core.paging.Page;
import io.icegate.core.paging.PageRequest;
import io.icegate.core.paging.PageTokens;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.KvStore;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import io.icegate.overlay.store.capture.CapturePointer;
import io.icegate.overlay.store.capture.CapturePointers;
import java.nio.ByteBuffer;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validation results and query visibility of managed Tables (issue 10, "Validation" and
 * "Visibility").
 *
 * <p><b>Publication.</b> A validation's error records are written under a generation no other
 * publication of the Table was handed ({@link ValidationRecords#allocate}), in as many
 * transactions as their size needs; then one transaction switches the Table's pointer to that
 * generation and clears every older generation's records. A set that fits one transaction (up to
 * {@value #BATCH_RECORDS} records, the common case, a clean one included) is allocated, written
 * and switched in that one transaction. That transaction runs the caller's
 * fence first (reconciliation's run fence, or the admin route's deletion fences) and asserts the
 * Table is still managed, that the capture generation validated is still the Table's current one,
 * and that the validation generation the caller read is still current; otherwise nothing is
 * published and the records written for it are removed. A clean validation publishes the same way
 * with no records. Readers read the pointer and the records of its generation in one
 * transaction, so none sees half a result or two generations mixed.
 *
 * <p><b>Visibility.</b> A local Table is always visible. A managed Table is visible when an
 * override is set, or when its current capture validated with no error; otherwise its {@link
 * Visibility} says the validation is pending or how many errors were found (the admin API adds
 * where to read them).
 *
 * <p>Thread-safe.
 */
public final class TableValidations {
  private static final Logger LOG = LoggerFactory.getLogger(TableValidations.class);
  /** Error records per write transaction (besides {@link #BATCH_BYTES}). */
  static final int BATCH_RECORDS = 500;
  /** Estimated record bytes per write transaction: far below the 10 MB transaction limit. */
  static final int BATCH_BYTES = 2_000_000;

  private final Repositories repositories;
  private final KvStore store;
  private final PageTokens tokens;
  private final ValidationRecords records = new ValidationRecords();
  private final CapturePointers captures = new CapturePointers();

  public TableValidations(Repositories repositories) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.store = repositories.store();
    this.tokens = repositories.pageTokens();
  }

  // ---- readers ----------------------------------------------------------------------------

  /**
   * The validation status of {@code tableId}: empty when never validated; state PENDING when the
   * Table was captured again after the validation (the counts are still the old validation's).
   */
  public Optional<ValidationStatus> status(ReadTransaction tx, String accountId, String tableId) {
    Optional<ValidationStatus> pointer = records.pointer(tx, accountId, tableId);
    if (pointer.isEmpty()) {
      return pointer;
    }
    long capture = captures.get(tx, accountId, tableId)
        .map(CapturePointer::captureGeneration).orElse(0L);
    return capture == pointer.get().captureGeneration() ? pointer
        : Optional.of(pointer.get().pending());
  }

  /** {@link #status(ReadTransaction, String, String)} in its own read. */
  public Optional<ValidationStatus> status(String accountId, String tableId) {
    return store.read(tx -> status(tx, accountId, tableId));
  }

  /** Whether {@code tableId} has a visibility override. */
  public boolean overridden(ReadTransaction tx, String accountId, String tableId) {
    return records.override(tx, accountId, tableId).isPresent();
  }

  /** The visibility override of {@code tableId}, if set. */
  public Optional<VisibilityOverride> override(ReadTransaction tx, String accountId,
      String tableId) {
    return records.override(tx, accountId, tableId);
  }

  /** Whether clients may query {@code table}, and if not, why (see the class comment). */
  public Visibility visibility(ReadTransaction tx, String accountId, Resource<Table> table) {
    Table spec = table.spec();
    if (!spec.managed() || overridden(tx, accountId, table.id())) {
      return Visibility.VISIBLE;
    }
    Optional<ValidationStatus> status = status(tx, accountId, table.id());
    if (status.isEmpty() || status.get().state() == ValidationState.PENDING) {
      return Visibility.PENDING;
    }
    if (status.get().state() == ValidationState.VALID) {
      return Visibility.VISIBLE;
    }
    return new Visibility.Failed(status.get().errorCount());
  }

  /**
   * One page of the error records of {@code tableId}'s current validation, in the order they
   * were published; empty when it was never validated. Pointer and records come from {@code tx},
   * so a page never mixes generations; a page token is bound to its generation, so a token from
   * before a newer validation was published is rejected.
   *
   * @throws IcegateException INVALID_PAGE_TOKEN
   */
  public Page<ValidationError> errors(ReadTransaction tx, String accountId, String tableId,
      PageRequest page) {
    Optional<ValidationStatus> pointer = records.pointer(tx, accountId, tableId);
    if (pointer.isEmpty()) {
      if (page.pageToken() != null) {
        tokens.resume(listing(accountId, tableId, 0), page.pageToken()); // throws unless ours
      }
      return new Page<>(List.of(), null);
    }
    long generation = pointer.get().validationGeneration();
    String listing = listing(accountId, tableId, generation);
    int after = page.pageToken() == null ? -1
        : ByteBuffer.wrap(position(listing, page.pageToken())).getInt();
    List<ValidationRecords.Numbered> found =
        records.errors(tx, accountId, tableId, generation, after, page.pageSize() + 1);
    boolean more = found.size() > page.pageSize();
    List<ValidationRecords.Numbered> items = more ? found.subList(0, page.pageSize()) : found;
    String next = more ? tokens.issue(listing, ByteBuffer.allocate(Integer.BYTES)
        .putInt(items.get(items.size() - 1).seq()).array()) : null;
    return new Page<>(items.stream().map(ValidationRecords.Numbered::error).toList(), next);
  }

  /** {@link #errors(ReadTransaction, String, String, PageRequest)} in its own read. */
  public Page<ValidationError> errors(String accountId, String tableId, PageRequest page) {
    return store.read(tx -> errors(tx, accountId, tableId, page));
  }

  // ---- overrides ---------------------------------------------------------------------------

  /**
   * Sets (or replaces) the visibility override of managed table {@code tableId}.
   *
   * @param note why, or {@code null}
   * @throws IcegateException NOT_FOUND for a missing Table; INVALID_ARGUMENT for a local Table
   *     (always visible); FENCED when the account or the Catalog is being deleted
   */
  public VisibilityOverride setOverride(Transaction tx, String accountId, String tableId,
      String note) {
    requireManaged(tx, accountId, tableId);
    VisibilityOverride value = new VisibilityOverride(
        repositories.clock().instant().truncatedTo(ChronoUnit.MILLIS), note);
    records.setOverride(tx, accountId, tableId, value);
    return value;
  }

  /** {@link #setOverride(Transaction, String, String, String)} in its own transaction. */
  public VisibilityOverride setOverride(String accountId, String tableId, String note) {
    return store.run(Idempotence.IDEMPOTENT, tx -> setOverride(tx, accountId, tableId, note));
  }

  /**
   * Clears the visibility override of table {@code tableId}.
   *
   * @return whether one was set
   * @throws IcegateException NOT_FOUND for a missing Table; FENCED as {@link #setOverride}
   */
  public boolean clearOverride(Transaction tx, String accountId, String tableId) {
    requireTable(tx, accountId, tableId);
    boolean present = overridden(tx, accountId, tableId);
    records.clearOverride(tx, accountId, tableId);
    return present;
  }

  /** {@link #clearOverride(Transaction, String, String)} in its own transaction. */
  public boolean clearOverride(String accountId, String tableId) {
    return store.run(Idempotence.IDEMPOTENT, tx -> clearOverride(tx, accountId, tableId));
  }

  // ---- publication -------------------------------------------------------------------------

  /**
   * Publishes a validation of {@code tableId}'s capture {@code captureGeneration}: its error
   * records under a new generation, then the pointer switch (see the class comment).
   *
   * @param expected the status the caller read before validating ({@link
   *     ValidationRecords#pointer}, as stored; empty: never validated)
   * @param errors every error found, all of this Table; empty for a clean validation
   * @param fence asserted first in every transaction that writes; throws to stop a stale caller
   * @throws RuntimeException whatever {@code fence} throws (records written are removed first);
   *     store failures
   */
  public ValidationOutcome publish(String accountId, String tableId,
      Optional<ValidationStatus> expected, long captureGeneration, List<ValidationError> errors,
      Consumer<Transaction> fence) {
    for (ValidationError error : errors) {
      if (!error.tableId().equals(tableId)) {
        throw new IllegalArgumentException("an error of table " + error.tableId()
            + " among those of " + tableId);
      }
    }
    List<List<ValidationError>> batches = batches(errors);
    String nonce = UUID.randomUUID().toString();
    if (batches.size() == 1) {
      return store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.accept(tx);
        return publishSmall(tx, accountId, tableId, expected, captureGeneration, errors, nonce);
      });
    }
    long[] allocated = {0};
    try {
      String refused = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.accept(tx);
        String why = refusal(tx, accountId, tableId, captureGeneration);
        if (why == null) {
          allocated[0] = records.allocate(tx, accountId, tableId, nonce);
        }
        return why;
      });
      if (refused != null) {
        return new ValidationOutcome.Skipped(refused);
      }
      long generation = allocated[0];
      int seq = 0;
      for (List<ValidationError> batch : batches.subList(0, batches.size() - 1)) {
        int first = seq;
        refused = store.run(Idempotence.IDEMPOTENT, tx -> {
          fence.accept(tx);
          String why = refusal(tx, accountId, tableId, captureGeneration);
          if (why == null) {
            records.writeErrors(tx, accountId, tableId, generation, first, batch);
          }
          return why;
        });
        if (refused != null) {
          discard(accountId, tableId, generation);
          return new ValidationOutcome.Skipped(refused);
        }
        seq += batch.size();
      }
      int last = seq;
      ValidationOutcome outcome = store.run(Idempotence.IDEMPOTENT, tx -> {
        fence.accept(tx);
        return switchTo(tx, accountId, tableId, expected, captureGeneration, generation, last,
            batches.get(batches.size() - 1), errors.size());
      });
      if (outcome instanceof ValidationOutcome.Skipped) {
        discard(accountId, tableId, generation);
      }
      return outcome;
    } catch (RuntimeException e) {
      if (allocated[0] > 0) {
        discard(accountId, tableId, allocated[0]);
      }
      throw e;
    }
  }

  /**
   * A clean validation to publish with others: Table {@code tableId}'s capture {@code
   * captureGeneration}, validated with no error, the caller having read {@code expected}.
   */
  public record CleanCandidate(String tableId, Optional<ValidationStatus> expected,
      long captureGeneration) {}

  /**
   * Publishes clean validations of many Tables in ONE transaction (fence first), each as {@link
   * #publish} would publish an empty error set: its own refusal checks, generation and switch. A
   * Table refused (recaptured, validated meanwhile) is Skipped without affecting the others.
   *
   * @return one outcome per candidate, in order
   * @throws RuntimeException whatever {@code fence} throws; store failures
   */
  public List<ValidationOutcome> publishClean(String accountId, List<CleanCandidate> candidates,
      Consumer<Transaction> fence) {
    // fixed before the transaction, so a retry after an unknown result recognises its own writes
    List<String> nonces = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      nonces.add(UUID.randomUUID().toString());
    }
    return store.run(Idempotence.IDEMPOTENT, tx -> {
      fence.accept(tx);
      List<ValidationOutcome> outcomes = new ArrayList<>();
      for (int i = 0; i < candidates.size(); i++) {
        CleanCandidate c = candidates.get(i);
        outcomes.add(publishSmall(tx, accountId, c.tableId(), c.expected(),
            c.captureGeneration(), List.of(), nonces.get(i)));
      }
      return outcomes;
    });
  }

  /**
   * Publishes a clean validation of Table {@code tableId}'s capture {@code captureGeneration}
   * inside the caller's transaction, for a caller that created or updated the managed Table and
   * set that capture in this same fenced transaction (reconciliation's publication of a Table with
   * no current snapshot: nothing to check, issue 10 "a table without a snapshot validates
   * clean"). The refusal checks of {@link #publish} are the caller's; the generation switch and
   * the clearing of older generations are the same.
   *
   * @return the Table's new status (VALID, no errors)
   */
  public ValidationStatus publishCleanIn(Transaction tx, String accountId, String tableId,
      long captureGeneration) {
    long generation = records.allocate(tx, accountId, tableId, UUID.randomUUID().toString());
    return point(tx, accountId, tableId, generation, captureGeneration, 0);
  }

  /**
   * A set that fits one transaction: allocation, records, switch and retirement together. After a
   * commit with unknown result the retried body finds its own nonce on the allocation the pointer
   * names, and answers what was published.
   */
  private ValidationOutcome publishSmall(Transaction tx, String accountId, String tableId,
      Optional<ValidationStatus> expected, long captureGeneration, List<ValidationError> errors,
      String nonce) {
    Optional<ValidationRecords.Allocation> last = records.allocation(tx, accountId, tableId);
    Optional<ValidationStatus> now = records.pointer(tx, accountId, tableId);
    if (last.isPresent() && last.get().nonce().equals(nonce) && now.isPresent()
        && now.get().validationGeneration() == last.get().generation()) {
      return new ValidationOutcome.Published(now.get());
    }
    String why = refusal(tx, accountId, tableId, captureGeneration);
    if (why != null) {
      return new ValidationOutcome.Skipped(why);
    }
    long generation = records.allocate(tx, accountId, tableId, nonce);
    return switchTo(tx, accountId, tableId, expected, captureGeneration, generation, 0, errors,
        errors.size());
  }

  /** The pointer transaction's body. */
  private ValidationOutcome switchTo(Transaction tx, String accountId, String tableId,
      Optional<ValidationStatus> expected, long captureGeneration, long generation, int firstSeq,
      List<ValidationError> lastBatch, int errorCount) {
    String why = refusal(tx, accountId, tableId, captureGeneration);
    if (why != null) {
      return new ValidationOutcome.Skipped(why);
    }
    Optional<ValidationStatus> now = records.pointer(tx, accountId, tableId);
    if (now.isPresent() && now.get().validationGeneration() == generation) {
      // this very switch, seen again after a commit with unknown result
      return new ValidationOutcome.Published(now.get());
    }
    long read = expected.map(ValidationStatus::validationGeneration).orElse(0L);
    long current = now.map(ValidationStatus::validationGeneration).orElse(0L);
    if (read != current) {
      return new ValidationOutcome.Skipped("table " + tableId + ": validation generation moved "
          + "from " + read + " to " + current + " meanwhile");
    }
    records.writeErrors(tx, accountId, tableId, generation, firstSeq, lastBatch);
    return new ValidationOutcome.Published(
        point(tx, accountId, tableId, generation, captureGeneration, errorCount));
  }

  /**
   * The switch itself: points {@code tableId} at {@code generation} (VALID without errors, else
   * FAILED) and clears every older generation's records (there are none below the first).
   */
  private ValidationStatus point(Transaction tx, String accountId, String tableId,
      long generation, long captureGeneration, int errorCount) {
    ValidationStatus status = new ValidationStatus(generation, captureGeneration,
        errorCount == 0 ? ValidationState.VALID : ValidationState.FAILED, errorCount,
        repositories.clock().instant().truncatedTo(ChronoUnit.MILLIS));
    records.setPointer(tx, accountId, tableId, status);
    if (generation > 1) {
      records.clearBelow(tx, accountId, tableId, generation);
    }
    return status;
  }

  /**
   * Why nothing may be written for {@code tableId}'s capture {@code captureGeneration} now, or
   * {@code null}: the Table must exist, be managed, and still have that capture.
   */
  private String refusal(ReadTransaction tx, String accountId, String tableId,
      long captureGeneration) {
    Optional<Resource<Table>> table = repositories.tables(accountId).get(tx, tableId);
    if (table.isEmpty() || !table.get().spec().managed()) {
      return "table " + tableId + " is gone or no longer managed";
    }
    long current = captures.get(tx, accountId, tableId)
        .map(CapturePointer::captureGeneration).orElse(0L);
    if (current != captureGeneration) {
      return "table " + table.get().spec().provenance().upstreamDisplayPath()
          + ": capture generation moved from " + captureGeneration + " to " + current
          + " meanwhile";
    }
    return null;
  }

  /** Removes the records of an unpublished generation; a failure leaves them to the next switch. */
  private void discard(String accountId, String tableId, long generation) {
    try {
      store.run(Idempotence.IDEMPOTENT, tx -> {
        Optional<ValidationStatus> now = records.pointer(tx, accountId, tableId);
        if (now.isEmpty() || now.get().validationGeneration() != generation) {
          records.clearGeneration(tx, accountId, tableId, generation);
        }
        return null;
      });
    } catch (RuntimeException e) {
      LOG.warn("validation records of table {} generation {} stay until its next validation ({})",
          tableId, generation, e.toString());
    }
  }

  /** {@code errors} split for write transactions; never empty (a clean set is one empty batch). */
  static List<List<ValidationError>> batches(List<ValidationError> errors) {
    List<List<ValidationError>> batches = new ArrayList<>();
    List<ValidationError> current = new ArrayList<>();
    long bytes = 0;
    for (ValidationError error : errors) {
      long size = estimate(error);
      if (!current.isEmpty() && (current.size() == BATCH_RECORDS || bytes + size > BATCH_BYTES)) {
        batches.add(current);
        current = new ArrayList<>();
        bytes = 0;
      }
      current.add(error);
      bytes += size;
    }
    batches.add(current);
    return batches;
  }

  private static long estimate(ValidationError error) {
    // UTF-8 takes at most 3 bytes per char; 200 for keys, field names and quoting
    return 200L + 3L * (error.tableId().length() + error.displayPath().length()
        + error.tableFormat().length() + error.message().length()
        + (error.filePath() == null ? 0 : error.filePath().length()));
  }

  private void requireManaged(Transaction tx, String accountId, String tableId) {
    Resource<Table> table = requireTable(tx, accountId, tableId);
    if (!table.spec().managed()) {
      throw IcegateException.invalidArgument("table " + tableId
          + " is not managed by an overlay; it is always visible");
    }
  }

  private Resource<Table> requireTable(Transaction tx, String accountId, String tableId) {
    Resource<Table> table = repositories.tables(accountId).get(tx, tableId).orElseThrow(() ->
        new IcegateException(ErrorCode.NOT_FOUND, ResourceKind.TABLE,
            ResourceKind.TABLE.label(), tableId));
    repositories.fences().assertAbsent(tx, ResourceRef.account(accountId));
    repositories.fences().assertAbsent(tx,
        new ResourceRef(accountId, ResourceKind.CATALOG, table.spec().catalogId()));
    return table;
  }

  private static String listing(String accountId, String tableId, long generation) {
    return "validation-errors/" + accountId + "/" + tableId + "/" + generation;
  }

  private byte[] position(String listing, String token) {
    byte[] position = tokens.resume(listing, token);
    if (position.length != Integer.BYTES) {
      throw new IcegateException(ErrorCode.INVALID_PAGE_TOKEN, null);
    }
    return position;
  }
}
