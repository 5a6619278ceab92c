package io.icegate.overlay.store.capture;

import io.icegate.core.model.Provenance;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.ChangeKind;
import io.icegate.core.repo.ExpectedGeneration;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.ReadTransaction;
import io.icegate.core.store.Transaction;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Captured upstream Iceberg metadata of managed Tables (issue 10, "Capture"): the metadata JSON as
 * a content-addressed blob ({@link Blobs}), and the capturer's state when it keeps one ({@link
 * Candidate#state}) as another, written first, then one pointer transaction that names them
 * ({@link CapturePointers}) and stamps the Table's {@value #CAPTURED_AT_PROPERTY}
 * property; {@link #publishAll} does this for many Tables with few blob transactions and one
 * pointer transaction. The pointer transaction runs the caller's fence first (reconciliation's run fence:
 * deletion fences, configuration generations, run generation) and asserts the capture generation
 * the caller read is still current, so a stale capture never replaces a newer one. Thread-safe.
 */
public final class Captures {
  /** The Table property carrying the capture time (ISO-8601, UTC, millisecond precision). */
  public static final String CAPTURED_AT_PROPERTY = "icegate.captured-at";

  /** A blob collected between its write and the pointer transaction is written again this often. */
  private static final int ATTEMPTS = 3;

  /**
   * A capture as read in one transaction: the pointer and the blobs it names.
   *
   * @param pointer the Table's capture pointer
   * @param metadataJson the captured Iceberg table metadata JSON ({@code TableMetadataParser})
   * @param state the capturer's state kept with the capture ({@link Candidate#state}), or {@code
   *     null} when the pointer names none
   */
  public record Capture(CapturePointer pointer, byte[] metadataJson, byte[] state) {

    /** A capture without state. */
    public Capture(CapturePointer pointer, byte[] metadataJson) {
      this(pointer, metadataJson, null);
    }
  }

