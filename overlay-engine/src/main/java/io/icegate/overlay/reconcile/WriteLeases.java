package io.icegate.overlay.reconcile;

import io.icegate.access.delta.iceberg.ForwardingFileIO;
import io.icegate.core.model.Resource;
import io.icegate.core.model.Table;
import io.icegate.core.repo.Repositories;
import io.icegate.core.store.Idempotence;
import io.icegate.core.store.ReadTransaction;
import io.icegate.overlay.store.capture.CaptureLeases;
import io.icegate.overlay.store.capture.Captures;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFile;

/**
 * The write leases ({@link CaptureLeases}) a run's Delta captures hold on their Tables' generated
 * prefixes under one Catalog's warehouse. A capture writes nothing under a Table's prefix without
 * one: {@link #around} takes a Table's lease before the first file its capture creates (so a
 * capture that fails before writing, say on an unreachable upstream, writes nothing to the store
 * either) and renews it before a later one once the lease is older than {@link #RENEW_AFTER}.
 * Each lease is taken in a transaction that reads the run's fence and the Table (live, of this
 * Catalog, managed by the run's Overlay); the transaction that deletes the Table reads the lease
 * and turns it into a deleted-table entry for the collector. So on every store, whichever
 * commits first: either the deletion sees the lease and the collector will take the files, or
 * the capture sees the Table gone and writes nothing more. A capture in
 * flight at a deletion writes at most for {@link #RENEW_AFTER} more (plus one file), far below
 * the collector's grace, which starts when a pass first sees the Table deleted. A lease the
 * collector cleared as stale (older than its grace: it may then have taken the capture's files)
 * is never renewed, and a capture without its lease is not published ({@link Captures}).
 */
final class WriteLeases {
  /**
   * How long a lease is used without a store round trip: bounds what a capture in flight writes
   * after its Table's deletion, and keeps renewals to one transaction a minute per Table.
   */
  static final Duration RENEW_AFTER = Duration.ofMinutes(1);

  private static final CaptureLeases LEASES = new CaptureLeases();

  private final Repositories repositories;
  private final RunFence fence;
  private final String catalogId;
  private final Map<String, Long> renewed = new ConcurrentHashMap<>();

  WriteLeases(Repositories repositories, RunFence fence, String catalogId) {
    this.repositories = repositories;
    this.fence = fence;
    this.catalogId = catalogId;
  }

  /**
   * Thrown when a Table's lease cannot be renewed: the Table was deleted during its capture, or
   * the lease lapsed (a collector cleared it as older than its grace, and may have taken the
   * files written so far; or another capture of the Table published first).
   */
  static final class LeaseLostException extends RuntimeException {
    LeaseLostException(String message) {
      super(message);
    }
  }

  /** What a renewal found. */
  private enum Renewal { HELD, TABLE_GONE, LAPSED }

  /**
   * {@code io} for Table {@code tableId}'s capture: its lease taken before the first file is
   * created, and renewed before a later one once older than {@link #RENEW_AFTER}.
   */
  FileIO around(String tableId, FileIO io) {
    return new ForwardingFileIO(io) {
      @Override
      public OutputFile newOutputFile(String path) {
        renew(tableId);
        return super.newOutputFile(path);
      }
    };
  }

  /**
   * Takes {@code tableId}'s lease at its capture's first file, renews it when older than {@link
   * #RENEW_AFTER}.
   *
   * @throws LeaseLostException when the Table is gone or the lease lapsed
   * @throws io.icegate.core.error.IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  private void renew(String tableId) {
    long now = repositories.clock().millis();
    Long last = renewed.get(tableId);
    if (last != null && now - last < RENEW_AFTER.toMillis()) {
      return;
    }
    boolean first = last == null;
    Renewal renewal = repositories.store().run(Idempotence.IDEMPOTENT, tx -> {
      fence.assertCurrent(tx);
      if (!live(tx, tableId)) {
        return Renewal.TABLE_GONE;
      }
      // never taken again once gone: what was written under it may have been collected
      if (!first && LEASES.get(tx, fence.accountId(), catalogId, tableId).isEmpty()) {
        return Renewal.LAPSED;
      }
      LEASES.renew(tx, fence.accountId(), catalogId, tableId, now);
      return Renewal.HELD;
    });
    switch (renewal) {
      case HELD -> renewed.put(tableId, now);
      case TABLE_GONE -> throw new LeaseLostException("table " + tableId + " was deleted before "
          + "or during its capture; nothing more is written for it, and what was is left to the "
          + "generated-files collector");
      case LAPSED -> throw new LeaseLostException("the write lease of table " + tableId
          + " lapsed during its capture (held longer than the collector's grace without a "
          + "write, or another capture published first); captured again at the next round");
    }
  }

  /** Whether Table {@code tableId} is live, of this Catalog, managed by the run's Overlay. */
  private boolean live(ReadTransaction tx, String tableId) {
    Optional<Resource<Table>> table = repositories.tables(fence.accountId()).get(tx, tableId);
    return table.filter(t -> t.spec().catalogId().equals(catalogId)
        && t.spec().provenance() != null
        && t.spec().provenance().overlayId().equals(fence.overlay().id())).isPresent();
  }
}
