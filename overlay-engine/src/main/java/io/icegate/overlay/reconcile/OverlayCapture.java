package io.icegate.overlay.reconcile;

import io.icegate.access.client.CatalogClient;
import io.icegate.core.error.ErrorCode;
import io.icegate.core.error.IcegateException;
import io.icegate.core.model.Integration;
import io.icegate.core.model.Resource;
import io.icegate.core.model.ResourceKind;
import io.icegate.core.overlay.ReconcileRuns;
import io.icegate.core.repo.Repositories;
import io.icegate.overlay.adapter.IntegrationAdapter;
import io.icegate.overlay.adapter.IntegrationClients;
import io.icegate.overlay.generated.CatalogFiles;
import io.icegate.overlay.tablevalidation.FileScope;
import io.icegate.overlay.tablevalidation.TableValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture on request (issue 10: {@code POST .../overlays/{overlay}/capture}): every managed Iceberg
 * Table of the Overlay is compared with the upstream's current metadata location and captured
 * when it moved, and every managed Delta Table is read at the upstream's version and captured
 * when that version is new ({@link DeltaCapturer}, issue 26); then each is validated when its
 * current capture has no validation yet. The capture holds a run of the Overlay like a reconcile
 * ({@link ReconcileRuns}), so the two never overlap, and every pointer transaction is fenced by
 * it ({@link RunFence}); a capture that changes nothing writes nothing, its run record included.
 * {@link #captureTables} is the capture step both this and a reconcile run.
 * Thread-safe.
 */
public final class OverlayCapture {
  private static final Logger LOG = LoggerFactory.getLogger(OverlayCapture.class);

  private final Reconciler reconciler;
  private final Repositories repositories;
  private final IntegrationAdapter adapter;
  private final IntegrationClients clients;
  private final ReconcileSettings settings;

  public OverlayCapture(Reconciler reconciler, Repositories repositories,
      IntegrationAdapter adapter, IntegrationClients clients, ReconcileSettings settings) {
    this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    this.repositories = Objects.requireNonNull(repositories, "repositories");
    this.adapter = Objects.requireNonNull(adapter, "adapter");
    this.clients = Objects.requireNonNull(clients, "clients");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * The capture step of a run, shared by reconcile (its last phase) and capture on request: each
   * of {@code targets} whose upstream metadata location moved gets a new capture generation,
   * published in batches ({@link TableCapturer}), every pointer transaction fenced by {@code
   * fence}.
   *
   * @param stash full metadata the run's discovery kept ({@link MetadataStash#EMPTY}: none)
   * @param open opens the upstream client, only if some Table's metadata must be loaded
   * @return counts, warnings and the ids of the Tables that got a new capture generation
   * @throws IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  static TableCapturer.Result captureTables(Repositories repositories, RunFence fence,
      ReconcileSettings settings, List<TableCapturer.Target> targets, MetadataStash stash,
      Supplier<CatalogClient> open) {
    return new TableCapturer(repositories, fence, settings.concurrency(), settings.batch())
        .capture(targets, stash, open);
  }

  /**
   * The validation step of a run, after its capture step (issue 10: a reconcile validates before
   * it reports): those of {@code targets} whose current capture has no validation yet (the ones
   * just captured, and any an earlier run left pending), each publication fenced by the run
   * without renewing it.
   *
   * @throws IcegateException RECONCILE_SUPERSEDED when the run went stale
   */
  static TableValidator.Result validateTables(Repositories repositories,
      IntegrationClients clients, ReconcileSettings settings, RunFence fence,
      Resource<Integration> integration, List<TableCapturer.Target> targets,
      Supplier<CatalogClient> open, CatalogFiles catalogFiles) {
    TableValidator validator = new TableValidator(repositories, clients.policy(),
        settings.allowLocalFiles(), settings.concurrency(), catalogFiles,
        FileScope.CHANGED);
    List<String> pending = validator.pending(fence.accountId(),
        targets.stream().map(TableCapturer.Target::tableId).toList());
    return validator.validate(fence.accountId(), pending, integration, open, fence::assertCurrent);
  }

  /**
   * Captures the Overlay's managed Iceberg Tables now, then validates them.
   *
   * @throws IcegateException NOT_FOUND (account or Overlay), RECONCILE_IN_PROGRESS (a reconcile
   *     or capture holds the Overlay), RECONCILE_SUPERSEDED (the Overlay, its Integration or
   *     Catalog changed or is being deleted meanwhile)
   */
  public CaptureReport capture(String accountId, String overlayId) {
    long started = System.nanoTime();
    ReconcileRuns.Start start =
        reconciler.begin(accountId, overlayId, UUID.randomUUID().toString());
    if (start instanceof ReconcileRuns.Busy) {
      throw new IcegateException(ErrorCode.RECONCILE_IN_PROGRESS, ResourceKind.OVERLAY, overlayId);
    }
    ReconcileRuns.Ticket ticket = ((ReconcileRuns.Started) start).ticket();
    boolean ok = false;
    String outcome = "failed";
    CaptureReport report = null;
    try {
      Reconciler.Handle handle = reconciler.handle(accountId, overlayId, ticket);
      RunFence fence = new RunFence(repositories, reconciler.runs(), handle.integration(),
          handle.overlay(), ticket, handle.guard());
      repositories.store().read(tx -> {
        fence.assertCurrent(tx);
        return null;
      });
      List<TableCapturer.Target> targets =
          new TableCapturer(repositories, fence, settings.concurrency(), settings.batch())
              .ofOverlay(settings.batch());
      Supplier<CatalogClient> open = () -> clients.open(adapter.resolve(handle.integration()));
      TableCapturer.Result result =
          captureTables(repositories, fence, settings, targets, MetadataStash.EMPTY, open);
      // Delta tables: each read at the upstream's version now; an unchanged one writes nothing
      List<TableCapturer.Target> deltaTargets =
          new TableCapturer(repositories, fence, settings.concurrency(), settings.batch())
              .ofOverlay(settings.batch(), "DELTA");
      TableCapturer.Result delta = new DeltaCapturer(repositories, fence,
          reconciler.catalogFiles(), reconciler.manifestLists(), clients.policy(),
          settings.batch())
          .capture(deltaTargets, open);
      List<TableCapturer.Target> all = new ArrayList<>(targets);
      all.addAll(deltaTargets);
      TableValidator.Result validated = validateTables(repositories, clients, settings, fence,
          handle.integration(), all, open, reconciler.catalogFiles());
      List<String> warnings = new ArrayList<>(result.warnings());
      warnings.addAll(delta.warnings());
      warnings.addAll(validated.warnings());
      report = new CaptureReport(overlayId, ticket.generation(),
          result.captured() + delta.captured(), result.unchanged() + delta.unchanged(),
          result.failed() + delta.failed(), validated.validated(), validated.failed(),
          warnings, (System.nanoTime() - started) / 1_000_000);
      ok = true;
      outcome = "succeeded";
      return report;
    } catch (IcegateException e) {
      outcome = e.code().name();
      throw e;
    } finally {
      try {
        reconciler.finish(ticket, ok);
      } catch (RuntimeException e) {
        LOG.warn("recording the end of capture run {} of overlay {} failed: {}",
            ticket.generation(), overlayId, e.getClass().getName());
      }
      LOG.info("capture account={} overlay={} run={} outcome={} captured={} unchanged={}"
              + " failed={} durationMs={}", accountId, overlayId, ticket.generation(), outcome,
          report == null ? 0 : report.captured(), report == null ? 0 : report.unchanged(),
          report == null ? 0 : report.failed(), (System.nanoTime() - started) / 1_000_000);
    }
  }
}
