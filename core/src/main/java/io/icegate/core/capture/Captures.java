package io.icegate.core.capture;

import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Captured upstream Iceberg metadata of managed Tables (issue 10, "Capture"): the metadata JSON as
 * a content-addressed blob ({@link Blobs}), written first, then one pointer transaction that
 * names it ({@link CapturePointers}) and stamps the Table's {@value #CAPTURED_AT_PROPERTY}
 * property. The pointer transaction runs the caller's fence first (reconciliation's run fence:
 * deletion fences, configuration generations, run generation) and asserts the capture generation
 * the caller read is still current, so a stale capture never replaces a newer one. Thread-safe.
 */
public final class Captures {
  /** The Table property carrying the capture time (ISO-8601, UTC, millisecond precision). */
  public static final String CAPTURED_AT_PROPERTY = "icegate.captured-at";

  /** A blob collected between its write and the pointer transaction is written again this often. */
  private static final int ATTEMPTS = 3;

  /**
   * A capture as read in one transaction: the pointer and the metadata JSON it names.
   *
   * @param pointer the Table's capture pointer
   * @param metadataJson the captured Iceberg table metadata JSON ({@code TableMetadataParser})
   */
  public record Capture(CapturePointer pointer, byte[] metadataJson) {}

  private final Repositories repositories;
  private final Blobs blobs;
  private final CapturePointers pointers = new CapturePointers();

  public Captures(Repositories repositories) {
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.blobs = new Blobs(repositories.store(), repositories.clock());
  }

  /** The pointer of {@code tableId}, if it was captured (own read). */
  public Optional<CapturePointer> pointer(String accountId, String tableId) {
    return repositories.store().read(tx -> pointers.get(tx, accountId, tableId));
  }

  /** The current capture of {@code tableId}: pointer and bytes from one consistent read. */
  public Optional<Capture> read(String accountId, String tableId) {
    return repositories.store().read(tx -> read(tx, accountId, tableId));
  }

  /**
   * The current capture of {@code tableId} in the caller's transaction.
   *
   * @throws IllegalStateException when the pointer names a blob that is not there (a broken
   *     store: pointers are published only after their blob)
   */
  public Optional<Capture> read(ReadTransaction tx, String accountId, String tableId) {
    Optional<CapturePointer> pointer = pointers.get(tx, accountId, tableId);
    if (pointer.isEmpty()) {
      return Optional.empty();
    }
    byte[] bytes = Blobs.read(tx, pointer.get().digest()).orElseThrow(() ->
        new IllegalStateException("capture of table " + tableId + " names a missing blob"));
    return Optional.of(new Capture(pointer.get(), bytes));
  }

  /**
   * Publishes the capture of {@code tableId} read from {@code location}: nothing when {@code
   * expected} already names that location; otherwise the blob, then the pointer at {@code
   * expected}'s generation + 1.
   *
   * @param overlayId the Overlay that must still manage the Table
   * @param expected the pointer the caller read before loading upstream (empty: none)
   * @param location the upstream metadata location {@code metadataJson} was read from
   * @param fence asserted first in the pointer transaction; throws to stop a stale caller
   * @throws RuntimeException whatever {@code fence} throws; store failures
   */
  public CaptureOutcome publish(String accountId, String overlayId, String tableId,
      Optional<CapturePointer> expected, String location, byte[] metadataJson,
      Consumer<Transaction> fence) {
    if (expected.isPresent() && expected.get().upstreamMetadataLocation().equals(location)) {
      return new CaptureOutcome.Unchanged(expected.get());
    }
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      String digest = blobs.write(metadataJson);
      CaptureOutcome outcome = repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
        fence.accept(tx);
        return point(tx, accountId, overlayId, tableId, expected, location, digest,
            metadataJson.length);
      });
      if (outcome != null) {
        return outcome;
      }
    }
    throw new IllegalStateException("the captured blob of table " + tableId
        + " was collected before its pointer could name it, " + ATTEMPTS + " times");
  }

  /** The pointer transaction's body; {@code null} when the blob is gone (write it again). */
  private CaptureOutcome point(Transaction tx, String accountId, String overlayId, String tableId,
      Optional<CapturePointer> expected, String location, String digest, long size) {
    Optional<Resource<Table>> table = repositories.tables(accountId).get(tx, tableId);
    Provenance provenance = table.map(t -> t.spec().provenance()).orElse(null);
    if (provenance == null || !provenance.overlayId().equals(overlayId)) {
      return new CaptureOutcome.Skipped("table " + tableId + " is gone or no longer managed by "
          + "overlay " + overlayId);
    }
    Optional<CapturePointer> now = pointers.get(tx, accountId, tableId);
    long read = expected.map(CapturePointer::captureGeneration).orElse(0L);
    long current = now.map(CapturePointer::captureGeneration).orElse(0L);
    if (current != read) {
      CapturePointer moved = now.orElse(null);
      if (moved != null && moved.digest().equals(digest)
          && moved.upstreamMetadataLocation().equals(location)) {
        // this very publication, seen again after a commit with unknown result
        return new CaptureOutcome.Captured(moved);
      }
      return new CaptureOutcome.Skipped("table " + provenance.upstreamDisplayPath()
          + ": capture generation moved from " + read + " to " + current + " meanwhile");
    }
    if (!Blobs.complete(tx, digest, size)) {
      return null;
    }
    CapturePointer next = new CapturePointer(read + 1, location, digest, size,
        repositories.clock().instant().truncatedTo(ChronoUnit.MILLIS));
    pointers.set(tx, accountId, tableId, next);
    Table spec = table.get().spec();
    Map<String, String> properties = new HashMap<>(spec.properties());
    properties.put(CAPTURED_AT_PROPERTY, next.capturedAt().toString());
    repositories.tables(accountId).update(tx, tableId, ExpectedGeneration.any(),
        new Table(spec.catalogId(), spec.namespace(), spec.name(), spec.metadataLocation(),
            properties, spec.provenance()),
        ChangeKind.METADATA);
    return new CaptureOutcome.Captured(next);
  }
}