  private final Repositories repositories;
  private final Blobs blobs;
  private final CapturePointers pointers = new CapturePointers();
  private final CaptureLeases leases = new CaptureLeases();

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
    CapturePointer.StateBlob state = pointer.get().state();
    byte[] stateBytes = state == null ? null : Blobs.read(tx, state.digest()).orElseThrow(() ->
        new IllegalStateException("capture of table " + tableId + " names a missing state blob"));
    return Optional.of(new Capture(pointer.get(), bytes, stateBytes));
  }

  /**
   * One capture to publish.
   *
   * @param tableId the managed Table
   * @param expected the pointer the caller read before loading upstream (empty: none)
   * @param location the upstream metadata location {@code metadataJson} was read from
   * @param metadataJson the Iceberg table metadata JSON of that location
   * @param metadataFile the Iceberg metadata file the caller wrote with exactly {@code
   *     metadataJson} ({@link CapturePointer#metadataFile}), or {@code null}
   * @param state what the capturer keeps with this capture and never serves (opaque here; Delta
   *     capture: its Delta state and change record), stored as a blob of its own and named by the
   *     pointer ({@link CapturePointer#state}) in the same pointer transaction, so it is current
   *     exactly while the capture is; {@code null} for none
   * @param historySinceMillis {@link CapturePointer#historySinceMillis} of the capture, or null
   * @param source what the capture is
   * @param upstreamCommit {@link CapturePointer#upstreamCommit} of the capture, or null
   */
  public record Candidate(String tableId, Optional<CapturePointer> expected, String location,
      byte[] metadataJson, String metadataFile, byte[] state, Long historySinceMillis,
      Source source, String upstreamCommit) {
    public Candidate {
      Objects.requireNonNull(tableId, "tableId");
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(location, "location");
      Objects.requireNonNull(metadataJson, "metadataJson");
      Objects.requireNonNull(source, "source");
    }

    /** A capture read from {@code location} with a metadata file of the caller's, no state. */
    public Candidate(String tableId, Optional<CapturePointer> expected, String location,
        byte[] metadataJson, String metadataFile) {
      this(tableId, expected, location, metadataJson, metadataFile, null, null, Source.UPSTREAM,
          null);
    }

    /** A capture of an upstream Iceberg metadata file, {@code location}. */
    public Candidate(String tableId, Optional<CapturePointer> expected, String location,
        byte[] metadataJson) {
      this(tableId, expected, location, metadataJson, null);
    }
  }

  /** What a {@link Candidate} is. */
  public enum Source {
    /**
     * What the upstream's {@code location} holds now: nothing to publish when the pointer read
     * names that location already.
     */
    UPSTREAM,
    /**
     * The current capture again, the same {@code location}, without history older than the
     * retention (issue 28): published although the pointer names that location.
     */
    RETENTION
  }

  /**
   * Publishes the capture of {@code tableId} read from {@code location}: nothing when {@code
   * expected} already names that location; otherwise the blob, then the pointer at {@code
   * expected}'s generation + 1. A batch of one ({@link #publishAll}).
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
    return publishAll(accountId, overlayId,
        List.of(new Candidate(tableId, expected, location, metadataJson)), fence).get(0);
  }

  /**
   * Publishes a batch of captures: the blobs of every candidate but an {@link Source#UPSTREAM}
   * one whose {@code expected} already names its location ({@link Blobs#writeAll}, few
   * transactions), then all their pointers
   * in one transaction that runs {@code fence} once and, per candidate, asserts the capture
   * generation it read and its blob's completeness. A candidate whose generation moved, whose
   * Table is gone, or (a Delta capture, naming a metadata file) whose write lease on the Table's
   * generated files is gone ({@link CaptureLeases}) is {@link CaptureOutcome.Skipped} without
   * failing the others; the pointer transaction clears a Delta capture's lease. One whose blob was
   * collected meanwhile is written again and re-published (up to {@value #ATTEMPTS} times).
   *
   * <p>The caller bounds the batch (count and bytes) so the pointer transaction stays far below
   * the store's 10 MB / 5 s limits: it reads and rewrites each candidate's Table record.
   *
   * @param overlayId the Overlay that must still manage the Tables
   * @param fence asserted first in each pointer transaction; throws to stop a stale caller
   * @return one outcome per candidate, in order
   * @throws RuntimeException whatever {@code fence} throws; store failures; then nothing of the
   *     failed pointer transaction is visible (earlier ones of a retried remainder may be)
   */
  public List<CaptureOutcome> publishAll(String accountId, String overlayId,
      List<Candidate> candidates, Consumer<Transaction> fence) {
    CaptureOutcome[] outcomes = new CaptureOutcome[candidates.size()];
    List<Integer> open = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      // the same upstream file as the pointer shows: its name, and its identity where the name
      // alone does not tell it (a Delta table written anew reuses its commit files' names)
      if (c.source() == Source.UPSTREAM && c.expected().isPresent()
          && c.expected().get().upstreamMetadataLocation().equals(c.location())
          && Objects.equals(c.expected().get().upstreamCommit(), c.upstreamCommit())) {
        outcomes[i] = new CaptureOutcome.Unchanged(c.expected().get());
      } else {
        open.add(i);
      }
    }
    for (int attempt = 1; attempt <= ATTEMPTS && !open.isEmpty(); attempt++) {
      List<byte[]> payloads = new ArrayList<>(open.size());
      for (int i : open) {
        payloads.add(candidates.get(i).metadataJson());
      }
      for (int i : open) {
        if (candidates.get(i).state() != null) {
          payloads.add(candidates.get(i).state());
        }
      }
      List<String> written = blobs.writeAll(payloads);
      List<Integer> round = List.copyOf(open);
      List<CapturePointer.StateBlob> states = new ArrayList<>(round.size());
      int next = round.size();
      for (int i : round) {
        byte[] state = candidates.get(i).state();
        states.add(state == null ? null : new CapturePointer.StateBlob(written.get(next++),
            state.length));
      }
      List<CaptureOutcome> published = repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
        fence.accept(tx);
        List<CaptureOutcome> out = new ArrayList<>(round.size());
        for (int k = 0; k < round.size(); k++) {
          Candidate c = candidates.get(round.get(k));
          out.add(point(tx, accountId, overlayId, c, written.get(k), states.get(k)));
        }
        return out;
      });
      open = new ArrayList<>();
      for (int k = 0; k < round.size(); k++) {
        if (published.get(k) == null) {
          open.add(round.get(k));
        } else {
          outcomes[round.get(k)] = published.get(k);
        }
      }
    }
    if (!open.isEmpty()) {
      throw new IllegalStateException("the captured blob of table "
          + candidates.get(open.get(0)).tableId() + " was collected before its pointer could "
          + "name it, " + ATTEMPTS + " times");
    }
    return Arrays.asList(outcomes);
  }

  /**
   * Captures {@code metadataJson}, read from upstream {@code location}, for Table {@code tableId}
   * inside the caller's transaction: blob and pointer together, at the current capture generation
   * + 1 (reconciliation's publication, which creates or updates the Table in the same fenced
   * transaction and so needs neither a second read of it nor a transaction of its own). A pointer
   * already naming this location and blob is kept as it is.
   *
   * <p>The caller owns what {@link #publishAll} checks for itself: that the Table exists and is
   * managed by the publishing Overlay (it just wrote it), and the Table's {@value
   * #CAPTURED_AT_PROPERTY} property, which it sets to {@code capturedAt} in the same transaction.
   *
   * @param capturedAt the capture time, millisecond precision ({@link #now})
   * @return the Table's pointer after the call
   * @throws IllegalArgumentException when the metadata does not fit one transaction ({@link
   *     Blobs#write(Transaction, byte[], String)}); the caller then captures it with {@link #publishAll}
   */
  public CapturePointer captureIn(Transaction tx, String accountId, String tableId,
      String location, byte[] metadataJson, Instant capturedAt) {
    String digest = Blobs.digest(metadataJson);
    Optional<CapturePointer> now = pointers.get(tx, accountId, tableId);
    if (now.isPresent() && now.get().digest().equals(digest)
        && now.get().upstreamMetadataLocation().equals(location)) {
      return now.get();
    }
    blobs.write(tx, metadataJson, digest);
    CapturePointer next = new CapturePointer(
        now.map(CapturePointer::captureGeneration).orElse(0L) + 1, location, digest,
        metadataJson.length, capturedAt);
    pointers.set(tx, accountId, tableId, next);
    return next;
  }

  /**
   * Records on the Table's pointer the identity of the upstream file it shows ({@link
   * CapturePointer#upstreamCommit}), which a capture found unchanged: a pointer stored before the
   * identity was recorded, so later change-free rounds skip the Table without capturing it. Does
   * nothing when the pointer is no longer {@code expected} (a capture published, the Table went).
   */
  public void noteUpstreamCommit(String accountId, String tableId, CapturePointer expected,
      String commit) {
    repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      Optional<CapturePointer> now = pointers.get(tx, accountId, tableId);
      if (now.isPresent() && now.get().equals(expected)) {
        pointers.set(tx, accountId, tableId, now.get().withUpstreamCommit(commit));
      }
      return null;
    });
  }

  /** A capture time as pointers and the {@value #CAPTURED_AT_PROPERTY} property record it. */
  public Instant now() {
    return repositories.clock().instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * The pointer transaction's body; {@code null} when a blob (metadata or state) is gone (write
   * them again).
   */
  private CaptureOutcome point(Transaction tx, String accountId, String overlayId,
      Candidate candidate, String digest, CapturePointer.StateBlob state) {
    String tableId = candidate.tableId();
    Optional<CapturePointer> expected = candidate.expected();
    String location = candidate.location();
    long size = candidate.metadataJson().length;
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
    if (candidate.metadataFile() != null && leases.get(tx, accountId,
        table.get().spec().catalogId(), tableId).isEmpty()) {
      // a generated capture is written under its write lease; without it a collector may have
      // taken the files it references (or another capture published first)
      return new CaptureOutcome.Skipped("table " + provenance.upstreamDisplayPath() + ": the "
          + "write lease of its generated files lapsed before publication; captured again at "
          + "the next round");
    }
    if (!Blobs.complete(tx, digest, size)
        || (state != null && !Blobs.complete(tx, state.digest(), state.size()))) {
      return null;
    }
    CapturePointer next = new CapturePointer(read + 1, location, digest, size, now(),
        candidate.metadataFile(), state, candidate.historySinceMillis(),
        candidate.upstreamCommit());
    pointers.set(tx, accountId, tableId, next);
    Table spec = table.get().spec();
    if (candidate.metadataFile() != null) {
      // the pointer attributes the generated prefix from now on: the write lease is done
      leases.clear(tx, accountId, spec.catalogId(), tableId);
    }
    Map<String, String> properties = new HashMap<>(spec.properties());
    properties.put(CAPTURED_AT_PROPERTY, next.capturedAt().toString());
    repositories.tables(accountId).update(tx, tableId, ExpectedGeneration.any(),
        new Table(spec.catalogId(), spec.namespace(), spec.name(), spec.metadataLocation(),
            properties, spec.provenance()),
        ChangeKind.METADATA);
    return new CaptureOutcome.Captured(next);
  }
}
